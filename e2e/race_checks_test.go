package e2e

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// runRaceBare runs raceapp's case without any layer (the fixture is
// well-formed: it finishes and computes what it prints) and fails unless
// it prints result.
func runRaceBare(t *testing.T, kase, result string) {
	t.Helper()
	dir := raceApp.dir(t)
	cmd := exec.Command(filepath.Join(dir, "raceapp"), "--shaders", dir, "--case", kase)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), result+"\n") {
		t.Fatalf("raceapp --case %s without the layer: %v, printed %q, want %q", kase, err, out, result)
	}
}

// TestSharedMemoryRace runs raceapp's hazard cases on lavapipe
// (docs/decisions/shared-memory-race.md): in each of the two workgroups,
// local invocation 1 and 2 touch one shared scalar with no barrier between
// them, one after the other in program order; the group is the later
// access's line with the earlier one's as the other line, both
// invocations, the element and the count (one hazard per workgroup).
func TestSharedMemoryRace(t *testing.T) {
	tests := []struct {
		kase, kind, element, result string
		offset                      uint32
		later, earlier              uint32 // local invocation x
	}{
		{kase: "raw", kind: "read-after-write", element: "cells[5]", offset: 20, later: 2, earlier: 1, result: "r=0,0,7,0,0"},
		{kase: "war", kind: "write-after-read", element: "cells[6]", offset: 24, later: 1, earlier: 2, result: "r=0,0,6,0,0"},
		{kase: "waw", kind: "write-after-write", element: "cells[7]", offset: 28, later: 2, earlier: 1, result: "r=0,0,0,0,0"},
		// A struct member: pairs[3].b is scalar 7 of pairs (a, b per
		// element), byte 28.
		{kase: "struct", kind: "read-after-write", element: "pairs[3].b", offset: 28, later: 2, earlier: 1, result: "r=0,0,5,0,0"},
		// The write is in a function, put(): its line is the function's.
		{kase: "call", kind: "write-after-read", element: "cells[9]", offset: 36, later: 1, earlier: 2, result: "r=0,0,9,0,0"},
	}
	for _, tt := range tests {
		t.Run(tt.kase, func(t *testing.T) {
			runRaceBare(t, tt.kase, tt.result)
			code, r, out := raceApp.run(t, nil, nil, "--case", tt.kase)
			if !strings.Contains(out, tt.result+"\n") {
				t.Errorf("app printed no %q:\n%s", tt.result, out)
			}
			requireOneGroup(t, code, r, out)
			e := r.Errors[0]
			want := expectAt(t, "race.comp", "shared_memory_race", tt.kase)
			if e.Check != "shared_memory_race" || e.Source.File != "race.comp" || e.Source.Line != want.line || e.Source.Text != want.text ||
				e.Count != 2 || e.CommandBuffer.Name != "race-cmd" || e.Pipeline.Name != "race-pipeline" || e.Action != "vkCmdDispatch" {
				t.Errorf("group: %s %s:%d %q count %d, %s/%s %s; want shared_memory_race race.comp:%d count 2, race-cmd/race-pipeline vkCmdDispatch",
					e.Check, e.Source.File, e.Source.Line, e.Source.Text, e.Count, e.CommandBuffer.Name, e.Pipeline.Name, e.Action, want.line)
			}
			if e.VUID != "UNASSIGNED-Shared memory data race" || e.Level != "error" || e.Outcome == nil || e.Outcome.Access != "executed" {
				t.Errorf("vuid %q level %q outcome %+v, want the race id, error, executed", e.VUID, e.Level, e.Outcome)
			}
			// Both workgroups: the later invocation's global ids.
			if got := invocationsX(e.Samples); !slices.Equal(got, []float64{float64(tt.later), float64(64 + tt.later)}) {
				t.Errorf("invocations %v, want [%d %d]", got, tt.later, 64+tt.later)
			}
			rc := e.Race
			if rc == nil {
				t.Fatalf("no race values:\n%s", out)
			}
			g := uint32(e.Coords["global_invocation_id"][0]) - tt.later // the workgroup's first invocation
			if rc.Kind != tt.kind || rc.Variable != strings.Split(tt.element, "[")[0] || rc.Element != tt.element ||
				rc.ByteOffset == nil || *rc.ByteOffset != tt.offset ||
				rc.LocalID != [3]uint32{tt.later, 0, 0} || rc.OtherLocalID != [3]uint32{tt.earlier, 0, 0} ||
				rc.OtherGlobalID != [3]uint32{g + tt.earlier, 0, 0} {
				t.Errorf("race %+v (offset %v), want %s on %s byte %d, local %d after %d, other global %d",
					*rc, rc.ByteOffset, tt.kind, tt.element, tt.offset, tt.later, tt.earlier, g+tt.earlier)
			}
			other := lineOf(t, "race.comp", "// "+tt.kase+": first")
			if o := rc.OtherSource; o == nil || o.File != "race.comp" || o.Line != other || !strings.Contains(o.Text, "// "+tt.kase+": first") {
				t.Errorf("other source %+v, want race.comp:%d", o, other)
			}
			for _, s := range []string{tt.kind + " hazard on " + tt.element, "race.comp:" + strconv.Itoa(other)} {
				if !strings.Contains(e.Message, s) {
					t.Errorf("message %q lacks %q", e.Message, s)
				}
			}
		})
	}
}

// TestSharedMemoryRaceSameValue: every invocation writes 1 to one shared
// word with no barrier. Under the memory model that is a data race even
// though the values agree; it is reported as write-after-write (the
// shadow keeps no values: docs/decisions/shared-memory-race.md), once per
// invocation but the first of each workgroup.
func TestSharedMemoryRaceSameValue(t *testing.T) {
	runRaceBare(t, "same", "r=0,0,0,0,0")
	code, r, out := raceApp.run(t, nil, nil, "--case", "same")
	requireOneGroup(t, code, r, out)
	e := r.Errors[0]
	want := expectAt(t, "race.comp", "shared_memory_race", "same")
	if e.Source.Line != want.line || e.Count != 126 || e.Race == nil || e.Race.Kind != "write-after-write" || e.Race.Element != "flag" ||
		e.Race.OtherSource == nil || e.Race.OtherSource.Line != want.line || e.Race.LocalID == e.Race.OtherLocalID {
		t.Errorf("group race.comp:%d count %d race %+v; want race.comp:%d count 126, write-after-write on flag by two invocations, both on that line\n%s",
			e.Source.Line, e.Count, e.Race, want.line, out)
	}
}

// TestSharedMemoryRaceClean: what is synchronized reports nothing — a
// tree reduction with barrier() between its steps, atomics from every
// invocation on one word, an inclusive scan, an exchange through the
// subgroup (each invocation keeping its own cell), a write followed by
// barrier() and reads; each prints what it computed, with and without the
// layer.
func TestSharedMemoryRaceClean(t *testing.T) {
	for _, tt := range []struct{ kase, result, why string }{
		{"reduce", "r=2016,2016,2016,2016,2016", "the sum of 0..63 in every invocation"},
		{"atomics", "r=2016,2016,2016,2016,2016", "the atomic sum of 0..63"},
		{"prefix", "r=0,1,3,2016,0", "the inclusive scan of 0..63"},
		{"subgroup", "r=1,0,3,62,1", "each invocation's neighbour's index"},
		{"barrier", "r=40,40,40,40,40", "invocation 1's write, read after barrier()"},
	} {
		t.Run(tt.kase, func(t *testing.T) {
			runRaceBare(t, tt.kase, tt.result)
			raceApp.runClean(t, nil, tt.result, tt.why, "--case", tt.kase)
		})
	}
}

// subgroupSize reads raceapp's "subgroup=N" line.
func subgroupSize(t *testing.T, out string) uint32 {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, "subgroup="); ok {
			n, err := strconv.Atoi(v)
			if err == nil && n > 0 && 64%n == 0 {
				return uint32(n)
			}
		}
	}
	t.Fatalf("raceapp printed no subgroup size dividing 64:\n%s", out)
	return 0
}

// TestBarrierDivergence runs raceapp's cases where part of each workgroup
// returns before a barrier() (docs/decisions/barrier-divergence.md):
//
//   - exit: the second half (whole subgroups) returns; the barrier
//     completes with the first half, which the first invocation to arrive
//     reports after it: 32 of 64, local invocation 32 the lowest that
//     returned, once per workgroup;
//   - partial: the odd invocations (half of every subgroup) return; the
//     even ones see their subgroup incomplete before the barrier and, under
//     on_error skip, skip it (so it cannot hang): the lowest lane of each
//     subgroup reports half of the subgroup arrived, its lane 1 missing.
//     Under execute they wait at it, and it completes with 32 of 64.
//
// Each app finishes with the results it computes without the layer.
func TestBarrierDivergence(t *testing.T) {
	t.Run("exit", func(t *testing.T) {
		runRaceBare(t, "exit", "r=2,3,4,100,2")
		code, r, out := raceApp.run(t, nil, nil, "--case", "exit")
		if !strings.Contains(out, "r=2,3,4,100,2\n") {
			t.Errorf("app printed no r=2,3,4,100,2:\n%s", out)
		}
		requireOneGroup(t, code, r, out)
		e := r.Errors[0]
		want := expectAt(t, "race.comp", "barrier_divergence", "exit")
		b := e.Barrier
		if e.Check != "barrier_divergence" || e.Source.Line != want.line || e.Count != 2 || b == nil || b.Scope != "workgroup" ||
			b.Arrived != 32 || b.Expected != 64 || b.MissingLocalID == nil || *b.MissingLocalID != [3]uint32{32, 0, 0} ||
			b.Before != 1 || b.Skipped || e.Outcome == nil || e.Outcome.Access != "executed" {
			t.Errorf("group %s race.comp:%d count %d barrier %+v outcome %+v; want barrier_divergence race.comp:%d count 2, "+
				"workgroup 32 of 64, missing (32,0,0), 1 before, executed\n%s", e.Check, e.Source.Line, e.Count, b, e.Outcome, want.line, out)
		}
		if !strings.Contains(e.Message, "completed with 32 of the workgroup's 64 invocations; local invocation (32, 0, 0)") {
			t.Errorf("message %q", e.Message)
		}
	})
	t.Run("partial", func(t *testing.T) {
		runRaceBare(t, "partial", "r=2,200,4,200,2")
		code, r, out := raceApp.run(t, nil, nil, "--case", "partial")
		if !strings.Contains(out, "r=2,200,4,200,2\n") {
			t.Errorf("app printed no r=2,200,4,200,2:\n%s", out)
		}
		sg := subgroupSize(t, out)
		requireOneGroup(t, code, r, out)
		e := r.Errors[0]
		want := expectAt(t, "race.comp", "barrier_divergence", "partial")
		b := e.Barrier
		// One report per subgroup of each of the two workgroups, by its
		// lane 0 (invocation base): lane 1 (base + 1) is missing.
		if e.Source.Line != want.line || e.Count != int(2*64/sg) || b == nil || b.Scope != "subgroup" ||
			b.Arrived != sg/2 || b.Expected != sg || b.MissingLocalID == nil ||
			b.MissingLocalID[0] != uint32(e.Coords["global_invocation_id"][0])%64+1 || !b.Skipped ||
			e.Outcome == nil || e.Outcome.Access != "skipped" {
			t.Errorf("group race.comp:%d count %d barrier %+v (missing %v) at %v outcome %+v; want race.comp:%d count %d, subgroup %d of %d, "+
				"the reporter's index + 1 missing, skipped\n%s", e.Source.Line, e.Count, b, b.MissingLocalID, e.Coords, e.Outcome,
				want.line, 2*64/sg, sg/2, sg, out)
		}
	})
	t.Run("partial-execute", func(t *testing.T) {
		code, r, out := raceApp.run(t, nil, []string{"--on-error", "execute"}, "--case", "partial")
		if !strings.Contains(out, "r=2,200,4,200,2\n") || code != 1 || len(r.Errors) != 2 {
			t.Fatalf("exit %d, %d groups; want 1, 2 and r=2,200,4,200,2\n%s", code, len(r.Errors), out)
		}
		scopes := map[string]int{}
		for _, e := range r.Errors {
			if b := e.Barrier; b != nil {
				scopes[b.Scope]++
				if b.Scope == "workgroup" && (b.Arrived != 32 || b.Expected != 64 || b.MissingLocalID == nil ||
					*b.MissingLocalID != [3]uint32{1, 0, 0} || e.Count != 2) {
					t.Errorf("workgroup group count %d barrier %+v, want 32 of 64, (1,0,0) missing, count 2", e.Count, b)
				}
				if b.Scope == "subgroup" && (b.Skipped || e.Outcome == nil || e.Outcome.Access != "executed") {
					t.Errorf("subgroup group %+v outcome %+v, want executed", b, e.Outcome)
				}
			}
		}
		if scopes["subgroup"] != 1 || scopes["workgroup"] != 1 {
			t.Errorf("scopes %v, want one subgroup and one workgroup group", scopes)
		}
	})
}
