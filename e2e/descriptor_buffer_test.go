package e2e

import (
	"strings"
	"testing"
)

// TestDescriptorBuffer: a compute pipeline whose descriptors live in a
// descriptor buffer (VK_EXT_descriptor_buffer: a descriptor-buffer set
// layout, vkGetDescriptorEXT, vkCmdBindDescriptorBuffersEXT and
// vkCmdSetDescriptorBufferOffsetsEXT) is instrumented: the layer pushes its
// own set (a push-descriptor, descriptor-buffer layout at its slot) before
// each action, so the app's descriptor buffers stay bound. data[4] indexed
// with 5 in action 0, or with 1 then 6 in actions 0 and 1: one error with
// the index, the length 4 and the action; the load is skipped (value=1).
// Index 1 reads 101 (value=102) and reports nothing. The referee below
// ours reported VUID-VkPipelineLayoutCreateInfo-pSetLayouts-08008 (the
// layer's set layout mixed into a descriptor-buffer pipeline layout) and
// VUID-vkCmdDispatch-None-08117 (a descriptor set bound to a
// descriptor-buffer pipeline) before. The pipeline's notice says what is
// not checked there: the descriptor state and buffer ranges, which the
// unchecked list holds too (a clean run exits 4, never 0). Through vkCmdDispatchIndirect
// the command is not checked either (a warning says so) and the dispatch
// runs as recorded.
func TestDescriptorBuffer(t *testing.T) {
	for _, c := range []struct {
		kase          string
		index, action int
		value         string
	}{
		{"oob", 5, 0, "value=1\n"},
		{"two_actions", 6, 1, "value=1\n"},
		{"clean", -1, 0, "value=102\n"},
		{"indirect", -1, 0, "value=102\n"},
	} {
		t.Run(c.kase, func(t *testing.T) {
			code, r, out := dbufApp.run(t, nil, nil, "--case", c.kase)
			if strings.Contains(out, "unsupported") {
				t.Fatalf("the device has no descriptorBuffer (lavapipe has):\n%s", out)
			}
			if !strings.Contains(out, c.value) {
				t.Errorf("app printed %q, want %q", out, c.value)
			}
			notes := 0
			for _, n := range r.Notices {
				if strings.Contains(n.Text, "uses descriptor buffers, which the layer does not read: runtime descriptor arrays") {
					notes++
				}
			}
			if notes == 0 {
				t.Errorf("no notice says what is not checked in a descriptor-buffer pipeline: %+v", r.Notices)
			}
			if c.kase == "indirect" {
				// The command checks' pre-pass would disturb the app's
				// descriptor buffers: the dispatch reads the app's buffer.
				const want = "indirect_command: commands not checked: the app's compute state uses descriptor buffers"
				found := false
				for _, n := range r.Notices {
					found = found || n.Level == "warning" && strings.HasPrefix(n.Text, want)
				}
				if !found {
					t.Errorf("no warning %q...: %+v", want, r.Notices)
				}
				if code != 4 || len(r.Errors) != 0 {
					t.Errorf("exit %d, %d error groups; want 4 (not everything checked) and none\n%s", code, len(r.Errors), out)
				}
				return
			}
			// What the layer cannot check there is in the unchecked list:
			// a clean run exits 4, never 0.
			partly := false
			for _, u := range r.Unchecked {
				partly = partly || u.Kind == "pipeline" && strings.Contains(u.Reason, "buffer_oob")
			}
			if !partly {
				t.Errorf("the descriptor-buffer pipeline is not in the unchecked list (with buffer_oob): %+v", r.Unchecked)
			}
			if c.index < 0 {
				if code != 4 || len(r.Errors) != 0 {
					t.Fatalf("exit %d, %d groups, want 4 (not everything checked) and none\n%s", code, len(r.Errors), out)
				}
				return
			}
			if code != 1 || len(r.Errors) != 1 {
				t.Fatalf("exit %d, %d error groups; want 1 and 1\n%s", code, len(r.Errors), out)
			}
			e := r.Errors[0]
			if d := e.Descriptor; e.Check != "descriptor_index_oob" || d == nil || d.Set != 0 || d.Binding != 1 ||
				d.Index != uint32(c.index) || d.ArrayLength != 4 || e.ActionIndex != c.action || e.Action != "vkCmdDispatch" ||
				e.CommandBuffer.Name != "dbuf-cmd" || e.Pipeline.Name != "dbuf-pipeline" || e.Source.Line != 9 {
				t.Errorf("group: %s %+v action %s #%d cb %q pipeline %q line %d; want index %d of 4, action #%d, line 9",
					e.Check, d, e.Action, e.ActionIndex, e.CommandBuffer.Name, e.Pipeline.Name, e.Source.Line, c.index, c.action)
			}
		})
	}
}
