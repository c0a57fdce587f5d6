package session

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// A session file is the header line FileHeader followed by the frames the
// launcher received, plus the launcher's own frames (wire.KindAppStarted,
// KindAppOutput, KindAppExited, KindNotice, KindTime, KindSourceFile).
// Error records are packed (wire.KindErrorsPacked). It is written as
// messages arrive, append only (docs/decisions/session-files.md), so a crash loses
// nothing already received.
//
// Since version 3 each frame has a 16-byte header with checksums, so that
// any damage is found at the frame it hit (AppendFileFrame):
//
//	| byte  | meaning                                         |
//	|-------|-------------------------------------------------|
//	| 0-7   | the wire header: 'G' 'V', kind, 0, length       |
//	| 8-11  | CRC-32C of the payload, little-endian           |
//	| 12-15 | CRC-32C of bytes 0-11, little-endian            |
//
// Versions 2 (plain wire frames, packed errors) and 1 (JSON errors) still
// open.
const FileHeader = "gpuav-dbg session 3\n"

// Older headers this version reads.
const (
	fileHeaderV2 = "gpuav-dbg session 2\n"
	fileHeaderV1 = "gpuav-dbg session 1\n"
)

// fileHeaders are the headers this version reads.
var fileHeaders = []string{FileHeader, fileHeaderV2, fileHeaderV1}

// FileFrameHeader is the size of a frame header in a version 3 file.
const FileFrameHeader = 16

// castagnoli is the CRC-32C table (SSE 4.2 computes it in hardware).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrChecksum: a frame of a session file does not match its checksum.
var ErrChecksum = errors.New("checksum mismatch")

// AppendFileFrame appends a version 3 frame of kind k carrying payload.
func AppendFileFrame(b []byte, k wire.Kind, payload []byte) []byte {
	start := len(b)
	b = append(b, wire.Magic[0], wire.Magic[1], byte(k), 0)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(payload, castagnoli))
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:start+12], castagnoli))
	return append(b, payload...)
}

// WriteFileFrame encodes msg as a frame of kind k and writes it to a
// version 3 session file in one Write.
func WriteFileFrame(w io.Writer, k wire.Kind, msg any) error {
	frame, err := wire.Encode(k, msg)
	if err != nil {
		return err
	}
	if _, err := w.Write(AppendFileFrame(nil, k, frame[wire.HeaderSize:])); err != nil {
		return fmt.Errorf("write %v frame: %w", k, err)
	}
	return nil
}

// frameReader reads the frames of a session file from a stream, one at a
// time into one buffer (a payload is valid until the next frame is read):
// opening a file costs memory for its largest frame and the session, not
// the file (a 758 MB session needed 1.56 GB, read whole).
type frameReader struct {
	r      *bufio.Reader
	header string
	off    int64 // where the next frame starts
	buf    []byte
}

// next reads the next frame: its kind and payload. At the clean end of the
// file it returns io.EOF. A frame cut short is an error wrapping
// wire.ErrTruncated; in a version 3 file, a header or payload that does
// not match its checksum wraps ErrChecksum. The header is checked before
// its length is trusted: no room is made for a payload a damaged header
// claims.
func (fr *frameReader) next() (wire.Kind, []byte, error) {
	size := wire.HeaderSize
	if fr.header == FileHeader {
		size = FileFrameHeader
	}
	var h [FileFrameHeader]byte
	got, err := io.ReadFull(fr.r, h[:size])
	switch {
	case got == 0 && err == io.EOF:
		return 0, nil, io.EOF
	case err != nil:
		return 0, nil, fmt.Errorf("%w: header cut after %d of %d bytes", wire.ErrTruncated, got, size)
	}
	if fr.header == FileHeader {
		if h[0] != wire.Magic[0] || h[1] != wire.Magic[1] {
			return 0, nil, fmt.Errorf("%w: % x", wire.ErrBadMagic, h[:2])
		}
		if got, want := crc32.Checksum(h[:12], castagnoli), binary.LittleEndian.Uint32(h[12:]); got != want {
			return 0, nil, fmt.Errorf("frame header: %w", ErrChecksum)
		}
	}
	k, n, err := wire.ParseHeader([wire.HeaderSize]byte(h[:wire.HeaderSize]))
	if err != nil {
		return k, nil, err
	}
	if cap(fr.buf) < n {
		fr.buf = make([]byte, n)
	}
	payload := fr.buf[:n:n]
	if got, err := io.ReadFull(fr.r, payload); err != nil {
		return k, nil, fmt.Errorf("%w: %v payload cut after %d of %d bytes", wire.ErrTruncated, k, got, n)
	}
	if fr.header == FileHeader && crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(h[8:12]) {
		return k, nil, fmt.Errorf("%v payload: %w", k, ErrChecksum)
	}
	fr.off += int64(size + n)
	return k, payload, nil
}

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

// CreateFile creates a session file at path, private to the user (mode
// 0600 whatever the umask, parent directories 0700), and writes its
// header. A file already there is replaced only when it is the user's own
// regular file; a symbolic link, another user's file or anything else is
// refused (CreatePrivate). Hand the file to Collector.SetFile; close it
// when the run is over.
func CreateFile(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create session %s: %w", path, bare(err))
	}
	f, err := CreatePrivate(path, 0o600, ReplaceOwn)
	if errors.Is(err, ErrRefusedPath) {
		return nil, fmt.Errorf("create session: %w", err)
	}
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

// openFile is Open with a hook to set the replay collector up. The file
// is streamed, frame by frame.
func openFile(path string, setup func(*Collector)) (*Session, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open session %s: %w", path, bare(err))
	}
	defer f.Close()
	s, err := parseStream(f, setup)
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
	return parseStream(bytes.NewReader(data), setup)
}

// parseStream reads a session file, or a JSON report (which is read
// whole), from r.
func parseStream(r io.Reader, setup func(*Collector)) (*Session, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	start, _ := br.Peek(len(FileHeader))
	if trimmed := bytes.TrimLeft(start, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '{' || len(start) > 0 && len(trimmed) == 0 {
		data, err := io.ReadAll(br)
		if err != nil {
			return nil, err
		}
		if trimmed := bytes.TrimLeft(data, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '{' {
			return parseReport(trimmed)
		}
		return nil, ErrNotSession
	}
	if len(start) < len(FileHeader) {
		for _, h := range fileHeaders {
			if bytes.HasPrefix([]byte(h), start) {
				return NewCollector().Snapshot(), &TruncatedError{Offset: 0, Err: errors.New("header cut short")}
			}
		}
	}
	if !bytes.HasPrefix(start, []byte(fileMagic)) {
		return nil, ErrNotSession
	}
	header := ""
	for _, h := range fileHeaders {
		if bytes.HasPrefix(start, []byte(h)) {
			header = h
		}
	}
	if header == "" {
		line, _, _ := bytes.Cut(start, []byte("\n"))
		if len(line) > 40 {
			line = line[:40]
		}
		return nil, fmt.Errorf("unsupported session file version %q (this gpuav-dbg reads %q)", line, FileHeader[:len(FileHeader)-1])
	}
	if _, err := br.Discard(len(header)); err != nil {
		return nil, err
	}
	c := NewCollector()
	c.replay = true
	if setup != nil {
		setup(c)
	}
	// Each payload is read into the reader's one buffer: the decoders
	// keep nothing of it.
	fr := &frameReader{r: br, header: header, off: int64(len(header))}
	for {
		at := fr.off
		k, payload, err := fr.next()
		if err == io.EOF {
			break
		}
		if err == nil {
			err = c.RecordFrame(k, payload)
		}
		if err != nil {
			c.finishReplay()
			return c.finish(), &TruncatedError{Offset: at, Err: err}
		}
	}
	c.finishReplay()
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
