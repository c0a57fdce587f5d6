package session

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
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

// sarifOf writes a session's SARIF log with the source root root, checks
// it against the schema and code scanning's rules, and reads it back.
func sarifOf(t *testing.T, s *Session, root string) (sarifLog, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteSARIFWith(&buf, s, SARIFOptions{SourceRoot: root}); err != nil {
		t.Fatal(err)
	}
	sariftest.Check(t, buf.Bytes())
	sariftest.CheckCodeScanning(t, buf.Bytes())
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	return log, buf.Bytes()
}

// TestSARIFOneResultPerPlace: the records of one check at one source line
// in many actions, command buffers and submits are one result with their
// count and a few sample actions; its fingerprint is the same in another
// run whose handles, action numbers and submits differ.
func TestSARIFOneResultPerPlace(t *testing.T) {
	for _, c := range []struct {
		name              string
		cmdBufs           []uint64
		first, actions    uint32
		wantCount, wantCB int
		wantMore          string
	}{
		{"100 actions of one command buffer", []uint64{0x55}, 0, 100, 100, 1, " and 95 more."},
		{"3 actions of two command buffers", []uint64{0x1234, 0x5678}, 7, 3, 6, 2, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			col := newTestCollector()
			feedPreamble(t, col)
			for i, cb := range c.cmdBufs {
				var recs []wire.Record
				for a := c.first; a < c.first+c.actions; a++ {
					r := computeRecord(a)
					r.ActionIndex = a
					recs = append(recs, r)
				}
				record(t, col, wire.KindErrors, &wire.Errors{Submit: uint64(i + 3), CommandBuffer: cb, Records: recs})
			}
			s := col.Snapshot()
			if len(s.Groups) != c.wantCount {
				t.Fatalf("%d groups", len(s.Groups))
			}
			log, _ := sarifOf(t, s, "/src/project")
			res := log.Runs[0].Results
			if len(res) != 1 {
				t.Fatalf("%d results, want 1", len(res))
			}
			r := res[0]
			want := fmt.Sprintf("%d failed accesses in %d actions", c.wantCount, c.wantCount)
			if c.wantCB > 1 {
				want += fmt.Sprintf(" of %d command buffers", c.wantCB)
			}
			if r.OccurrenceCount != c.wantCount || r.Properties["count"] != float64(c.wantCount) ||
				r.Properties["actions"] != float64(c.wantCount) || !strings.Contains(r.Message.Text, want) ||
				!strings.Contains(r.Message.Text, c.wantMore) || !strings.Contains(r.Message.Text, "vkCmdDispatch #"+fmt.Sprint(c.first)+" of command buffer") {
				t.Fatalf("result %d %v\n%s", r.OccurrenceCount, r.Properties, r.Message.Text)
			}
			if samples, _ := r.Properties["sample_actions"].([]any); len(samples) != min(c.wantCount, sarifSampleActions) {
				t.Fatalf("%d sample actions", len(samples))
			}
			// The fingerprint: the check, the file and the line's text, the
			// pipeline's name; nothing of this run's.
			sum := sha256.Sum256([]byte("descriptor_index_oob|error|oob_compute.comp|" + strings.TrimSpace(fakeFile[8]) + "|oob-compute-pipeline"))
			if fp := r.PartialFingerprints[FingerprintKey]; fp != hex.EncodeToString(sum[:16]) {
				t.Fatalf("fingerprint %q", fp)
			}
		})
	}
}

// TestSARIFSplitsByPlaceAndPipeline: other lines, other checks and other
// pipeline names are other results; two results of the same words get
// different fingerprints.
func TestSARIFSplitsByPlaceAndPipeline(t *testing.T) {
	col := newTestCollector()
	feedPreamble(t, col)
	record(t, col, wire.KindName, &wire.Name{Handle: 0x78, ObjectType: "pipeline", Name: "other"})
	a, b, other, nosrc := computeRecord(0), computeRecord(1), computeRecord(2), computeRecord(3)
	b.ActionIndex = 1
	other.Pipeline, other.ActionIndex = 0x78, 2
	nosrc.Instruction = 81 // no debug information
	record(t, col, wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: []wire.Record{a, b, other, nosrc}})
	log, data := sarifOf(t, col.Snapshot(), "/src/project")
	res := log.Runs[0].Results
	if len(res) != 3 {
		t.Log(string(data))
		t.Fatalf("%d results, want 3", len(res))
	}
	seen := map[string]bool{}
	for i, want := range []int{2, 1, 1} {
		if res[i].OccurrenceCount != want {
			t.Errorf("result %d: count %d, want %d", i, res[i].OccurrenceCount, want)
		}
		fp := res[i].PartialFingerprints[FingerprintKey]
		if seen[fp] {
			t.Errorf("result %d: fingerprint %s twice", i, fp)
		}
		seen[fp] = true
	}
	if res[2].Locations[0].PhysicalLocation != nil || res[2].Locations[0].LogicalLocations[0].FullyQualifiedName != "shader 1 (module 0xabc)/instruction 81" {
		t.Fatalf("no-source result: %+v", res[2].Locations)
	}
	results := []sarifResult{{PartialFingerprints: map[string]string{FingerprintKey: "x"}}, {PartialFingerprints: map[string]string{FingerprintKey: "x"}}}
	uniqueFingerprints(results)
	if results[0].PartialFingerprints[FingerprintKey] == results[1].PartialFingerprints[FingerprintKey] {
		t.Fatal("two results of the same words share a fingerprint")
	}
}

// TestSARIFRuleTextFollowsOnError: with on_error clamp or execute no rule
// says an access was skipped (a command check under clamp still skips its
// draws); with skip the registry's help stands.
func TestSARIFRuleTextFollowsOnError(t *testing.T) {
	for _, c := range []struct {
		set  Settings
		want string
	}{
		{Settings{OnError: "skip"}, ""},
		{Settings{OnError: "clamp"}, "This run had on_error clamp"},
		{Settings{OnError: "execute"}, "This run had on_error execute"},
		{Settings{OnError: "skip", Robust: true}, "This run was robust-only"},
	} {
		for _, ch := range gpuav.Checks {
			got := ruleHelp(&ch, c.set)
			switch {
			case c.want == "":
				if got != ch.Help {
					t.Errorf("%s %+v: %q", ch.ID, c.set, got)
				}
				continue
			case ch.Command && (c.set.OnError == "clamp" || c.set.Robust):
				if got != ch.Help {
					t.Errorf("%s %+v: %q", ch.ID, c.set, got)
				}
				continue
			}
			lower := strings.ToLower(got)
			if strings.Contains(lower, "skipped it") || strings.Contains(lower, "skipped the access") || strings.Contains(lower, "skips") ||
				strings.Contains(lower, "yields zero") || strings.Contains(lower, " .") || !strings.HasSuffix(got, ".") {
				t.Errorf("%s %+v: %q", ch.ID, c.set, got)
			}
			if !strings.Contains(got, c.want) && !(ch.Command && c.set.Robust) {
				t.Errorf("%s %+v: %q lacks %q", ch.ID, c.set, got, c.want)
			}
		}
	}
	// In a log: the rule of a clamp run.
	col := newTestCollector()
	for _, p := range preamble() {
		if h, ok := p.m.(*wire.Hello); ok {
			h.Settings.OnError = "clamp"
		}
		record(t, col, p.k, p.m)
	}
	log, _ := sarifOf(t, col.Snapshot(), "/")
	if h := log.Runs[0].Tool.Driver.Rules[0].Help.Text; strings.Contains(h, "skipped") || !strings.Contains(h, "on_error clamp") {
		t.Fatalf("rule help %q", h)
	}
}

// TestSARIFFindsSourcesInRepo: a file the session did not find on disk is
// looked for in the repository by its name and the module's text at the
// line; where none or several match, the result keeps the bare name and
// the run carries a warning.
func TestSARIFFindsSourcesInRepo(t *testing.T) {
	// write writes the module's text with line 1 and 9 replaced ("" keeps
	// them).
	write := func(t *testing.T, path string, lines2 [2]string) {
		t.Helper()
		lines := append([]string(nil), fakeFile...)
		if lines2[0] != "" {
			lines[0] = lines2[0]
		}
		if lines2[1] != "" {
			lines[8] = lines2[1]
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	same, edited := [2]string{}, [2]string{"", "    outs[0].v[i] = 0u;"}
	for _, c := range []struct {
		name  string
		files map[string][2]string // path in the repo -> lines 1 and 9
		uri   string
		warn  string
		note  string
	}{
		{"the one with the text", map[string][2]string{"shaders/oob_compute.comp": same, "old/oob_compute.comp": edited},
			"shaders/oob_compute.comp", "", ""},
		{"the whole text decides", map[string][2]string{"a/oob_compute.comp": {"#version 460", ""}, "b/oob_compute.comp": same},
			"b/oob_compute.comp", "", ""},
		{"the line where the text differs", map[string][2]string{"a/oob_compute.comp": {"#version 460", ""}, "b/oob_compute.comp": edited},
			"a/oob_compute.comp", "", ""},
		{"hidden directories left out", map[string][2]string{"shaders/oob_compute.comp": same, ".cache/oob_compute.comp": same},
			"shaders/oob_compute.comp", "", ""},
		{"copies", map[string][2]string{"b/oob_compute.comp": same, "a/oob_compute.comp": same},
			"a/oob_compute.comp", "", "source file oob_compute.comp: 2 copies of it in the repository"},
		{"not there", map[string][2]string{"shaders/other.comp": same}, "oob_compute.comp",
			"source file oob_compute.comp is not in the repository", ""},
		{"edited since", map[string][2]string{"shaders/oob_compute.comp": edited}, "oob_compute.comp",
			"no file of that name in the repository", ""},
		{"two alike at the line", map[string][2]string{"a/oob_compute.comp": {"#version 460", ""}, "b/oob_compute.comp": {"#version 450 core", ""}},
			"oob_compute.comp", "2 files in the repository", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo := t.TempDir()
			if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			for p, l := range c.files {
				write(t, filepath.Join(repo, p), l)
			}
			col := newTestCollector()
			feedPreamble(t, col)
			record(t, col, wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: []wire.Record{computeRecord(0)}})
			var warned []string
			var buf bytes.Buffer
			if err := WriteSARIFWith(&buf, col.Snapshot(), SARIFOptions{SourceRoot: repo, Warn: func(w string) { warned = append(warned, w) }}); err != nil {
				t.Fatal(err)
			}
			sariftest.Check(t, buf.Bytes())
			sariftest.CheckCodeScanning(t, buf.Bytes())
			var log sarifLog
			if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
				t.Fatal(err)
			}
			al := log.Runs[0].Results[0].Locations[0].PhysicalLocation.ArtifactLocation
			if al.URI != c.uri || al.URIBaseID != SourceRootID {
				t.Fatalf("artifact %+v, want %s", al, c.uri)
			}
			var notes []string
			note := ""
			for _, n := range log.Runs[0].Invocations[0].Notifications {
				switch {
				case n.Level == "warning":
					notes = append(notes, n.Message.Text)
				case strings.HasPrefix(n.Message.Text, "source file"):
					note = n.Message.Text
				}
			}
			if !strings.HasPrefix(note, c.note) || (c.note == "") != (note == "") {
				t.Fatalf("note %q, want %q", note, c.note)
			}
			switch {
			case c.warn == "" && (len(warned) != 0 || len(notes) != 0):
				t.Fatalf("warnings %q %q", warned, notes)
			case c.warn != "" && (len(warned) != 1 || len(notes) != 1 || !strings.Contains(warned[0], c.warn) || notes[0] != warned[0] ||
				!strings.Contains(warned[0], "--source-path")):
				t.Fatalf("warnings %q %q, want %q", warned, notes, c.warn)
			}
		})
	}
}
