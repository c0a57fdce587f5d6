package printf

import (
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestSites finds the three calls of testdata/sites.comp, in order, with
// their formats and argument counts, at the indices of their OpExtInst.
func TestSites(t *testing.T) {
	words := shadertest.Compile(t, "testdata", "sites.comp", "-g", "--target-env", "vulkan1.2")
	sites, err := Sites(words)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		format string
		args   int
	}{{"no value", 0}, {"i %u x %f v %v2f\n", 3}, {"no value", 0}}
	if len(sites) != len(want) {
		t.Fatalf("%d sites, want %d: %+v", len(sites), len(want), sites)
	}
	_, insts, _ := spirv.ParseInstructions(words)
	for i, s := range sites {
		if s.Format != want[i].format || len(s.Args) != want[i].args {
			t.Errorf("site %d: %q with %d args, want %q with %d", i, s.Format, len(s.Args), want[i].format, want[i].args)
		}
		if op := insts[s.Instruction].Opcode(); op != spirv.OpExtInst {
			t.Errorf("site %d: instruction %d is %v, not OpExtInst", i, s.Instruction, op)
		}
	}
	if sites[0].Instruction >= sites[1].Instruction || sites[1].Instruction >= sites[2].Instruction {
		t.Errorf("sites out of module order: %d, %d, %d", sites[0].Instruction, sites[1].Instruction, sites[2].Instruction)
	}
	if _, err := Sites([]uint32{1, 2}); err == nil {
		t.Error("Sites of a non-module: no error")
	}
}
