// Package sariftest validates SARIF logs against the official SARIF 2.1.0
// schema (OASIS, errata 01; session/testdata/sarif-schema-2.1.0.json) for
// the tests of other packages.
package sariftest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
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

// codeScanningLog is the part of a SARIF log GitHub code scanning reads.
type codeScanningLog struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string `json:"name"`
				Rules []struct {
					ID               string `json:"id"`
					ShortDescription struct {
						Text string `json:"text"`
					} `json:"shortDescription"`
					Help struct {
						Text string `json:"text"`
					} `json:"help"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		OriginalURIBaseIDs map[string]struct {
			URI string `json:"uri"`
		} `json:"originalUriBaseIds"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex *int   `json:"ruleIndex"`
			Message   struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation *struct {
					ArtifactLocation struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					} `json:"artifactLocation"`
					Region *struct {
						StartLine int `json:"startLine"`
					} `json:"region"`
				} `json:"physicalLocation"`
				LogicalLocations []json.RawMessage `json:"logicalLocations"`
			} `json:"locations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
		} `json:"results"`
	} `json:"runs"`
}

// Code scanning's limits (docs.github.com, "SARIF support for code
// scanning"): what it processes of one upload.
const (
	MaxRuns               = 20
	MaxResultsPerRun      = 25000
	MaxRulesPerRun        = 25000
	MaxLocationsPerResult = 1000
)

// CodeScanning returns nil when data is a SARIF log that GitHub code
// scanning takes as it is meant: a tool name; rules with an id, a short
// description and help; results that name a rule (ruleIndex pointing at
// it), carry a message, at least one location, a physical location's
// artifact with a uri relative to a uriBaseId the run defines (or an
// absolute file: URI) and a start line of at least 1, and
// partialFingerprints that no other result of the run has; and the limits.
func CodeScanning(data []byte) error {
	var log codeScanningLog
	if err := json.Unmarshal(data, &log); err != nil {
		return fmt.Errorf("SARIF is not JSON: %w", err)
	}
	if log.Version != "2.1.0" {
		return fmt.Errorf("code scanning: version %q, want 2.1.0", log.Version)
	}
	if len(log.Runs) > MaxRuns {
		return fmt.Errorf("code scanning: %d runs, at most %d", len(log.Runs), MaxRuns)
	}
	for ri, run := range log.Runs {
		if run.Tool.Driver.Name == "" {
			return fmt.Errorf("code scanning: run %d: no tool.driver.name", ri)
		}
		rules := run.Tool.Driver.Rules
		if len(rules) > MaxRulesPerRun {
			return fmt.Errorf("code scanning: run %d: %d rules", ri, len(rules))
		}
		ids := map[string]int{}
		for i, r := range rules {
			if r.ID == "" || r.ShortDescription.Text == "" || r.Help.Text == "" {
				return fmt.Errorf("code scanning: run %d: rule %d %q lacks an id, a short description or help", ri, i, r.ID)
			}
			if _, dup := ids[r.ID]; dup {
				return fmt.Errorf("code scanning: run %d: rule %q twice", ri, r.ID)
			}
			ids[r.ID] = i
		}
		if len(run.Results) > MaxResultsPerRun {
			return fmt.Errorf("code scanning: run %d: %d results, at most %d", ri, len(run.Results), MaxResultsPerRun)
		}
		fps := map[string]int{}
		for i, res := range run.Results {
			where := fmt.Sprintf("code scanning: run %d result %d", ri, i)
			idx, ok := ids[res.RuleID]
			switch {
			case !ok:
				return fmt.Errorf("%s: ruleId %q names no rule", where, res.RuleID)
			case res.RuleIndex != nil && *res.RuleIndex != idx:
				return fmt.Errorf("%s: ruleIndex %d is not rule %q", where, *res.RuleIndex, res.RuleID)
			case res.Message.Text == "":
				return fmt.Errorf("%s: no message text", where)
			case len(res.Locations) == 0 || len(res.Locations) > MaxLocationsPerResult:
				return fmt.Errorf("%s: %d locations", where, len(res.Locations))
			case len(res.PartialFingerprints) == 0:
				return fmt.Errorf("%s: no partialFingerprints", where)
			}
			for k, v := range res.PartialFingerprints {
				if v == "" {
					return fmt.Errorf("%s: partialFingerprints %q is empty", where, k)
				}
				key := k + "=" + v
				if j, dup := fps[key]; dup {
					return fmt.Errorf("%s: partialFingerprints %s is result %d's too", where, key, j)
				}
				fps[key] = i
			}
			for _, loc := range res.Locations {
				pl := loc.PhysicalLocation
				if pl == nil {
					if len(loc.LogicalLocations) == 0 {
						return fmt.Errorf("%s: a location with neither a physical nor a logical location", where)
					}
					continue
				}
				uri, base := pl.ArtifactLocation.URI, pl.ArtifactLocation.URIBaseID
				switch {
				case uri == "":
					return fmt.Errorf("%s: no artifactLocation.uri", where)
				case base != "":
					if _, ok := run.OriginalURIBaseIDs[base]; !ok {
						return fmt.Errorf("%s: uriBaseId %q is not in originalUriBaseIds", where, base)
					}
					if strings.HasPrefix(uri, "/") || strings.Contains(uri, "://") || strings.HasPrefix(uri, "../") {
						return fmt.Errorf("%s: uri %q is not relative to %s", where, uri, base)
					}
				case !strings.HasPrefix(uri, "file://"):
					return fmt.Errorf("%s: uri %q has neither a uriBaseId nor a file: scheme", where, uri)
				}
				if pl.Region != nil && pl.Region.StartLine < 1 {
					return fmt.Errorf("%s: startLine %d", where, pl.Region.StartLine)
				}
			}
		}
		for id, base := range run.OriginalURIBaseIDs {
			if !strings.HasPrefix(base.URI, "file://") || !strings.HasSuffix(base.URI, "/") {
				return fmt.Errorf("code scanning: run %d: originalUriBaseIds %s = %q is not an absolute file: URI of a directory", ri, id, base.URI)
			}
		}
	}
	return nil
}

// CheckCodeScanning fails the test when CodeScanning finds something wrong.
func CheckCodeScanning(t testing.TB, data []byte) {
	t.Helper()
	if err := CodeScanning(data); err != nil {
		t.Fatal(err)
	}
}
