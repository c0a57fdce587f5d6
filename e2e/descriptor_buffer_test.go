package e2e

import (
	"slices"
	"strings"
	"testing"
)

// TestDescriptorBuffer: a compute pipeline whose descriptors live in a
// descriptor buffer (VK_EXT_descriptor_buffer: a descriptor-buffer set
// layout, vkGetDescriptorEXT, vkCmdBindDescriptorBuffersEXT and
// vkCmdSetDescriptorBufferOffsetsEXT) is instrumented: the layer pushes its
// own set (a push-descriptor, descriptor-buffer layout at its slot) before
// each action, so the app's descriptor buffers stay bound, and it reads the
// app's sets from the descriptor buffer (docs/decisions/descriptor-buffers.md).
// data[4] indexed with 5 in action 0, or with 1 then 6 in actions 0 and 1:
// one error with the index, the length 4 and the action; the load is
// skipped (value=1). Index 1 reads 101 (value=102), reports nothing, and
// the run is clean: exit 0, nothing unchecked. The referee below ours
// reported VUID-VkPipelineLayoutCreateInfo-pSetLayouts-08008 (the layer's
// set layout mixed into a descriptor-buffer pipeline layout) and
// VUID-vkCmdDispatch-None-08117 (a descriptor set bound to a
// descriptor-buffer pipeline) before. Through vkCmdDispatchIndirect the
// command is not checked (a warning says so; exit 4) and the dispatch runs
// as recorded. garbage: data[3]'s descriptor holds bytes that no
// vkGetDescriptorEXT returned: the one descriptor is in the unchecked list
// (exit 4). destroyed: data[2]'s buffer is destroyed after its descriptor
// was written, and index 2 reads through it: descriptor_destroyed, the load
// skipped.
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
		{"garbage", -1, 0, "value=102\n"},
		{"destroyed", 2, 0, "value=1\n"},
	} {
		t.Run(c.kase, func(t *testing.T) {
			code, r, out := dbufApp.run(t, nil, nil, "--case", c.kase)
			if strings.Contains(out, "unsupported") {
				t.Fatalf("the device has no descriptorBuffer (lavapipe has):\n%s", out)
			}
			if !strings.Contains(out, c.value) {
				t.Errorf("app printed %q, want %q", out, c.value)
			}
			for _, n := range r.Notices {
				if strings.Contains(n.Text, "descriptor buffers, which the layer does not read") {
					t.Errorf("notice %q: the layer reads descriptor buffers", n.Text)
				}
			}
			switch c.kase {
			case "indirect":
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
				if code != 4 || len(r.Errors) != 0 || len(r.Unchecked) != 1 {
					t.Errorf("exit %d, %d error groups, unchecked %+v; want 4 (not everything checked), none and the indirect command\n%s",
						code, len(r.Errors), r.Unchecked, out)
				}
				return
			case "garbage":
				const want = " of its descriptors hold bytes that no vkGetDescriptorEXT of the app returned (never written, or written by the GPU"
				if code != 4 || len(r.Errors) != 0 || len(r.Unchecked) != 1 ||
					!strings.HasPrefix(r.Unchecked[0].Reason, "descriptor buffer 0x") ||
					!strings.Contains(r.Unchecked[0].Reason, ": 1"+want) {
					t.Errorf("exit %d, %d error groups, unchecked %+v; want 4, none and one descriptor of unknown bytes\n%s",
						code, len(r.Errors), r.Unchecked, out)
				}
				return
			}
			// Everything is checked: nothing in the unchecked list.
			if len(r.Unchecked) != 0 {
				t.Errorf("unchecked %+v, want none", r.Unchecked)
			}
			if c.index < 0 {
				if code != 0 || len(r.Errors) != 0 {
					t.Fatalf("exit %d, %d groups, want 0 and none\n%s", code, len(r.Errors), out)
				}
				return
			}
			if code != 1 || len(r.Errors) != 1 {
				t.Fatalf("exit %d, %d error groups; want 1 and 1\n%s", code, len(r.Errors), out)
			}
			e := r.Errors[0]
			check := "descriptor_index_oob"
			if c.kase == "destroyed" {
				check = "descriptor_destroyed"
			}
			if d := e.Descriptor; e.Check != check || d == nil || d.Set != 0 || d.Binding != 1 ||
				d.Index != uint32(c.index) || d.ArrayLength != 4 || e.ActionIndex != c.action || e.Action != "vkCmdDispatch" ||
				e.CommandBuffer.Name != "dbuf-cmd" || e.Pipeline.Name != "dbuf-pipeline" || e.Source.Line != 9 {
				t.Errorf("group: %s %+v action %s #%d cb %q pipeline %q line %d; want %s, index %d of 4, action #%d, line 9",
					e.Check, d, e.Action, e.ActionIndex, e.CommandBuffer.Name, e.Pipeline.Name, e.Source.Line, check, c.index, c.action)
			}
		})
	}
}

// TestDescriptorBufferUniform: the bug of Sascha Willems' descriptorbuffer
// sample with a uniform read moved 64 bytes past its bound range, in
// dbufapp's ubo cases: a uniform buffer of 128 bytes bound with a range of
// 64 in a descriptor buffer (set 1 binding 1, the set 256 bytes into the
// buffer), read at params.v[4], in a compute shader (64 invocations of one
// vkCmdDispatch) and in a vertex shader (one point of one vkCmdDraw, where
// the sample reads its uniforms). ubo_oob: one buffer_oob group with the
// offset 64, size 4, range 64, the set, binding and action, the load
// skipped (value=1000), exit 1. ubo_clean (index 1): exit 0, nothing
// unchecked, and the pipeline's fast variant runs (no precise variant is
// made: its facts hold on the descriptor buffer's ranges). ubo_rewrite: the
// descriptor is written again, with a range of 16, after the command buffer
// was recorded with a fast variant whose facts held on the range of 64: the
// set is in the unchecked list at that submit, exit 4. ubo_staged: the
// descriptor buffer is written by vkCmdUpdateBuffer, its memory never
// mapped (not host-visible where the device has such memory): the layer
// cannot read it, so it is in the unchecked list with the reason, exit 4,
// never 0. ubo_two_sets: index 2 in two dispatches whose set 1 lies at two
// offsets of the buffer, the second with a range of 32: one group, action 1.
func TestDescriptorBufferUniform(t *testing.T) {
	stages := []struct {
		stage, action, file, coordKey string
		count                         int
		coord                         []float64
	}{
		{"compute", "vkCmdDispatch", "dbuf_ubo.comp", "global_invocation_id", 64, []float64{0, 0, 0}},
		{"vertex", "vkCmdDraw", "dbuf_ubo.vert", "vertex_index", 1, []float64{0}},
	}
	for _, st := range stages {
		run := func(t *testing.T, kase string) (int, checkReport, string) {
			t.Helper()
			return dbufApp.run(t, nil, nil, "--case", kase, "--stage", st.stage)
		}
		t.Run(st.stage+"/ubo_oob", func(t *testing.T) {
			code, r, out := run(t, "ubo_oob")
			if code != 1 || len(r.Errors) != 1 || len(r.Unchecked) != 0 {
				t.Fatalf("exit %d, %d groups, unchecked %+v; want 1, 1 and none\n%s", code, len(r.Errors), r.Unchecked, out)
			}
			if !strings.Contains(out, "value=1000\n") {
				t.Errorf("the load must be skipped (value=1000); app printed:\n%s", out)
			}
			e := r.Errors[0]
			if e.Check != "buffer_oob" || e.Level != "error" || e.VUID != "VUID-"+st.action+"-uniformBuffers-06935" ||
				e.Count != st.count || e.Stage != st.stage || e.Action != st.action || e.ActionIndex != 0 ||
				e.CommandBuffer.Name != "dbuf-cmd" || e.Pipeline.Name != "dbuf-pipeline" {
				t.Errorf("group: check %q level %q vuid %q count %d stage %q action %s #%d cb %q pipeline %q",
					e.Check, e.Level, e.VUID, e.Count, e.Stage, e.Action, e.ActionIndex, e.CommandBuffer.Name, e.Pipeline.Name)
			}
			d, b := e.Descriptor, e.Buffer
			if d == nil || b == nil || d.Set != 1 || d.Binding != 1 || d.Index != 0 || d.ArrayLength != 1 ||
				b.Offset != 64 || b.Size != 4 || b.Range != 64 || b.Highest != 67 || b.Write || b.Kind != "uniform" || b.Robust {
				t.Errorf("descriptor %+v buffer %+v; want set 1 binding 1, a 4-byte read at 64 of a range of 64", d, b)
			}
			const msg = "(set = 1, binding = 1) Descriptor index 0 access out of bounds. Descriptor size is 64 and highest byte " +
				"accessed was 67 (4-byte read at offset 64 of a uniform buffer)."
			if !strings.Contains(e.Message, msg) {
				t.Errorf("message %q, want it to contain %q", e.Message, msg)
			}
			at := expectAt(t, st.file, "buffer_oob", "params")
			if !at.matches(e.Source.File, e.Source.Line, e.Source.Text) {
				t.Errorf("source %+v, want %s:%d %q", e.Source, at.file, at.line, at.text)
			}
			if c := e.Coords[st.coordKey]; !slices.Equal(c, st.coord) {
				t.Errorf("coords %v, want %s %v", e.Coords, st.coordKey, st.coord)
			}
		})
		t.Run(st.stage+"/ubo_clean", func(t *testing.T) {
			code, r, out := run(t, "ubo_clean")
			if code != 0 || len(r.Errors) != 0 || len(r.Unchecked) != 0 || !strings.Contains(out, "value=1011\n") {
				t.Fatalf("exit %d, %d groups, unchecked %+v; want 0, none, none and value=1011\n%s",
					code, len(r.Errors), r.Unchecked, out)
			}
			for _, n := range r.Notices {
				if strings.Contains(n.Text, "precise variant was created") {
					t.Errorf("the clean run made a precise variant (its facts failed on the descriptor buffer): %s", n.Text)
				}
			}
		})
		t.Run(st.stage+"/ubo_rewrite", func(t *testing.T) {
			// Facts held on the recorded descriptor (a range of 64), so the
			// fast variant runs; the submit sees a range of 16: not checked
			// at that submit, and said so.
			code, r, out := run(t, "ubo_rewrite")
			const want = "changed between the recording of command buffer 0x"
			if code != 4 || len(r.Errors) != 0 || len(r.Unchecked) != 1 ||
				!strings.HasPrefix(r.Unchecked[0].Reason, "descriptor buffer 0x") ||
				!strings.Contains(r.Unchecked[0].Reason, want) ||
				!strings.HasSuffix(r.Unchecked[0].Reason, "(write descriptors before recording the commands that use them)") {
				t.Fatalf("exit %d, %d groups, unchecked %+v; want 4, none and the set %s...\n%s",
					code, len(r.Errors), r.Unchecked, want, out)
			}
		})
		t.Run(st.stage+"/ubo_staged", func(t *testing.T) {
			code, r, out := run(t, "ubo_staged")
			why := "the app never mapped its memory (it wrote nothing there from the CPU)"
			switch {
			case strings.Contains(out, "staged_memory=device-only\n"):
				why = "its memory is not host-visible"
			case !strings.Contains(out, "staged_memory=host-visible\n"):
				t.Fatalf("the app did not say which memory it took:\n%s", out)
			}
			want := ": the layer cannot read it (" + why + "): the descriptors of its sets are not checked (buffer_oob, " +
				"texel_buffer_oob, descriptor_uninitialized, descriptor_destroyed and runtime arrays' lengths)"
			if code != 4 || len(r.Errors) != 0 || len(r.Unchecked) != 1 {
				t.Fatalf("exit %d, %d groups, unchecked %+v; want 4 (not everything checked), none and one\n%s",
					code, len(r.Errors), r.Unchecked, out)
			}
			if u := r.Unchecked[0]; !strings.HasPrefix(u.Reason, "descriptor buffer 0x") || !strings.HasSuffix(u.Reason, want) {
				t.Errorf("unchecked %+v, want descriptor buffer 0x...%s", u, want)
			}
		})
	}
	t.Run("compute/ubo_two_sets", func(t *testing.T) {
		// The same pipeline and binding through two copies of set 1:
		// only the action whose set binds a range of 32 reads past it.
		code, r, out := dbufApp.run(t, nil, nil, "--case", "ubo_two_sets")
		if code != 1 || len(r.Errors) != 1 || len(r.Unchecked) != 0 || !strings.Contains(out, "value=1000\n") {
			t.Fatalf("exit %d, %d groups, unchecked %+v; want 1, 1, none and value=1000\n%s", code, len(r.Errors), r.Unchecked, out)
		}
		e := r.Errors[0]
		if d, b := e.Descriptor, e.Buffer; e.Check != "buffer_oob" || e.Count != 64 || e.ActionIndex != 1 ||
			e.Action != "vkCmdDispatch" || d == nil || b == nil || d.Set != 1 || d.Binding != 1 ||
			b.Offset != 32 || b.Size != 4 || b.Range != 32 || b.Highest != 35 {
			t.Errorf("group: %s count %d action %s #%d descriptor %+v buffer %+v; want action #1, a 4-byte read at 32 of 32",
				e.Check, e.Count, e.Action, e.ActionIndex, d, b)
		}
	})
}

// TestDescriptorBufferTexel: a uniform texel buffer (R32_SFLOAT, a 64-byte
// buffer bound with a range of 16 bytes: 4 texels) in a descriptor buffer,
// fetched at texel 4 (texel_oob) or 1 (texel_clean): texel_buffer_oob with
// the texel, the count the layer derived from the descriptor's range and
// format, set 1 binding 0 and the action, the fetch skipped (value=1000),
// exit 1; the clean twin exits 0 with nothing unchecked (value=1011).
func TestDescriptorBufferTexel(t *testing.T) {
	t.Run("texel_oob", func(t *testing.T) {
		code, r, out := dbufApp.run(t, nil, nil, "--case", "texel_oob")
		if code != 1 || len(r.Errors) != 1 || len(r.Unchecked) != 0 || !strings.Contains(out, "value=1000\n") {
			t.Fatalf("exit %d, %d groups, unchecked %+v; want 1, 1, none and value=1000\n%s", code, len(r.Errors), r.Unchecked, out)
		}
		e := r.Errors[0]
		d, x := e.Descriptor, e.Texel
		if e.Check != "texel_buffer_oob" || e.Level != "error" || e.Count != 1 || e.Action != "vkCmdDispatch" ||
			e.ActionIndex != 0 || d == nil || x == nil || d.Set != 1 || d.Binding != 0 || d.Index != 0 ||
			x.Texel != 4 || x.Count != 4 || x.Write || x.Kind != "uniform" {
			t.Errorf("group: %s level %s count %d action %s #%d descriptor %+v texel %+v; want texel 4 of 4 at set 1 binding 0",
				e.Check, e.Level, e.Count, e.Action, e.ActionIndex, d, x)
		}
		const msg = "(set = 1, binding = 0) Descriptor index 0 access out of bounds. Descriptor size is 4 texels and " +
			"highest texel accessed was 4 (read of a uniform texel buffer)."
		if !strings.Contains(e.Message, msg) {
			t.Errorf("message %q, want it to contain %q", e.Message, msg)
		}
		if at := expectAt(t, "dbuf_texel.comp", "texel_buffer_oob", "fetch"); !at.matches(e.Source.File, e.Source.Line, e.Source.Text) {
			t.Errorf("source %+v, want %s:%d %q", e.Source, at.file, at.line, at.text)
		}
	})
	t.Run("texel_clean", func(t *testing.T) {
		code, r, out := dbufApp.run(t, nil, nil, "--case", "texel_clean")
		if code != 0 || len(r.Errors) != 0 || len(r.Unchecked) != 0 || !strings.Contains(out, "value=1011\n") {
			t.Fatalf("exit %d, %d groups, unchecked %+v; want 0, none, none and value=1011\n%s", code, len(r.Errors), r.Unchecked, out)
		}
	})
}
