package main

import (
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// TestRefusedWarning: the words of a pipeline the driver refused with the
// layer's code: its instrumented stages (sorted, each once), the checks
// their sites report (sorted, each once; a site that reports none adds
// none) and the driver's result by name (or number).
func TestRefusedWarning(t *testing.T) {
	idx := &shader{instrumented: true, sites: []gpuav.Site{{Checks: []string{"descriptor_index_oob", "buffer_oob"}},
		{Checks: nil}, {Checks: []string{"buffer_oob"}}}}
	div := &shader{instrumented: true, sites: []gpuav.Site{{Checks: []string{"sanitizer_divide"}}}}
	bare := &shader{instrumented: true}
	for _, c := range []struct {
		name    string
		stages  []string
		shaders []*shader
		result  int32
		want    string
	}{
		{"compute", []string{"compute"}, []*shader{div}, -13,
			"the driver refused it with the layer's checks in its compute stage (checks sanitizer_divide): " +
				"VK_ERROR_UNKNOWN; it was created from the app's original shaders"},
		{"two stages", []string{"vertex", "fragment"}, []*shader{idx, div}, -1000012000,
			"the driver refused it with the layer's checks in its fragment, vertex stages (checks buffer_oob, " +
				"descriptor_index_oob, sanitizer_divide): VK_ERROR_INVALID_SHADER_NV; it was created from the app's " +
				"original shaders"},
		{"a stage twice, no sites", []string{"miss", "miss"}, []*shader{bare, bare}, -3,
			"the driver refused it with the layer's checks in its miss stage: VK_ERROR_INITIALIZATION_FAILED; it " +
				"was created from the app's original shaders"},
		{"no stage known", nil, nil, -1000999,
			"the driver refused it with the layer's checks in its stages: VkResult -1000999; it was created from the " +
				"app's original shaders"},
	} {
		if got := refusedWarning(c.stages, c.shaders, c.result); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestRefusedObjectNote: the words of a shader object the driver refused
// with the layer's code.
func TestRefusedObjectNote(t *testing.T) {
	for r, want := range map[int32]string{
		-13: "the driver refused its instrumented code: VK_ERROR_UNKNOWN; it runs the app's original code, unchecked",
		-7:  "the driver refused its instrumented code: VK_ERROR_EXTENSION_NOT_PRESENT; it runs the app's original code, unchecked",
		-99: "the driver refused its instrumented code: VkResult -99; it runs the app's original code, unchecked",
	} {
		if got := refusedObjectNote(r); got != want {
			t.Errorf("%d: got %q, want %q", r, got, want)
		}
	}
}
