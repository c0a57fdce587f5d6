package session

import (
	"strings"
	"testing"
)

// TestMessageWithoutDebugInfo: a module with no debug info has no file, so
// the message carries the note and the disassembled instruction instead.
func TestMessageWithoutDebugInfo(t *testing.T) {
	g := &ErrorGroup{
		Check: "descriptor_index_oob",
		Count: 1,
		Stage: "compute",
		Source: &Source{
			Text:     "OpStore %24 %21",
			Language: "spirv",
			Note:     "the module has no debug info; showing the SPIR-V instruction in main",
		},
	}
	msg := buildMessage(g, "Index of 3 used to index descriptor array of length 2.")
	want := " Source unknown: the module has no debug info; showing the SPIR-V instruction in main.\nOpStore %24 %21"
	if !strings.HasSuffix(msg, want) {
		t.Fatalf("message:\n%q\nwant suffix\n%q", msg, want)
	}
}
