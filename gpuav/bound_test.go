package gpuav

import (
	"errors"
	"slices"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestInstrumentIDBound: a module whose id bound is 0xFFFFFFFF (or too
// small for its ids) is left as it is, with an error saying why; it never
// comes back with ids that wrapped around onto ids in use.
func TestInstrumentIDBound(t *testing.T) {
	words := shadertest.Compile(t, "../examples/demo/shaders", "oob_compute.comp", "-g", "--target-env", "vulkan1.1")
	for _, bound := range []uint32{0xFFFFFFFF, spirv.MaxIDBound + 1, 3} {
		w := slices.Clone(words)
		w[3] = bound
		res, err := Instrument(w, Options{ShaderID: 1})
		if !errors.Is(err, spirv.ErrIDBound) || res.Instrumented || !slices.Equal(res.Words, w) {
			t.Errorf("bound %#x: instrumented %v, error %v; want the module untouched and an id bound error", bound, res.Instrumented, err)
		}
	}
}
