package session

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/golden"
	"github.com/gpuav-dbg/gpuav-dbg/internal/sariftest"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// sarifDoc is the part of a SARIF log the tests read.
type sarifDoc struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID         string         `json:"id"`
					HelpURI    string         `json:"helpUri"`
					Properties map[string]any `json:"properties"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		OriginalURIBaseIDs map[string]struct {
			URI string `json:"uri"`
		} `json:"originalUriBaseIds"`
		Results []struct {
			RuleID          string `json:"ruleId"`
			RuleIndex       int    `json:"ruleIndex"`
			Level           string `json:"level"`
			OccurrenceCount int    `json:"occurrenceCount"`
			Message         struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation *struct {
					ArtifactLocation struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine   int `json:"startLine"`
						StartColumn int `json:"startColumn"`
						Snippet     struct {
							Text string `json:"text"`
						} `json:"snippet"`
					} `json:"region"`
				} `json:"physicalLocation"`
				LogicalLocations []struct {
					Name               string `json:"name"`
					FullyQualifiedName string `json:"fullyQualifiedName"`
					Kind               string `json:"kind"`
				} `json:"logicalLocations"`
			} `json:"locations"`
			Properties map[string]any `json:"properties"`
		} `json:"results"`
		Invocations []struct {
			ExecutionSuccessful bool `json:"executionSuccessful"`
			ExitCode            *int `json:"exitCode"`
			Notifications       []struct {
				Level string `json:"level"`
			} `json:"toolExecutionNotifications"`
		} `json:"invocations"`
	} `json:"runs"`
}

// TestSARIFSchemaID checks that the $schema the logs name is the schema
// the tests validate against.
func TestSARIFSchemaID(t *testing.T) {
	if SARIFSchema != sariftest.SchemaID {
		t.Fatalf("SARIFSchema = %q, the tests' schema is %q", SARIFSchema, sariftest.SchemaID)
	}
}

func TestSARIFGolden(t *testing.T) {
	c := newTestCollector()
	fullRun(t, c)
	var buf bytes.Buffer
	if err := WriteSARIFWith(&buf, c.Snapshot(), SARIFOptions{SourceRoot: "/src/project", ToolVersion: "1.2.3"}); err != nil {
		t.Fatal(err)
	}
	sariftest.Check(t, buf.Bytes())
	golden.Assert(t, filepath.Join("testdata", "report.golden.sarif"), buf.Bytes())

	var d sarifDoc
	if err := json.Unmarshal(buf.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	run := d.Runs[0]
	if len(run.Results) != 2 || run.OriginalURIBaseIDs[SourceRootID].URI != "file:///src/project/" {
		t.Fatalf("%d results, base %+v", len(run.Results), run.OriginalURIBaseIDs)
	}
	// The compute group: at the source file, line and column, with the text.
	r := run.Results[0]
	pl := r.Locations[0].PhysicalLocation
	if r.RuleID != "descriptor_index_oob" || run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID || r.Level != "error" || r.OccurrenceCount != 4 ||
		pl == nil || pl.ArtifactLocation.URI != "oob_compute.comp" || pl.ArtifactLocation.URIBaseID != SourceRootID ||
		pl.Region.StartLine != 9 || pl.Region.StartColumn != 5 || pl.Region.Snippet.Text != "    outs[pc.idx].v[i] = i * 3u;" {
		t.Fatalf("compute result: %+v %+v", r, pl)
	}
	if r.Properties["count"] != 4.0 || r.Properties["action"] != "vkCmdDispatch" || r.Properties["vuid"] != "VUID-vkCmdDispatch-None-10068" {
		t.Fatalf("compute properties %v", r.Properties)
	}
	// The fragment group has no source: a logical location at the shader.
	r = run.Results[1]
	if len(r.Locations) != 1 || r.Locations[0].PhysicalLocation != nil || len(r.Locations[0].LogicalLocations) != 1 ||
		r.Locations[0].LogicalLocations[0].FullyQualifiedName != "shader 2/instruction 40" || r.Locations[0].LogicalLocations[0].Kind != "module" {
		t.Fatalf("fragment result locations: %+v", r.Locations)
	}
	rule := run.Tool.Driver.Rules[r.RuleIndex]
	// Two VUIDs (vkCmdDispatch's and vkCmdDraw's): listed, no single link.
	if vuids, _ := rule.Properties["vuids"].([]any); rule.HelpURI != "" || len(vuids) != 2 ||
		vuids[0] != "VUID-vkCmdDispatch-None-10068" || vuids[1] != "VUID-vkCmdDraw-None-10068" {
		t.Fatalf("rule %+v", rule)
	}
	if inv := run.Invocations[0]; !inv.ExecutionSuccessful || inv.ExitCode == nil || *inv.ExitCode != 0 || len(inv.Notifications) == 0 {
		t.Fatalf("invocation %+v", inv)
	}
}

func TestSARIFPaths(t *testing.T) {
	for _, c := range []struct {
		file, uri, base string
	}{
		{"shaders/a b.comp", "shaders/a%20b.comp", SourceRootID},
		{"./x/../y.frag", "y.frag", SourceRootID},
		{"/src/project/shaders/m.comp", "shaders/m.comp", SourceRootID},
		{"/src/projectX/m.comp", "file:///src/projectX/m.comp", ""},
		{"/usr/include/x.glsl", "file:///usr/include/x.glsl", ""},
	} {
		got := artifactLocation(c.file, "/src/project")
		if got.URI != c.uri || got.URIBaseID != c.base {
			t.Errorf("%s: %+v, want %s base %q", c.file, got, c.uri, c.base)
		}
	}
}

// TestSARIFEdgeCases: an empty session, a crashed app, an unknown check, a
// source with a line but no text or column: all valid SARIF.
func TestSARIFEdgeCases(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSARIFWith(&buf, NewCollector().Snapshot(), SARIFOptions{SourceRoot: "/"}); err != nil {
		t.Fatal(err)
	}
	sariftest.Check(t, buf.Bytes())
	if !strings.Contains(buf.String(), `"results": []`) {
		t.Fatalf("empty session: %s", buf.String())
	}

	c := newTestCollector()
	feedPreamble(t, c)
	r := computeRecord(0)
	r.Check, r.Code, r.Instruction = "", 99, 80 // unknown code (a JSON report can hold one); line 8 without column
	applyUnvalidated(c, &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: []wire.Record{r}})
	record(t, c, wire.KindAppExited, &wire.AppExited{Code: 139, Signal: "SIGSEGV", State: "crashed", Time: t0})
	buf.Reset()
	if err := WriteSARIFWith(&buf, c.Snapshot(), SARIFOptions{SourceRoot: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	sariftest.Check(t, buf.Bytes())
	var d sarifDoc
	if err := json.Unmarshal(buf.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	res := d.Runs[0].Results[0]
	pl := res.Locations[0].PhysicalLocation
	if res.RuleID != "unknown_check_99" || d.Runs[0].Tool.Driver.Rules[res.RuleIndex].ID != "unknown_check_99" ||
		pl == nil || pl.Region.StartLine != 8 || pl.Region.StartColumn != 0 || pl.Region.Snippet.Text != fakeFile[7] {
		t.Fatalf("result %+v", res)
	}
	if inv := d.Runs[0].Invocations[0]; inv.ExecutionSuccessful || inv.ExitCode == nil || *inv.ExitCode != 139 {
		t.Fatalf("crashed app invocation %+v", inv)
	}
	// The schema does catch what is wrong: an unknown level, a line 0, a
	// relative base URI.
	for _, bad := range [][2]string{
		{`"level": "error"`, `"level": "fatal"`},
		{`"startLine": 8`, `"startLine": 0`},
		{`"version": "2.1.0"`, `"version": "2.0.0"`},
		{`"uri": "file://`, `"uri": "%%bad`},
	} {
		if !strings.Contains(buf.String(), bad[0]) {
			t.Fatalf("no %s in the log", bad[0])
		}
		if err := sariftest.Validate([]byte(strings.Replace(buf.String(), bad[0], bad[1], 1))); err == nil {
			t.Errorf("%s validates", bad[1])
		}
	}
	// A broken writer is an error.
	if err := WriteSARIF(failWriter{}, c.Snapshot()); err == nil || !strings.Contains(err.Error(), "write SARIF") {
		t.Fatalf("failing writer: %v", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

// TestSARIFResolvesSourceFiles: a source file found in the search path,
// with the module's text at the line, is located relative to the
// repository root; one whose line differs is not taken for it.
func TestSARIFResolvesSourceFiles(t *testing.T) {
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	shaders := filepath.Join(repo, "examples", "demo", "shaders")
	build := filepath.Join(repo, "build")
	for _, d := range []string{shaders, build} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got := RepoRoot(build); got != repo {
		t.Fatalf("RepoRoot(%s) = %s, want %s", build, got, repo)
	}
	if got := RepoRoot(t.TempDir()); got == repo {
		t.Fatal("RepoRoot outside a checkout found the checkout")
	}
	for _, c := range []struct {
		name string
		line string // line 9 of the file on disk
		uri  string
		path string
	}{
		{"same text", fakeFile[8], "examples/demo/shaders/oob_compute.comp", filepath.Join(shaders, "oob_compute.comp")},
		{"edited since", "    outs[0].v[i] = 0u;", "oob_compute.comp", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			lines := append([]string(nil), fakeFile...)
			lines[8] = c.line
			if err := os.WriteFile(filepath.Join(shaders, "oob_compute.comp"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			col := newTestCollector()
			for _, p := range preamble() {
				if st, ok := p.m.(*wire.AppStarted); ok {
					st.Dir, st.SourcePath = build, []string{"../examples/demo/shaders"}
				}
				record(t, col, p.k, p.m)
			}
			record(t, col, wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: []wire.Record{computeRecord(0)}})
			s := col.Snapshot()
			if got := s.Groups[0].Source.Path; got != c.path {
				t.Fatalf("source path %q, want %q", got, c.path)
			}
			var buf bytes.Buffer
			if err := WriteSARIFWith(&buf, s, SARIFOptions{SourceRoot: repo}); err != nil {
				t.Fatal(err)
			}
			sariftest.Check(t, buf.Bytes())
			var log sarifLog
			if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
				t.Fatal(err)
			}
			al := log.Runs[0].Results[0].Locations[0].PhysicalLocation.ArtifactLocation
			if al.URI != c.uri || al.URIBaseID != SourceRootID || log.Runs[0].OriginalURIBaseIDs[SourceRootID].URI != "file://"+repo+"/" {
				t.Fatalf("artifact %+v, base %+v; want %s", al, log.Runs[0].OriginalURIBaseIDs, c.uri)
			}
		})
	}
}
