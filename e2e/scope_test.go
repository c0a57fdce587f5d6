package e2e

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// noticeJSON is one notice of the report.
type noticeJSON struct {
	Level string `json:"level"`
	Text  string `json:"text"`
}

// scopeReport is the part of the JSON report the scope tests read.
type scopeReport struct {
	Errors []struct {
		Check string `json:"check"`
		Count int    `json:"count"`
		errorWhere
	} `json:"errors"`
	Notices   []noticeJSON `json:"notices"`
	Unchecked []struct {
		Kind     string   `json:"kind"`
		Reason   string   `json:"reason"`
		Count    int      `json:"count"`
		Subjects []string `json:"subjects"`
	} `json:"unchecked"`
	Coverage struct {
		ActionsInstrumented *uint64 `json:"actions_instrumented"`
		Pipelines           struct {
			Seen         int `json:"seen"`
			Instrumented int `json:"instrumented"`
			LeftOut      []struct {
				Reason string `json:"reason"`
				Count  int    `json:"count"`
			} `json:"left_out"`
		} `json:"pipelines"`
	} `json:"coverage"`
}

// TestScope runs scopeapp (two compute pipelines, "blur" and "tonemap",
// each reading past its buffer's range) under scope_include and
// scope_exclude on lavapipe: only the pipelines in the scope report
// their errors; each left out is in the coverage's left-out pipelines and
// in the unchecked list with its handle and name, and a notice names it
// and the pattern. Pipelines are named after their creation (the
// pipelines case): they run instrumented and their records are not
// reported; modules named before it (the modules case) decide at
// creation, and the pipeline left out runs its original code (the
// actions instrumented say so). Exit 1 where the scope kept an error
// (errors come first), 4 where it kept none.
func TestScope(t *testing.T) {
	const after = " (decided after its creation: it ran instrumented, its errors are not reported)"
	tests := []struct {
		name   string
		kase   string
		flags  []string
		code   int
		errors []string // the pipelines whose group is reported
		// unchecked are the unchecked list's entries: "REASON: NAME", one
		// pipeline each.
		unchecked []string
		instr     uint64 // actions instrumented
	}{
		{name: "include", kase: "pipelines", flags: []string{"--scope", "blur"}, code: 1, errors: []string{"blur"},
			unchecked: []string{`left out of the scope: scope_include "blur" matches none of its names` + after + `: tonemap`},
			instr:     2},
		{name: "exclude", kase: "pipelines", flags: []string{"--scope-exclude", "blur"}, code: 1, errors: []string{"tonemap"},
			unchecked: []string{`left out of the scope: scope_exclude "blur" matches "blur"` + after + `: blur`}, instr: 2},
		{name: "include-module", kase: "modules", flags: []string{"--scope", "module:tone*"}, code: 1, errors: []string{"tonemap"},
			unchecked: []string{`left out of the scope: scope_include "module:tone*" matches none of its names: blur`},
			instr:     1},
		{name: "exclude-module", kase: "modules", flags: []string{"--scope-exclude", `re:^(blur|tonemap)\.comp$`}, code: 4,
			unchecked: []string{
				`left out of the scope: scope_exclude "re:^(blur|tonemap)\\.comp$" matches "blur.comp": blur`,
				`left out of the scope: scope_exclude "re:^(blur|tonemap)\\.comp$" matches "tonemap.comp": tonemap`,
			}, instr: 0},
		{name: "exclude-both", kase: "pipelines", flags: []string{"--scope-exclude", "blur, tonemap"}, code: 4,
			unchecked: []string{
				`left out of the scope: scope_exclude "blur" matches "blur"` + after + `: blur`,
				`left out of the scope: scope_exclude "tonemap" matches "tonemap"` + after + `: tonemap`,
			}, instr: 2},
	}
	subject := regexp.MustCompile(`^pipeline 0x[0-9a-f]+ "(.*)"$`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r scopeReport
			code, out := scopeApp.runInto(t, &r, nil, tt.flags, "--case", tt.kase)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s", code, tt.code, out)
			}
			var got []string
			for _, e := range r.Errors {
				if e.Check != "buffer_oob" || e.Count != 1 {
					t.Errorf("group %s ×%d of %q, want buffer_oob ×1", e.Check, e.Count, e.Pipeline.Name)
				}
				got = append(got, e.Pipeline.Name)
			}
			if !slices.Equal(got, tt.errors) {
				t.Errorf("groups of pipelines %q, want %q\n%s", got, tt.errors, out)
			}
			var unchecked []string
			for _, u := range r.Unchecked {
				if u.Kind != "pipeline" || u.Count != 1 || len(u.Subjects) != 1 {
					t.Errorf("unchecked %+v: want one pipeline, named", u)
					continue
				}
				m := subject.FindStringSubmatch(u.Subjects[0])
				if m == nil {
					t.Errorf("subject %q is not `pipeline 0x… \"NAME\"`", u.Subjects[0])
					continue
				}
				unchecked = append(unchecked, u.Reason+": "+m[1])
				line := fmt.Sprintf("gpuav-dbg:   1 pipeline: %s: %s\n", u.Reason, u.Subjects[0])
				if !strings.Contains(out, line) {
					t.Errorf("headless output lacks %q\n%s", line, out)
				}
				notice := fmt.Sprintf("%s is not checked: %s", u.Subjects[0], u.Reason)
				if !slices.ContainsFunc(r.Notices, func(n noticeJSON) bool { return n.Level == "warning" && n.Text == notice }) {
					t.Errorf("no warning notice %q\n%v", notice, r.Notices)
				}
			}
			if !slices.Equal(unchecked, tt.unchecked) {
				t.Errorf("unchecked\n%q\nwant\n%q", unchecked, tt.unchecked)
			}
			left := 0
			for _, l := range r.Coverage.Pipelines.LeftOut {
				left += l.Count
			}
			wantLeft := len(tt.unchecked)
			if r.Coverage.Pipelines.Seen != 2 || r.Coverage.Pipelines.Instrumented != 2-wantLeft || left != wantLeft ||
				!isU64(r.Coverage.ActionsInstrumented, tt.instr) {
				t.Errorf("coverage %+v, actions instrumented %v; want 2 pipelines, %d left out, %d actions instrumented",
					r.Coverage.Pipelines, r.Coverage.ActionsInstrumented, wantLeft, tt.instr)
			}
		})
	}
}
