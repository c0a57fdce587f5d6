package sariftest

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name, data, err string // err: "" or a prefix of the error
	}{
		{"minimal", `{"version":"2.1.0","runs":[]}`, ""},
		{"not JSON", `{"version":`, "SARIF is not JSON: "},
		{"no runs", `{"version":"2.1.0"}`, "SARIF does not validate against the 2.1.0 schema: "},
		{"wrong version", `{"version":"2.0.0","runs":[]}`, "SARIF does not validate against the 2.1.0 schema: "},
		{"bad uri format", `{"version":"2.1.0","runs":[],"$schema":"not a uri"}`, "SARIF does not validate against the 2.1.0 schema: "},
	} {
		err := Validate([]byte(tc.data))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want prefix %q", tc.name, err, tc.err)
		}
	}
}
