package detail

import (
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

// A texel_buffer_oob group shows the access and the view's size.
func TestFieldsTexel(t *testing.T) {
	g := fixture.Compute()
	g.Check = "texel_buffer_oob"
	g.Texel = &session.Texel{Texel: -1, Count: 8, Write: true, Atomic: true, Kind: "storage"}
	want := map[string]string{
		"Access":    "atomic write of texel -1 of a storage texel buffer",
		"View size": "8 texels",
	}
	for _, f := range Fields(g, 0) {
		if w, ok := want[f.Label]; ok {
			if f.Value != w {
				t.Errorf("%s = %q, want %q", f.Label, f.Value, w)
			}
			delete(want, f.Label)
		}
	}
	if len(want) != 0 {
		t.Errorf("fields missing: %v", want)
	}
}
