package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// A session file is the header line FileHeader followed by the frames the
// launcher received, exactly as on the wire, plus the launcher's own frames
// (wire.KindAppStarted, KindAppOutput, KindAppExited, KindNotice). It is
// written as messages arrive, append only (DESIGN decision 8), so a crash
// loses nothing already received.
const FileHeader = "gpuav-dbg session 1\n"

// fileMagic is the header's version-independent part.
const fileMagic = "gpuav-dbg session "

// FileExt is the session file extension.
const FileExt = ".gvs"

// CreateFile creates (or truncates) a session file at path, private to the
// user (mode 0600, parent directories 0700), and writes its header. Hand
// the file to Collector.SetFile; close it when the run is over.
func CreateFile(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create session %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create session %s: %w", path, err)
	}
	if _, err := f.WriteString(FileHeader); err != nil {
		f.Close()
		return nil, fmt.Errorf("create session %s: %w", path, err)
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
// DefaultDir()/<app base name>-<20060102-150405>.gvs.
func DefaultPath(app string, t time.Time) (string, error) {
	dir, err := DefaultDir()
	if err != nil {
		return "", err
	}
	name := unsafeName.ReplaceAllString(filepath.Base(app), "_")
	if name == "" || name == "." || name == ".." {
		name = "app"
	}
	return filepath.Join(dir, fmt.Sprintf("%s-%s%s", name, t.Format("20060102-150405"), FileExt)), nil
}

// TruncatedError says that a session file stopped being readable at
// Offset: the session returned with it holds everything before.
type TruncatedError struct {
	Path   string // "" when read from memory
	Offset int64
	Err    error
}

// Error is one line for the user.
func (e *TruncatedError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("session truncated at byte %d: %v", e.Offset, e.Err)
	}
	return fmt.Sprintf("session %s truncated at byte %d: %v", e.Path, e.Offset, e.Err)
}

// Unwrap returns the reason.
func (e *TruncatedError) Unwrap() error { return e.Err }

// ErrNotSession: the data is neither a session file nor a JSON report.
var ErrNotSession = errors.New("not a gpuav-dbg session file or JSON report")

// Open reads a session file, or a JSON report (a file starting with '{').
// A session file that is cut short or corrupt opens as far as it is
// readable: Open then returns that session AND a *TruncatedError saying at
// which byte and why it stopped. Any other error comes with a nil session.
func Open(path string) (*Session, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("open session %s: %w", path, err)
	}
	s, err := Parse(data)
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
		if bytes.HasPrefix([]byte(FileHeader), data) {
			return NewCollector().Snapshot(), &TruncatedError{Offset: 0, Err: errors.New("header cut short")}
		}
	}
	if !bytes.HasPrefix(data, []byte(fileMagic)) {
		return nil, ErrNotSession
	}
	if !bytes.HasPrefix(data, []byte(FileHeader)) {
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
	off := int64(len(FileHeader))
	r := bytes.NewReader(data[off:])
	for {
		k, payload, err := wire.ReadFrame(r)
		if err != nil {
			if err == io.EOF {
				return c.Snapshot(), nil
			}
			return c.Snapshot(), &TruncatedError{Offset: off, Err: err}
		}
		if err := c.RecordFrame(k, payload); err != nil {
			return c.Snapshot(), &TruncatedError{Offset: off, Err: err}
		}
		off += int64(wire.HeaderSize + len(payload))
	}
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
