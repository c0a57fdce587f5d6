package main

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// recordLines sums a run's records as "CB #ACTION COMMAND idx I: COUNT",
// sorted.
func recordLines(r result) []string {
	byHandle := map[uint64]string{}
	for name, h := range names(r) {
		byHandle[h] = name
	}
	sums := map[string]int{}
	for _, e := range all[wire.Errors](r) {
		for _, rec := range e.Records {
			idx := uint32(0)
			if len(rec.Params) > 2 {
				idx = rec.Params[2]
			}
			sums[fmt.Sprintf("%s #%d %s idx %d", byHandle[e.CommandBuffer], rec.ActionIndex, rec.Action, idx)] += rec.Count
		}
	}
	var out []string
	for k, n := range sums {
		out = append(out, fmt.Sprintf("%s: %d", k, n))
	}
	slices.Sort(out)
	return out
}

// TestBreadcrumbsPasses: with breadcrumbs per pass (the default on a GPU;
// VK_LAYER_GPUAV_DBG_BREADCRUMBS=passes here)
// the layer's marks move from each action to the ends of each region: a
// recording of render passes (dynamic and of a render pass object) and
// dispatches, of a secondary, and of a dynamic render pass suspended in one
// command buffer and resumed in the next (nothing of the layer's may come
// between) gives the same records as with per-action marks, and the
// referee (the Khronos layer below ours) finds nothing wrong with the
// layer's commands in either.
func TestBreadcrumbsPasses(t *testing.T) {
	for _, c := range []struct {
		mode string
		want []string // nil: as many as the actions' run, compared
	}{
		{"render", nil},
		{"secondary", nil},
		{"suspend", []string{
			"cmd-a #0 vkCmdDraw idx 2: 16",
			"cmd-b #0 vkCmdDraw idx 3: 16",
			"cmd-b #1 vkCmdDispatch idx 4: 4",
		}},
	} {
		t.Run(c.mode, func(t *testing.T) {
			actions := recordLines(runMulti(t, true, []string{"VK_LAYER_GPUAV_DBG_BREADCRUMBS=actions"}, c.mode))
			passes := recordLines(runMulti(t, true, []string{"VK_LAYER_GPUAV_DBG_BREADCRUMBS=passes"}, c.mode))
			if len(actions) == 0 || !slices.Equal(actions, passes) {
				t.Errorf("records with breadcrumbs per action\n%q\nper pass\n%q", actions, passes)
			}
			if c.want != nil && !slices.Equal(actions, c.want) {
				t.Errorf("records %q, want %q", actions, c.want)
			}
		})
	}
}
