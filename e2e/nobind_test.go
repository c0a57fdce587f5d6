package e2e

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// bindsNotice matches the layer's test line (VK_LAYER_GPUAV_DBG_TEST_BINDS)
// of a command buffer: its actions, those whose variant used the layer's
// set, and the layer's binds of it.
var bindsNotice = regexp.MustCompile(`test: command buffer 0x[0-9a-f]+: (\d+) actions, (\d+) used the layer's set, (\d+) binds of it`)

// TestNoBindForCheckFreeVariants: an action whose pipeline runs a variant
// with no check left (bound_free.comp's fast variant where its facts hold,
// bound.frag's) uses nothing of the layer's set, and the layer binds
// nothing for it (docs/decisions/no-bind-for-check-free-variants.md); an
// action of the same pipeline whose facts fail runs the precise variant,
// which gets its set bound and reports with its exact action index, also
// after a check-free action (bound.comp's store at result.r[g] is decided
// by the dispatch's grid, docs/decisions/action-facts.md); a pipeline whose
// fast variant keeps a check (bound_kept.comp's store, whose local size is
// a specialization constant) binds for every action. The same
// holds in a secondary command buffer (free_secondary). The Khronos
// layer below ours (the referee) would report a set its shader uses that
// is not bound.
func TestNoBindForCheckFreeVariants(t *testing.T) {
	env := []string{"VK_LAYER_GPUAV_DBG_TEST_BINDS=1"}
	tests := []struct {
		kase, stage, result string
		// binds: per command buffer, in the order they end, its actions,
		// those that used the layer's set and the layer's binds of it
		binds string
		// errAction: the action of the one error group (-1: none), at
		// line of the shader file
		errAction, line int
		file            string
	}{
		{kase: "free_clean", result: "r=1136,6136,3136,8136", binds: "1/0/0", errAction: -1},
		{kase: "free_holds_then_not", result: "r=1120,6120,3120,8120", binds: "2/1/1", errAction: 1, line: 19, file: "bound_free.comp"},
		{kase: "free_fails_then_holds", result: "r=1136,6136,3136,8136", binds: "2/1/1", errAction: 0, line: 19, file: "bound_free.comp"},
		{kase: "holds_then_not", result: "r=1120,6120,3120,8120", binds: "2/1/1", errAction: 1, line: 19, file: "bound.comp"},
		{kase: "kept_holds_then_not", result: "r=1120,6120,3120,8120", binds: "2/2/2", errAction: 1, line: 19, file: "bound_kept.comp"},
		{kase: "free_secondary", result: "r=1120,6120,3120,8120", binds: "2/1/1 0/0/0", errAction: 1, line: 19, file: "bound_free.comp"},
		{kase: "clean", stage: "fragment", result: "r=136", binds: "1/0/0", errAction: -1},
		{kase: "loop_last", stage: "fragment", result: "r=120", binds: "1/1/1", errAction: 0, line: 16, file: "bound.frag"},
	}
	for _, tt := range tests {
		t.Run(tt.kase+tt.stage, func(t *testing.T) {
			args := []string{"--case", tt.kase}
			if tt.stage != "" {
				args = append(args, "--stage", tt.stage)
			}
			code, r, out := boundApp.run(t, env, nil, args...)
			if !regexp.MustCompile(`(?m)^` + tt.result + `$`).MatchString(out) {
				t.Errorf("app printed no %q:\n%s", tt.result, out)
			}
			var got []string
			for _, n := range r.Notices {
				if m := bindsNotice.FindStringSubmatch(n.Text); m != nil {
					got = append(got, fmt.Sprintf("%s/%s/%s", m[1], m[2], m[3]))
				}
			}
			if strings.Join(got, " ") != tt.binds {
				t.Errorf("actions/used/binds %q, want %q", got, tt.binds)
			}
			// Every error group, and the one expected (none with errAction -1).
			var groups, want []string
			for _, e := range r.Errors {
				groups = append(groups, fmt.Sprintf("%s %s:%d %s action %d ×%d values %+v", e.Check, e.Source.File, e.Source.Line, e.CommandBuffer.Name, e.ActionIndex, e.Count, e.Buffer))
			}
			wantCode := 0
			if tt.errAction >= 0 {
				wantCode = 1
				// Four invocations of a dispatch, one fragment of a point.
				n := 4
				if tt.stage == "fragment" {
					n = 1
				}
				want = append(want, fmt.Sprintf("buffer_oob %s:%d bound-cmd action %d ×%d values &{Offset:60 Size:4 Range:60 Highest:63 Write:false Kind:storage Robust:false Coop:false}",
					tt.file, tt.line, tt.errAction, n))
			}
			if code != wantCode || !slices.Equal(groups, want) {
				t.Errorf("exit %d, groups %q; want exit %d, groups %q\n%s", code, groups, wantCode, want, out)
			}
		})
	}
}
