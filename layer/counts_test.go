package main

import (
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// TestSubmitCounts: the bye counts what the process's submits held, for
// the coverage: command buffers (a secondary once per primary that ran
// it), actions, those whose pipeline ran instrumented, and those of them
// that ran the precise variant (the fast one takes the push constant's
// index for granted: an out-of-range index runs the precise one). Exact,
// per mode of multi.
func TestSubmitCounts(t *testing.T) {
	off := []string{}
	for _, id := range gpuav.AllChecks {
		off = append(off, CheckEnv(id)+"=0")
	}
	for _, c := range []struct {
		name string
		env  []string
		args []string
		want wire.SubmitCounts
	}{
		// A primary's in-bounds dispatch (fast variant) and its
		// secondary's idx 5 (precise).
		{"secondary", nil, []string{"secondary"}, wire.SubmitCounts{CommandBuffers: 2, Actions: 2, Instrumented: 2, Precise: 1}},
		// One submit of 3 primaries, idx 2, 3 and 4.
		{"multi-cb", nil, []string{"multi-cb"}, wire.SubmitCounts{CommandBuffers: 3, Actions: 3, Instrumented: 3, Precise: 3}},
		// One command buffer submitted 3 times.
		{"resubmit", nil, []string{"resubmit", "--submits", "3"}, wire.SubmitCounts{CommandBuffers: 3, Actions: 3, Instrumented: 3, Precise: 3}},
		// Every check off: nothing instrumented.
		{"checks off", off, []string{"resubmit", "--submits", "2"}, wire.SubmitCounts{CommandBuffers: 2, Actions: 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runMulti(t, true, c.env, c.args[0], c.args[1:]...)
			byes := all[wire.Bye](r)
			if len(byes) != 1 || byes[0].Counts == nil {
				t.Fatalf("byes %+v, want one with counts", byes)
			}
			if *byes[0].Counts != c.want {
				t.Errorf("counts %+v, want %+v", *byes[0].Counts, c.want)
			}
		})
	}
}
