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

func TestCodeScanning(t *testing.T) {
	const ok = `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[{"id":"r","shortDescription":{"text":"s"},"help":{"text":"h"}}]}},
"originalUriBaseIds":{"SRCROOT":{"uri":"file:///src/"}},
"results":[{"ruleId":"r","ruleIndex":0,"message":{"text":"m"},"partialFingerprints":{"k":"1"},
 "locations":[{"physicalLocation":{"artifactLocation":{"uri":"a/b.comp","uriBaseId":"SRCROOT"},"region":{"startLine":3}}}]},
 {"ruleId":"r","message":{"text":"m"},"partialFingerprints":{"k":"2"},
 "locations":[{"logicalLocations":[{"name":"shader 1"}]}]}]}]}`
	if err := CodeScanning([]byte(ok)); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][2]string{
		{`"name":"x"`, `"name":""`},
		{`"help":{"text":"h"}`, `"help":{"text":""}`},
		{`"ruleId":"r","ruleIndex":0`, `"ruleId":"q","ruleIndex":0`},
		{`"ruleIndex":0`, `"ruleIndex":1`},
		{`"message":{"text":"m"},"partialFingerprints":{"k":"1"}`, `"message":{"text":""},"partialFingerprints":{"k":"1"}`},
		{`{"k":"2"}`, `{"k":"1"}`},
		{`{"k":"1"}`, `{}`},
		{`"uri":"a/b.comp"`, `"uri":"/a/b.comp"`},
		{`"uri":"a/b.comp"`, `"uri":"../b.comp"`},
		{`"uriBaseId":"SRCROOT"}`, `"uriBaseId":"OTHER"}`},
		{`"uri":"a/b.comp","uriBaseId":"SRCROOT"`, `"uri":"a/b.comp"`},
		{`"startLine":3`, `"startLine":0`},
		{`"uri":"file:///src/"`, `"uri":"file:///src"`},
		{`"logicalLocations":[{"name":"shader 1"}]`, `"logicalLocations":[]`},
	} {
		bad := strings.Replace(ok, c[0], c[1], 1)
		if bad == ok {
			t.Fatalf("%s not in the log", c[0])
		}
		if err := CodeScanning([]byte(bad)); err == nil {
			t.Errorf("%s: no error", c[1])
		}
	}
}
