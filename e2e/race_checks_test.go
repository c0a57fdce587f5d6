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
