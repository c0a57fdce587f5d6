package e2e

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// vertexShaderGroup is a vertex_fetch_oob group found in the vertex
// shader: a command check's group with a source line and an outcome.
type vertexShaderGroup struct {
	cmdGroup
	Source struct {
		File string `json:"file"`
		Line int    `json:"line"`
		Text string `json:"text"`
	} `json:"source"`
	Outcome *struct {
		Access string `json:"access"`
		Reason string `json:"reason"`
	} `json:"outcome"`
}

type vertexShaderReport struct {
	Errors    []vertexShaderGroup `json:"errors"`
	Unchecked []struct {
		Kind   string `json:"kind"`
		Reason string `json:"reason"`
	} `json:"unchecked"`
}

// vertexShaderCases are the draws whose vertex indices are in GPU memory,
// each fetching vertex 3 of the 3-vertex (48-byte) buffer once: the
// indexed ones by index 3 (vertices 0, 1, 3: the sum of x is 1 + 2 + 0
// when the bad fetch reads zeros), the indirect ones by drawing 4
// vertices (1 + 2 + 3 + 0).
// An indirect draw of 4 instances of an instance-rate binding fetches
// instance 3 the same way; an indexed draw of a vertex buffer bound with
// its first 32 bytes (vkCmdBindVertexBuffers2) fetches past them at
// vertex 2.
var vertexShaderCases = []struct {
	kase, action, output string
	instance             bool
	index, end           uint32 // the index past the range, the range's end
}{
	{"draw_indexed_vertex_oob", "vkCmdDrawIndexed", "vertices=3 sum=3", false, 3, 48},
	{"draw_indexed_indirect_vertex_oob", "vkCmdDrawIndexedIndirect", "vertices=3 sum=3", false, 3, 48},
	{"draw_indexed_indirect_count_vertex_oob", "vkCmdDrawIndexedIndirectCount", "vertices=3 sum=3", false, 3, 48},
	{"draw_indirect_vertex_oob", "vkCmdDrawIndirect", "vertices=4 sum=6", false, 3, 48},
	{"draw_indirect_count_vertex_oob", "vkCmdDrawIndirectCount", "vertices=4 sum=6", false, 3, 48},
	{"draw_indirect_instance_oob", "vkCmdDrawIndirect", "vertices=4 sum=6", true, 3, 48},
	{"draw_indexed_vertex_oob_sized", "vkCmdDrawIndexed", "vertices=3 sum=3", false, 2, 32},
}

// TestVertexFetchInShader: the vertex fetches of indexed and indirect draws
// are checked in the vertex shader, end to end on the device: one group
// per case, at the line that loads the attribute, with the values and text
// of the CPU form (location, binding, the bytes read, the buffer's end,
// the vertex index, the stride), the vertex and instance index, and the
// load reading zeros (the app's sum shows it).
func TestVertexFetchInShader(t *testing.T) {
	at := expectAt(t, "cmd.vert", "vertex_fetch_oob")
	for _, tt := range vertexShaderCases {
		t.Run(tt.kase, func(t *testing.T) {
			var r vertexShaderReport
			code, out := cmdApp.runInto(t, &r, nil, nil, "--case", tt.kase)
			skipUnsupported(t, out)
			if code != 1 || len(r.Errors) != 1 || len(r.Unchecked) != 0 {
				t.Fatalf("exit %d, %d groups, unchecked %v, want 1, 1 and none\n%s", code, len(r.Errors), r.Unchecked, out)
			}
			if !strings.Contains(out, tt.output) {
				t.Errorf("app printed\n%s\nwant %q", out, tt.output)
			}
			g := r.Errors[0]
			checkVertexShaderGroup(t, g, at, fetch{tt.action, tt.instance, tt.index, tt.end}, true, "")
			if g.Outcome == nil || g.Outcome.Access != "skipped" {
				t.Errorf("outcome %+v, want skipped", g.Outcome)
			}
		})
	}
}

// fetch is the one bad fetch of a case: its action, whether the binding
// is instance-rate, the index and the end of the bound range (the
// attribute is a vec4 at location 0, binding 0, stride 16).
type fetch struct {
	action     string
	instance   bool
	index, end uint32
}

// checkVertexShaderGroup compares a group with the case's one bad fetch at
// the EXPECT line at; outcome is the message's sentence on what the load
// did under on_error ("" for skip).
func checkVertexShaderGroup(t *testing.T, g vertexShaderGroup, at shaderExpect, f fetch, skipped bool, outcome string) {
	t.Helper()
	action, idx := f.action, float64(f.index)
	vuid := "VUID-" + action + "-None-02721"
	coords, rate, what := map[string][]float64{"vertex_index": {idx}, "instance_index": {0}}, "vertex", "vertex index"
	if f.instance {
		coords, rate, what = map[string][]float64{"vertex_index": {0}, "instance_index": {idx}}, "instance", "instance index"
	}
	if g.Check != "vertex_fetch_oob" || g.Level != "error" || g.VUID != vuid || g.Action != action || g.ActionIndex != 0 ||
		g.Count != 1 || g.Submit != 1 || g.Shader.ID == 0 || g.Stage != "vertex" || !reflect.DeepEqual(g.Coords, coords) {
		t.Errorf("group: check %q level %q vuid %q action %q #%d count %d submit %d shader %d stage %q coords %v, want %s %s #0 once, "+
			"submit 1, a shader, coords %v", g.Check, g.Level, g.VUID, g.Action, g.ActionIndex, g.Count, g.Submit,
			g.Shader.ID, g.Stage, g.Coords, vuid, action, coords)
	}
	if !at.matches(g.Source.File, g.Source.Line, g.Source.Text) {
		t.Errorf("source %s:%d %q, want %s:%d %q", g.Source.File, g.Source.Line, g.Source.Text, at.file, at.line, at.text)
	}
	want := &cmdVertex{Location: 0, Binding: 0, First: 16 * f.index, Size: 16, End: f.end, Index: f.index, Rate: rate, Stride: 16,
		Skipped: skipped}
	if !reflect.DeepEqual(g.Vertex, want) {
		t.Errorf("values %+v, want %+v", g.Vertex, want)
	}
	msg := fmt.Sprintf("vertex_fetch_oob: Vertex attribute at location 0 (binding 0, %s rate, stride 16) fetched bytes %d to %d "+
		"for %s %d, past the end of the bound vertex buffer range (byte %d).", rate, 16*f.index, 16*f.index+15, what, f.index, f.end)
	if skipped {
		msg += " gpuav-dbg made the attribute read zeros."
	}
	if outcome != "" {
		msg += " " + outcome
	}
	if !strings.HasPrefix(g.Message, msg+" "+vuid+".") {
		t.Errorf("message\n%s\nwant it to begin\n%s %s.", g.Message, msg, vuid)
	}
}

// TestVertexFetchInShaderSettings: with on_error execute the load reads
// what the device fetched (reported, skipped: false); clamp has no
// meaning for a fetch the shader did not make (skipped, and the reason
// says so); with the check off nothing is reported and nothing is left
// unchecked (exit 0).
func TestVertexFetchInShaderSettings(t *testing.T) {
	at := expectAt(t, "cmd.vert", "vertex_fetch_oob")
	tt := vertexShaderCases[1] // vkCmdDrawIndexedIndirect
	for _, onError := range []string{"execute", "clamp"} {
		t.Run(onError, func(t *testing.T) {
			var r vertexShaderReport
			code, out := cmdApp.runInto(t, &r, nil, []string{"--on-error", onError}, "--case", tt.kase)
			skipUnsupported(t, out)
			if code != 1 || len(r.Errors) != 1 || !strings.Contains(out, "vertices=3 sum=") {
				t.Fatalf("exit %d, %d groups, want 1 and 1\n%s", code, len(r.Errors), out)
			}
			g := r.Errors[0]
			sentence := map[string]string{"execute": "The access was executed as written.",
				"clamp": "The access was skipped: clamp has no meaning here (the vertex stage fetched the attribute before the " +
					"shader ran; the shader cannot fetch another vertex's)."}[onError]
			checkVertexShaderGroup(t, g, at, fetch{tt.action, false, 3, 48}, onError == "clamp", sentence)
			want := map[string]string{"execute": "executed", "clamp": "skipped"}[onError]
			if g.Outcome == nil || g.Outcome.Access != want {
				t.Errorf("outcome %+v, want %s", g.Outcome, want)
			}
		})
	}
	t.Run("off", func(t *testing.T) {
		var r vertexShaderReport
		code, out := cmdApp.runInto(t, &r, nil, []string{"--check", "vertex_fetch_oob=off"}, "--case", tt.kase)
		skipUnsupported(t, out)
		if code != 0 || len(r.Errors) != 0 || len(r.Unchecked) != 0 || !strings.Contains(out, "vertices=3 sum=") {
			t.Fatalf("exit %d, %d groups, unchecked %v, want 0, none, none\n%s", code, len(r.Errors), r.Unchecked, out)
		}
	})
}

// skipUnsupported skips a test whose case the device cannot run (the app
// printed "unsupported: EXT" and exited 3).
func skipUnsupported(t *testing.T, out string) {
	t.Helper()
	if i := strings.Index(out, "unsupported: "); i >= 0 {
		t.Skip(fmt.Sprintf("the device lacks %s", strings.Fields(out[i+len("unsupported: "):])[0]))
	}
}
