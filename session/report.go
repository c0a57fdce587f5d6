package session

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

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
	r.Unchecked = s.UncheckedAll()
	if r.Settings.Checks == nil {
		r.Settings.Checks = map[string]bool{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(&r)
}

// writeFile creates path and writes it with write, saying what failed
// once: "write <what> PATH: reason".
func writeFile(what, path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
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

// WriteReportFile writes the JSON report to path ("-" is standard output).
func WriteReportFile(path string, s *Session) error {
	if path == "-" {
		return WriteReport(os.Stdout, s)
	}
	return writeFile("report", path, func(w io.Writer) error { return encodeReport(w, s) })
}
