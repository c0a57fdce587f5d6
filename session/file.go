package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// A session file is the header line FileHeader followed by the frames the
// launcher received, as on the wire, plus the launcher's own frames
// (wire.KindAppStarted, KindAppOutput, KindAppExited, KindNotice,
// KindTime). Error records are written packed (wire.KindErrorsPacked, since
// version 2); version 1 files, with JSON errors frames, still open. It is
// written as messages arrive, append only (DESIGN decision 8), so a crash
// loses nothing already received.
const FileHeader = "gpuav-dbg session 2\n"

// fileHeaders are the headers this version reads.
var fileHeaders = []string{FileHeader, "gpuav-dbg session 1\n"}

// fileMagic is the header's version-independent part.
const fileMagic = "gpuav-dbg session "

// FileExt is the session file extension.
const FileExt = ".gvs"

// bare returns the cause that an *fs.PathError carries, without the
// operation and path it repeats, for messages that name both already:
// "open session X: no such file or directory", not "open session X: open
// X: no such file or directory".
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// CreateFile creates (or truncates) a session file at path, private to the
// user (mode 0600, parent directories 0700), and writes its header. Hand
// the file to Collector.SetFile; close it when the run is over.
func CreateFile(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create session %s: %w", path, bare(err))
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create session %s: %w", path, bare(err))
	}
	if _, err := f.WriteString(FileHeader); err != nil {
		f.Close()
		return nil, fmt.Errorf("create session %s: %w", path, bare(err))
	}
	return f, nil
}

// DefaultDir is where sessions go by default:
// $XDG_STATE_HOME/gpuav-dbg/sessions, or ~/.local/state/gpuav-dbg/sessions.
func DefaultDir() (string, error) {
	state := os.Getenv("XDG_STATE_HOME")
	if state == "" || !filepath.IsAbs(state) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("session directory: %w", err)
		}
		state = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(state, "gpuav-dbg", "sessions"), nil
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// DefaultPath is the default session file of a run of app started at t:
// DefaultDir()/<AppName(app)>-<20060102-150405>.gvs, or with -2, -3... before
// the extension when a run of the same second is already there (History
// reads them all).
func DefaultPath(app string, t time.Time) (string, error) {
	dir, err := DefaultDir()
	if err != nil {
		return "", err
	}
	stem := filepath.Join(dir, fmt.Sprintf("%s-%s", AppName(app), t.Format(timeLayout)))
	p := stem + FileExt
	for n := 2; n < 1000; n++ {
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			break
		}
		p = fmt.Sprintf("%s-%d%s", stem, n, FileExt)
	}
	return p, nil
}

// TruncatedError says that a session file stopped being readable at
// Offset: the session returned with it holds everything before.
type TruncatedError struct {
	Path   string // "" when read from memory
	Offset int64
	Err    error
}

// Error is one line for the user: "session F truncated at byte N: why"
// for a file cut short, "session F corrupt at byte N: why" for bytes that
// do not decode.
func (e *TruncatedError) Error() string {
	what := "corrupt"
	if errors.Is(e.Err, wire.ErrTruncated) || e.Offset == 0 {
		what = "truncated"
	}
	if e.Path == "" {
		return fmt.Sprintf("session %s at byte %d: %v", what, e.Offset, e.Err)
	}
	return fmt.Sprintf("session %s %s at byte %d: %v", e.Path, what, e.Offset, e.Err)
}

// Unwrap returns the reason.
func (e *TruncatedError) Unwrap() error { return e.Err }

// ErrNotSession: the data is neither a session file nor a JSON report.
var ErrNotSession = errors.New("not a gpuav-dbg session file or JSON report")

// Open reads a session file, or a JSON report (a file starting with '{').
// A session file that is cut short or corrupt opens as far as it is
// readable: Open then returns that session AND a *TruncatedError saying at
// which byte and why it stopped. Any other error comes with a nil session.
func Open(path string) (*Session, error) { return openFile(path, nil) }

// openFile is Open with a hook to set the replay collector up.
func openFile(path string, setup func(*Collector)) (*Session, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("open session %s: %w", path, bare(err))
	}
	s, err := parseWith(data, setup)
	if err != nil {
		var te *TruncatedError
		if errors.As(err, &te) {
			te.Path = path
			return s, te
		}
		return nil, fmt.Errorf("open session %s: %w", path, err)
	}
	return s, nil
}

// Parse reads a session file's bytes, or a JSON report's; see Open.
func Parse(data []byte) (*Session, error) { return parseWith(data, nil) }

// parseWith is Parse with a hook to adjust the replay collector (tests).
func parseWith(data []byte, setup func(*Collector)) (*Session, error) {
	if trimmed := bytes.TrimLeft(data, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '{' {
		return parseReport(trimmed)
	}
	if len(data) < len(FileHeader) {
		for _, h := range fileHeaders {
			if bytes.HasPrefix([]byte(h), data) {
				return NewCollector().Snapshot(), &TruncatedError{Offset: 0, Err: errors.New("header cut short")}
			}
		}
	}
	if !bytes.HasPrefix(data, []byte(fileMagic)) {
		return nil, ErrNotSession
	}
	header := ""
	for _, h := range fileHeaders {
		if bytes.HasPrefix(data, []byte(h)) {
			header = h
		}
	}
	if header == "" {
		line, _, _ := bytes.Cut(data, []byte("\n"))
		if len(line) > 40 {
			line = line[:40]
		}
		return nil, fmt.Errorf("unsupported session file version %q (this gpuav-dbg reads %q)", line, FileHeader[:len(FileHeader)-1])
	}
	c := NewCollector()
	c.replay = true
	if setup != nil {
		setup(c)
	}
	// Frames are read in place: no copy of the payloads, which the
	// decoders do not keep.
	off := len(header)
	for off < len(data) {
		if len(data)-off < wire.HeaderSize {
			return c.finish(), &TruncatedError{Offset: int64(off),
				Err: fmt.Errorf("%w: header cut after %d of %d bytes", wire.ErrTruncated, len(data)-off, wire.HeaderSize)}
		}
		k, size, err := wire.ParseHeader([wire.HeaderSize]byte(data[off : off+wire.HeaderSize]))
		if err != nil {
			return c.finish(), &TruncatedError{Offset: int64(off), Err: err}
		}
		body := data[off+wire.HeaderSize:]
		if len(body) < size {
			return c.finish(), &TruncatedError{Offset: int64(off),
				Err: fmt.Errorf("%w: %v payload cut after %d of %d bytes", wire.ErrTruncated, k, len(body), size)}
		}
		if err := c.RecordFrame(k, body[:size:size]); err != nil {
			return c.finish(), &TruncatedError{Offset: int64(off), Err: err}
		}
		off += wire.HeaderSize + size
	}
	return c.finish(), nil
}

// parseReport reads a JSON report back into a session (without SPIR-V,
// source files or app output, which a report does not carry).
func parseReport(data []byte) (*Session, error) {
	var s Session
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("read JSON report: %w", err)
	}
	if s.Version != Version {
		return nil, fmt.Errorf("read JSON report: version %d, this gpuav-dbg reads %d", s.Version, Version)
	}
	for i, g := range s.Groups {
		if g == nil {
			return nil, fmt.Errorf("read JSON report: errors[%d] is null", i)
		}
	}
	s.Shaders = map[uint32]*Shader{}
	s.Sources = map[SourceKey][]string{}
	return &s, nil
}
