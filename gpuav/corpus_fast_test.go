package gpuav

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
)

// TestCorpusFastChecks counts the checks left in the fast variants of the
// benchmark's pipeline corpus (bench/corpus), instrumented as the layer
// does (every check, sized-array element checks, printf): the report calls
// of each kind per shader family. What is left is what the layer's fast
// pipelines still compile; no compute shader keeps a buffer check, since
// its one unbounded store (v[g], g from gl_GlobalInvocationID) is decided
// at each dispatch (docs/decisions/action-facts.md). No loop of the corpus
// gets loop_budget's counter: each is proven (a constant bound, or the
// shared family's halving s >>= 1), so its loops pay nothing
// (docs/decisions/loop-budget.md).
func TestCorpusFastChecks(t *testing.T) {
	// Per family (the file name without its number) or file: buffer
	// checks, descriptor index checks and loop counters left in one
	// shader's fast variant. fs03 and fs07 read at an offset from gl_FragCoord, which
	// no fact bounds; the bindless shaders' push-constant indices are
	// decided at each action.
	want := map[string][3]int{
		"bindless": {0, 0, 0}, "loop": {0, 0, 0}, "matrix": {0, 0, 0}, "shared": {0, 0, 0}, "unrolled": {0, 0, 0},
		"vs": {0, 0, 0}, "fs": {0, 0, 0}, "fs03": {1, 0, 0}, "fs07": {1, 0, 0},
	}
	dir := filepath.Join("..", "bench", "corpus")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		ext := filepath.Ext(name)
		if ext != ".comp" && ext != ".frag" && ext != ".vert" {
			continue
		}
		n++
		family := strings.TrimRight(strings.TrimSuffix(name, ext), "0123456789")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := shadertest.Compile(t, dir, name, "--target-env", "vulkan1.2")
			res, err := Instrument(w, Options{ShaderID: 1, DescriptorSet: 1, SizedElementChecks: true, Printf: true})
			if err != nil {
				t.Fatal(err)
			}
			fast := res.Words
			if res.Precise != nil {
				fast = res.Precise.FastWords
			}
			dis := disassemble(t, fast)
			got := [3]int{strings.Count(dis, "OpFunctionCall %void %gpuav_report_buffer_check"),
				strings.Count(dis, "OpFunctionCall %void %gpuav_report_descriptor_index"),
				strings.Count(dis, "OpFunctionCall %void %gpuav_report_loop_budget")}
			w2, ok := want[strings.TrimSuffix(name, ext)]
			if !ok {
				w2, ok = want[family]
			}
			if !ok {
				t.Fatalf("family %q has no expectation", family)
			}
			if got != w2 {
				t.Errorf("fast variant: %d buffer checks, %d descriptor index checks, %d loop counters; want %d, %d, %d",
					got[0], got[1], got[2], w2[0], w2[1], w2[2])
			}
		})
	}
	if n < 50 {
		t.Fatalf("corpus too small: %d shaders", n)
	}
}
