package gpuav

import (
	"slices"
	"testing"
)

// TestErrorMessageText: the one message the session and the layer show,
// for a shader's record (every field), a layer record (no shader) and the
// sources a module may or may not give.
func TestErrorMessageText(t *testing.T) {
	at := uint32(3)
	d := Describe(CodeDescriptorIndexOOB, [RecordParams]uint32{0, 1, 5, 4})
	shader := ErrorMessage{Check: CheckDescriptorIndexOOB, What: d.Message, Outcome: OutcomeSentence(CheckDescriptorIndexOOB, AccessClamped, &at, ""),
		Loop: 3, VUID: d.VUID("vkCmdDispatch"), CommandBuffer: `0x55 ("cmd")`, ActionIndex: 2, Action: "vkCmdDispatch",
		Labels: []string{"frame", "pass"}, Primary: "0x66", PrimaryAction: 7, Submit: 4, Pipeline: `0x77 ("p")`, Shader: 1,
		Module: "0xabc", ShaderName: "m", Instruction: 79, Stage: "compute", Coords: "global_invocation_id (0,0,0)",
		Samples: []string{"(0,0,0)", "(1,0,0)"}, Count: 9,
		Source: &MessageSource{File: "a.comp", Line: 9, Column: 5, Text: "\tx[i] = 1;"}}
	layer := ErrorMessage{Check: CheckIndexBufferOOB, What: "an index buffer read", CommandBuffer: "0x55", Action: "vkCmdDrawIndexed",
		Stage: "vertex", Count: 2}
	for _, tc := range []struct {
		name string
		m    ErrorMessage
		want string
	}{
		{"shader", shader, `descriptor_index_oob: (set = 0, binding = 1) Index of 5 used to index descriptor array of length 4. ` +
			`The access was clamped to index 3. The invocation failed 3 times in this loop; the values are its last failure's. ` +
			`VUID-vkCmdDispatch-None-10068. Command buffer 0x55 ("cmd"), action #2 vkCmdDispatch in "frame > pass", executed by ` +
			`primary 0x66 after 7 of its actions, submit 4, pipeline 0x77 ("p"), shader 1 (module 0xabc "m"), instruction 79. ` +
			"Stage compute, global_invocation_id (0,0,0); 9 invocations. Samples: (0,0,0) (1,0,0). a.comp:9:5:\n\tx[i] = 1;\n\t   ^"},
		{"layer", layer, "index_buffer_oob: an index buffer read. Command buffer 0x55, action #0 vkCmdDrawIndexed, checked by the " +
			"layer (no shader). Stage vertex; 2 times."},
		{"no line", func() ErrorMessage {
			m := shader
			m.Outcome, m.Loop, m.Samples, m.Count, m.Object, m.Module = "", 0, nil, 1, "0x1", ""
			m.Source = &MessageSource{Text: "%5 = OpLoad %int %4", SPIRV: true, Note: "no line information"}
			return m
		}(), `descriptor_index_oob: (set = 0, binding = 1) Index of 5 used to index descriptor array of length 4. ` +
			`VUID-vkCmdDispatch-None-10068. Command buffer 0x55 ("cmd"), action #2 vkCmdDispatch in "frame > pass", executed by ` +
			`primary 0x66 after 7 of its actions, submit 4, pipeline 0x77 ("p"), shader 1 (shader object 0x1 "m"), instruction 79. ` +
			"Stage compute, global_invocation_id (0,0,0); 1 invocation. Source unknown: no line information.\n%5 = OpLoad %int %4"},
		{"no text", func() ErrorMessage {
			m := layer
			m.Shader, m.Count = 2, 1
			m.Source = &MessageSource{File: "b.vert", Line: 3, Note: "the module carries no source text for b.vert"}
			return m
		}(), "index_buffer_oob: an index buffer read. Command buffer 0x55, action #0 vkCmdDrawIndexed, shader 2, instruction 0. " +
			"Stage vertex; 1 invocation. b.vert:3:\n(the module carries no source text for b.vert)"},
	} {
		if got := tc.m.Text(); got != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

// TestOutcomeSentence: what a failed access did, in the check's words.
func TestOutcomeSentence(t *testing.T) {
	to := uint32(12)
	for _, tc := range []struct {
		check, access string
		to            *uint32
		reason, want  string
	}{
		{CheckBufferOOB, AccessClamped, &to, "", "The access was clamped to byte offset 12."},
		{CheckBufferOOB, AccessExecuted, nil, "", "The access was executed as written."},
		{CheckBufferOOB, AccessSkipped, nil, "clamp has no meaning here (x)", "The access was skipped: clamp has no meaning here (x)."},
		{CheckBufferOOB, AccessSkipped, nil, "", "The access was skipped (a load read zero, a store or atomic did nothing)."},
		{CheckSanitizerDivide, AccessSkipped, nil, "", "The failing lanes yielded 0."},
		{CheckLoopBudget, AccessSkipped, nil, "", ""},
		{CheckIndexBufferOOB, AccessSkipped, nil, "", ""},
		{CheckBufferOOB, "", nil, "", ""},
	} {
		if got := OutcomeSentence(tc.check, tc.access, tc.to, tc.reason); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.check, tc.access, got, tc.want)
		}
	}
}

// TestRegistryFacts: the registry says which checks are warnings under
// robustBufferAccess (the layer reads them there, not a list of its own).
func TestRegistryFacts(t *testing.T) {
	var robust []string
	for i := range Checks {
		if Checks[i].WarnedUnderRobustness() {
			robust = append(robust, Checks[i].ID)
		}
	}
	if want := []string{CheckBufferOOB, CheckTexelBufferOOB}; !slices.Equal(robust, want) {
		t.Errorf("robustness-warned: %v, want %v", robust, want)
	}
}
