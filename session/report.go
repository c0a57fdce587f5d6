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
	if err := enc.Encode(&r); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// WriteReportFile writes the JSON report to path ("-" is standard output).
func WriteReportFile(path string, s *Session) error {
	if path == "-" {
		return WriteReport(os.Stdout, s)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write report %s: %w", path, err)
	}
	if err := WriteReport(f, s); err != nil {
		f.Close()
		return fmt.Errorf("write report %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write report %s: %w", path, err)
	}
	return nil
}
