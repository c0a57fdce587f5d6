package e2e

import (
	"strconv"
	"strings"
	"testing"
)

// TestTexelBufferOOBCheck: a uniform texel buffer fetch at texel 10, a
// storage texel buffer store at texel 8 and an imageAtomicAdd at texel -1,
// each on an 8-texel view, in a compute, a vertex and a fragment shader on
// lavapipe: one error each with the exact set, binding, texel, texel
// count, kind of access, the Khronos wording and id, the source line and
// the invocation's coordinates; the access yields zero / does nothing
// (value=0, old=0, s8=1008 -- lavapipe's own bounds checks give the same
// values, so these only show that nothing else changed). Under
// robustBufferAccess the store is a warning (exit 0); with the check off,
// nothing. clean: none, value=103 old=1001.
func TestTexelBufferOOBCheck(t *testing.T) {
	tests := []struct {
		name    string
		binding uint32
		texel   int64
		write   bool
		atomic  bool
		kind    string
		verb    string
		output  string
		at      string // the access's EXPECT word in texel.*
	}{
		{"fetch_oob", 0, 10, false, false, "uniform", "read", "value=0\nold=1001\ns8=1008\n", "fetch"},
		{"write_oob", 1, 8, true, false, "storage", "write", "value=103\nold=1001\ns8=1008\n", "write"},
		{"atomic_oob", 1, -1, true, true, "storage", "atomic write", "value=103\nold=0\ns8=1008\n", "atomic"},
	}
	stages := []struct{ stage, action, file, coordKey string }{
		{"compute", "vkCmdDispatch", "texel.comp", "global_invocation_id"},
		{"vertex", "vkCmdDraw", "texel.vert", "vertex_index"},
		{"fragment", "vkCmdDraw", "texel.frag", "frag_coord"},
	}
	for _, st := range stages {
		for _, tt := range tests {
			t.Run(st.stage+"/"+tt.name, func(t *testing.T) {
				code, r, out := texelApp.run(t, nil, nil, "--case", tt.name, "--stage", st.stage)
				if code != 1 {
					t.Fatalf("exit code %d, want 1\n%s", code, out)
				}
				if !strings.Contains(out, tt.output) {
					t.Errorf("app printed\n%s\nwant %q", out, tt.output)
				}
				if len(r.Errors) != 1 {
					t.Fatalf("%d error groups, want 1\n%s", len(r.Errors), out)
				}
				e := r.Errors[0]
				if e.Check != "texel_buffer_oob" || e.Level != "error" || e.VUID != "UNASSIGNED-Descriptor Texel Buffer texel out of bounds" ||
					e.Count != 1 || e.Stage != st.stage || e.Action != st.action || e.CommandBuffer.Name != "texel-cmd" {
					t.Errorf("group: check %q level %q vuid %q count %d stage %q action %q cb %q",
						e.Check, e.Level, e.VUID, e.Count, e.Stage, e.Action, e.CommandBuffer.Name)
				}
				msg := "(set = 0, binding = " + strconv.Itoa(int(tt.binding)) + ") Descriptor index 0 access out of bounds. " +
					"Descriptor size is 8 texels and highest texel accessed was " + strconv.FormatInt(tt.texel, 10) +
					" (" + tt.verb + " of a " + tt.kind + " texel buffer)."
				if !strings.Contains(e.Message, msg) {
					t.Errorf("message\n%s\nwant it to contain\n%s", e.Message, msg)
				}
				d, x := e.Descriptor, e.Texel
				if d == nil || x == nil || d.Set != 0 || d.Binding != tt.binding || d.Index != 0 || d.ArrayLength != 1 ||
					x.Texel != tt.texel || x.Count != 8 || x.Write != tt.write || x.Atomic != tt.atomic || x.Kind != tt.kind || x.Robust {
					t.Errorf("descriptor %+v texel %+v", d, x)
				}
				if at := expectAt(t, st.file, "texel_buffer_oob", tt.at); !at.matches(e.Source.File, e.Source.Line, e.Source.Text) {
					t.Errorf("source %+v, want %s:%d %q", e.Source, at.file, at.line, at.text)
				}
				want := map[string][]float64{"global_invocation_id": {0, 0, 0}, "vertex_index": {0}, "frag_coord": {0.5, 0.5}}[st.coordKey]
				if c := e.Coords[st.coordKey]; len(c) != len(want) || c[0] != want[0] || c[len(c)-1] != want[len(want)-1] {
					t.Errorf("coords %v, want %s %v", e.Coords, st.coordKey, want)
				}
			})
		}
		t.Run(st.stage+"/clean", func(t *testing.T) {
			code, r, out := texelApp.run(t, nil, nil, "--case", "clean", "--stage", st.stage)
			if code != 0 || len(r.Errors) != 0 || !strings.Contains(out, "value=103\nold=1001\ns8=1008\n") {
				t.Fatalf("exit %d, %d groups, want 0, none and value=103 old=1001\n%s", code, len(r.Errors), out)
			}
		})
	}
	t.Run("robust", func(t *testing.T) {
		code, r, out := texelApp.run(t, nil, nil, "--case", "robust")
		if code != 0 {
			t.Fatalf("exit code %d, want 0 (warnings only)\n%s", code, out)
		}
		if len(r.Errors) != 1 {
			t.Fatalf("%d groups, want 1\n%s", len(r.Errors), out)
		}
		e := r.Errors[0]
		if e.Check != "texel_buffer_oob" || e.Level != "warning" || e.Texel == nil || !e.Texel.Robust ||
			e.Texel.Texel != 8 || e.Texel.Count != 8 || !e.Texel.Write ||
			!strings.Contains(e.Message, "The device enabled robustBufferAccess") {
			t.Errorf("group %+v texel %+v", e, e.Texel)
		}
	})
	t.Run("robust_silenced", func(t *testing.T) {
		code, r, out := texelApp.run(t, []string{"VK_LAYER_GPUAV_DBG_WARN_ROBUST=0"}, nil, "--case", "robust")
		requireSilent(t, code, r, out)
	})
	t.Run("check_off", func(t *testing.T) {
		code, r, out := texelApp.run(t, nil, []string{"--check", "texel_buffer_oob=off"}, "--case", "write_oob")
		requireSilent(t, code, r, out)
	})
}

// TestTexelBufferOOBKhronos compares with the Khronos layer 1.3.239 and
// GPU-assisted validation: every texelapp case is otherwise valid API
// usage (no other message), and that release reports the uniform texel
// buffer fetch (fetch_oob) with the same texel and size under
// VUID-vkCmdDispatch-None-02705, and misses the storage texel buffer store
// and atomic (write_oob, atomic_oob) that gpuav-dbg reports.
func TestTexelBufferOOBKhronos(t *testing.T) {
	requireKhronos(t)
	for _, kase := range []string{"clean", "fetch_oob", "write_oob", "atomic_oob", "robust"} {
		for _, stage := range []string{"compute", "fragment"} {
			t.Run(kase+"/"+stage, func(t *testing.T) {
				s := texelApp.runKhronos(t, "--stage", stage, "--case", kase)
				i := strings.Index(s, "value=")
				if i < 0 {
					t.Fatalf("no value line:\n%s", s)
				}
				if lines := strings.Split(strings.TrimSpace(s[i:]), "\n"); len(lines) != 5 ||
					!strings.HasPrefix(lines[1], "old=") || lines[2] != "s8=1008" || lines[3] != "s7=1007" || lines[4] != "s0=1000" {
					t.Fatalf("unexpected output after the value line:\n%s", s)
				}
				msgs := strings.Count(s, "Validation Error:")
				if kase != "fetch_oob" {
					if msgs != 0 {
						t.Fatalf("Khronos reported %d errors, want none:\n%s", msgs, s)
					}
					return
				}
				action := map[string]string{"compute": "vkCmdDispatch", "fragment": "vkCmdDraw"}[stage]
				if msgs != 1 || !strings.Contains(s, "[ VUID-"+action+"-None-02705 ]") ||
					!strings.Contains(s, "Descriptor index 0 access out of bounds. Descriptor size is 8 texels and highest texel accessed was 10") {
					t.Fatalf("Khronos output, want one VUID-%s-None-02705 with size 8 and texel 10:\n%s", action, s)
				}
			})
		}
	}
}
