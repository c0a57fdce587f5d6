package e2e

import (
	"strconv"
	"strings"
	"testing"
)

// TestBufferOOBCheck: a uniform buffer read past a small bound range, a
// storage buffer write past it, a read past the range a dynamic offset
// leaves, and a runtime array's element past the range's end, each in a
// compute, vertex and fragment shader on lavapipe: one error with the exact
// offset, size and range, the Khronos wording and VUID, and the access
// skipped (the read yields 0, the write leaves memory alone). Under
// robustBufferAccess the same write is a warning (exit 0), and with
// VK_LAYER_GPUAV_DBG_WARN_ROBUST=0 it is not checked at all. clean: none.
func TestBufferOOBCheck(t *testing.T) {
	tests := []struct {
		name              string
		binding           uint32
		offset, rng       uint32
		write             bool
		kind, vuid, value string
		at                string // the access's EXPECT word in buf.*
	}{
		{"ubo_past_range", 0, 32, 32, false, "uniform", "uniformBuffers-06935", "value=2103", "params"},
		{"ssbo_past_range", 1, 16, 16, true, "storage", "storageBuffers-06936", "value=2011", "write"},
		{"dynamic_offset", 1, 64, 64, false, "storage", "storageBuffers-06936", "value=2011", "read"},
		{"runtime_array_tail", 3, 20, 20, false, "storage", "storageBuffers-06936", "value=114", "tail"},
	}
	stages := []struct{ stage, action, file, coordKey string }{
		{"compute", "vkCmdDispatch", "buf.comp", "global_invocation_id"},
		{"vertex", "vkCmdDraw", "buf.vert", "vertex_index"},
		{"fragment", "vkCmdDraw", "buf.frag", "frag_coord"},
	}
	for _, st := range stages {
		for _, tt := range tests {
			t.Run(st.stage+"/"+tt.name, func(t *testing.T) {
				code, r, out := bufApp.run(t, nil, bufferOn, "--case", tt.name, "--stage", st.stage)
				if code != 1 {
					t.Fatalf("exit code %d, want 1\n%s", code, out)
				}
				if !strings.Contains(out, tt.value+"\n") || !strings.Contains(out, "d4=104\n") {
					t.Errorf("the access must be skipped (%s, d4=104); app printed:\n%s", tt.value, out)
				}
				if len(r.Errors) != 1 {
					t.Fatalf("%d error groups, want 1\n%s", len(r.Errors), out)
				}
				e := r.Errors[0]
				if e.Check != "buffer_oob" || e.Level != "error" || e.VUID != "VUID-"+st.action+"-"+tt.vuid || e.Count != 1 ||
					e.Stage != st.stage || e.Action != st.action || e.CommandBuffer.Name != "buf-cmd" {
					t.Errorf("group: check %q level %q vuid %q count %d stage %q action %q cb %q",
						e.Check, e.Level, e.VUID, e.Count, e.Stage, e.Action, e.CommandBuffer.Name)
				}
				verb := "read"
				if tt.write {
					verb = "write"
				}
				at := expectAt(t, st.file, "buffer_oob", tt.at)
				size, err := strconv.ParseUint(at.values["size"], 10, 32)
				if err != nil {
					t.Fatalf("%s:%d: EXPECT size: %v", at.file, at.line, err)
				}
				highest := uint64(tt.offset) + size - 1
				msg := "(set = 0, binding = " + strconv.Itoa(int(tt.binding)) + ") Descriptor index 0 access out of bounds. Descriptor size is " +
					strconv.FormatUint(uint64(tt.rng), 10) + " and highest byte accessed was " + strconv.FormatUint(highest, 10) + " (" + at.values["size"] + "-byte " + verb + " at offset " +
					strconv.FormatUint(uint64(tt.offset), 10) + " of a " + tt.kind + " buffer)."
				if !strings.Contains(e.Message, msg) {
					t.Errorf("message %q, want it to contain %q", e.Message, msg)
				}
				d, b := e.Descriptor, e.Buffer
				if d == nil || b == nil || d.Set != 0 || d.Binding != tt.binding || d.Index != 0 || d.ArrayLength != 1 ||
					b.Offset != tt.offset || uint64(b.Size) != size || b.Range != tt.rng || b.Highest != highest ||
					b.Write != tt.write || b.Kind != tt.kind || b.Robust {
					t.Errorf("descriptor %+v buffer %+v", d, b)
				}
				if !at.matches(e.Source.File, e.Source.Line, e.Source.Text) {
					t.Errorf("source %+v, want %s:%d %q", e.Source, at.file, at.line, at.text)
				}
				want := map[string][]float64{"global_invocation_id": {0, 0, 0}, "vertex_index": {0}, "frag_coord": {0.5, 0.5}}[st.coordKey]
				if c := e.Coords[st.coordKey]; len(c) != len(want) || c[0] != want[0] || c[len(c)-1] != want[len(want)-1] {
					t.Errorf("coords %v, want %s %v", e.Coords, st.coordKey, want)
				}
			})
		}
		t.Run(st.stage+"/clean", func(t *testing.T) {
			code, r, out := bufApp.run(t, nil, bufferOn, "--case", "clean", "--stage", st.stage)
			if code != 0 || len(r.Errors) != 0 || !strings.Contains(out, "value=2114\n") {
				t.Fatalf("exit %d, %d groups, want 0, none and value=2114\n%s", code, len(r.Errors), out)
			}
		})
	}
	t.Run("robust", func(t *testing.T) {
		code, r, out := bufApp.run(t, nil, bufferOn, "--case", "robust")
		if code != 0 {
			t.Fatalf("exit code %d, want 0 (warnings only)\n%s", code, out)
		}
		if len(r.Errors) != 1 {
			t.Fatalf("%d groups, want 1\n%s", len(r.Errors), out)
		}
		e := r.Errors[0]
		if e.Check != "buffer_oob" || e.Level != "warning" || e.Buffer == nil || !e.Buffer.Robust ||
			e.Buffer.Offset != 16 || e.Buffer.Range != 16 || !e.Buffer.Write ||
			!strings.Contains(e.Message, "The device enabled robustBufferAccess") {
			t.Errorf("group %+v buffer %+v", e, e.Buffer)
		}
	})
	t.Run("robust_silenced", func(t *testing.T) {
		code, r, out := bufApp.run(t, []string{"VK_LAYER_GPUAV_DBG_WARN_ROBUST=0"}, bufferOn, "--case", "robust")
		requireSilent(t, code, r, out)
	})
	t.Run("check_off", func(t *testing.T) {
		code, r, out := bufApp.run(t, nil, []string{"--check", "buffer_oob=off"}, "--case", "ssbo_past_range")
		requireSilent(t, code, r, out)
	})
	t.Run("on_by_default", func(t *testing.T) {
		code, r, out := bufApp.run(t, nil, nil, "--case", "ssbo_past_range")
		if code != 1 || len(r.Errors) != 1 || r.Errors[0].Check != "buffer_oob" || r.Errors[0].Buffer == nil ||
			r.Errors[0].Buffer.Offset != 16 || r.Errors[0].Buffer.Range != 16 {
			t.Fatalf("default checks: exit %d, %d groups, want 1 and the buffer_oob write at 16 of 16\n%s", code, len(r.Errors), out)
		}
	})
}

// TestBufferOOBAppValidForKhronos: every bufapp case is valid API usage
// for the Khronos layer 1.3.239 with GPU-assisted validation (no message
// at all), so the errors gpuav-dbg reports are the shader's only. That
// release does not check descriptor buffer ranges in shaders (it reports
// none of these accesses; docs/decisions/buffer-oob-check.md).
func TestBufferOOBAppValidForKhronos(t *testing.T) {
	requireKhronos(t)
	for _, kase := range []string{"clean", "ubo_past_range", "ssbo_past_range", "dynamic_offset", "runtime_array_tail", "robust"} {
		for _, stage := range []string{"compute", "fragment"} {
			t.Run(kase+"/"+stage, func(t *testing.T) {
				out := bufApp.runKhronos(t, "--stage", stage, "--case", kase)
				if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 3 ||
					!strings.HasPrefix(lines[0], "value=") || lines[1] != "d4=104" || lines[2] != "d3=103" {
					t.Fatalf("Khronos printed more than the app's three lines:\n%s", out)
				}
			})
		}
	}
}

// bufferOn switches buffer_oob on explicitly (it is on by default too:
// TestBufferOOBCheck/on_by_default).
var bufferOn = []string{"--check", "buffer_oob=on"}
