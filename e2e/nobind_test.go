package e2e

import (
	"fmt"
	"regexp"
	"strconv"
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
// after a check-free action; a pipeline whose fast variant keeps a check
// (bound.comp's store at result.r[g]) binds for every action. The Khronos
// layer below ours (the referee) would report a set its shader uses that
// is not bound.
func TestNoBindForCheckFreeVariants(t *testing.T) {
	env := []string{"VK_LAYER_GPUAV_DBG_TEST_BINDS=1"}
	tests := []struct {
		kase, stage, result string
		// the command buffer's actions, those that used the layer's set
		// and the layer's binds
		actions, used, binds int
		// errAction: the action of the one error group (-1: none), at
		// line of the shader file
		errAction, line int
		file            string
	}{
		{kase: "free_clean", result: "r=1136,6136,3136,8136", actions: 1, used: 0, binds: 0, errAction: -1},
		{kase: "free_holds_then_not", result: "r=1120,6120,3120,8120", actions: 2, used: 1, binds: 1, errAction: 1, line: 19, file: "bound_free.comp"},
		{kase: "free_fails_then_holds", result: "r=1136,6136,3136,8136", actions: 2, used: 1, binds: 1, errAction: 0, line: 19, file: "bound_free.comp"},
		{kase: "holds_then_not", result: "r=1120,6120,3120,8120", actions: 2, used: 2, binds: 2, errAction: 1, line: 19, file: "bound.comp"},
		{kase: "clean", stage: "fragment", result: "r=136", actions: 1, used: 0, binds: 0, errAction: -1},
		{kase: "loop_last", stage: "fragment", result: "r=120", actions: 1, used: 1, binds: 1, errAction: 0, line: 16, file: "bound.frag"},
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
			if want := strconv.Itoa(tt.actions) + "/" + strconv.Itoa(tt.used) + "/" + strconv.Itoa(tt.binds); len(got) != 1 || got[0] != want {
				t.Errorf("actions/used/binds %q, want one %q", got, want)
			}
			if tt.errAction < 0 {
				requireSilent(t, code, r, out)
				return
			}
			if code != 1 || len(r.Errors) != 1 {
				t.Fatalf("exit %d, %d error groups; want 1, 1\n%s", code, len(r.Errors), out)
			}
			e := r.Errors[0]
			if b := e.Buffer; e.Check != "buffer_oob" || e.Source.File != tt.file || e.Source.Line != tt.line ||
				e.ActionIndex != tt.errAction || b == nil || b.Offset != 60 || b.Range != 60 || b.Size != 4 {
				t.Errorf("group %s %s:%d action %d values %+v; want buffer_oob %s:%d action %d offset 60 range 60",
					e.Check, e.Source.File, e.Source.Line, e.ActionIndex, e.Buffer, tt.file, tt.line, tt.errAction)
			}
		})
	}
}
