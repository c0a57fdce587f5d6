// Package sariftest validates SARIF logs against the official SARIF 2.1.0
// schema (OASIS, errata 01; session/testdata/sarif-schema-2.1.0.json) for
// the tests of other packages.
package sariftest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SchemaID is the schema's $id (session.SARIFSchema; this package may not
// import session, whose tests use it).
const SchemaID = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// schema compiles the schema once, with formats (uri, date-time) asserted.
var schema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		return nil, fmt.Errorf("sariftest: cannot locate the source tree")
	}
	path := filepath.Join(filepath.Dir(self), "..", "..", "session", "testdata", "sarif-schema-2.1.0.json")
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("sariftest: %w", err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, fmt.Errorf("sariftest: read %s: %w", path, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(SchemaID, doc); err != nil {
		return nil, fmt.Errorf("sariftest: add %s: %w", path, err)
	}
	s, err := c.Compile(SchemaID)
	if err != nil {
		return nil, fmt.Errorf("sariftest: compile %s: %w", path, err)
	}
	return s, nil
})

// Validate returns nil when data is a valid SARIF 2.1.0 log, or what is
// wrong with it (or with the schema).
func Validate(data []byte) error {
	s, err := schema()
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("SARIF is not JSON: %w", err)
	}
	if err := s.Validate(inst); err != nil {
		return fmt.Errorf("SARIF does not validate against the 2.1.0 schema: %w", err)
	}
	return nil
}

// Check fails the test when data is not a valid SARIF 2.1.0 log.
func Check(t testing.TB, data []byte) {
	t.Helper()
	if err := Validate(data); err != nil {
		t.Fatal(err)
	}
}
