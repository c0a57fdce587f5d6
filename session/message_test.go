package session

import (
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// TestMessageWithoutDebugInfo: a module with no debug info has no file, so
// the message carries the note and the disassembled instruction instead.
func TestMessageWithoutDebugInfo(t *testing.T) {
	g := &ErrorGroup{
		Check:     "descriptor_index_oob",
		Count:     1,
		Stage:     "compute",
		code:      gpuav.CheckCode(1),
		params:    [gpuav.RecordParams]uint32{0, 0, 3, 2},
		described: true,
		Where: Where{
			Source: &Source{
				Text:     "OpStore %24 %21",
				Language: "spirv",
				Note:     "the module has no debug info; showing the SPIR-V instruction in main",
			},
		},
	}
	msg := g.Message()
	want := " Source unknown: the module has no debug info; showing the SPIR-V instruction in main.\nOpStore %24 %21"
	if !strings.HasSuffix(msg, want) {
		t.Fatalf("message:\n%q\nwant suffix\n%q", msg, want)
	}
}
