package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gpuav-dbg/gpuav-dbg/internal/sanitize"
)

// ReportMode is the mode reports are written with unless asked otherwise:
// the session file's, since they hold the same source lines and names.
const ReportMode os.FileMode = 0o600

// WriteReport writes the headless JSON report of a session: the Session's
// JSON form (field names as in model.go's tags, version 1), errors in
// arrival order, empty lists as [] rather than null, indented.
func WriteReport(w io.Writer, s *Session) error {
	if err := encodeReport(w, s); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// encodeReport writes the report; its error is the encoder's or w's.
func encodeReport(w io.Writer, s *Session) error {
	r := *s
	r.Version = Version
	if r.App.Args == nil {
		r.App.Args = []string{}
	}
	if r.Groups == nil {
		r.Groups = []*ErrorGroup{}
	}
	r.Printf = reportPrintf(s.Printf)
	r.Unchecked = s.UncheckedAll()
	cv := s.Coverage()
	r.CoverageReport = &cv
	if r.Settings.Checks == nil {
		r.Settings.Checks = map[string]bool{}
	}
	return encodeJSON(w, &r)
}

// encodeJSON writes v as indented JSON whose strings hold no raw C1
// control or bidi override (sanitize.JSON: the same value, safe to print).
func encodeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(sanitize.JSON(buf.Bytes()))
	return err
}

// writeFile creates path with mode (exactly: whatever the umask, and a
// file of the user's that was there gets it too; anything else there is
// refused: CreatePrivate) and writes it with write, saying what failed
// once: "write <what> PATH: reason".
func writeFile(what, path string, mode os.FileMode, write func(io.Writer) error) error {
	f, err := CreatePrivate(path, mode, ReplaceOwn)
	if errors.Is(err, ErrRefusedPath) {
		return fmt.Errorf("write %s: %w", what, err)
	}
	if err == nil {
		err = write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("write %s %s: %w", what, path, bare(err))
	}
	return nil
}

// WriteReportFile writes the JSON report to path ("-" is standard output)
// with ReportMode.
func WriteReportFile(path string, s *Session) error { return WriteReportFileMode(path, s, ReportMode) }

// WriteReportFileMode is WriteReportFile with the file's mode.
func WriteReportFileMode(path string, s *Session, mode os.FileMode) error {
	if path == "-" {
		return WriteReport(os.Stdout, s)
	}
	return writeFile("report", path, mode, func(w io.Writer) error { return encodeReport(w, s) })
}
