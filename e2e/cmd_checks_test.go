package e2e

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// cmdApp is the command checks' app: one case per form of draw, dispatch,
// mesh draw and trace rays (testdata/checks/cmdapp.c).
var cmdApp = newCheckApp("cmdapp", "cmd.vert", "cmd.frag", "cmd.comp", "cmd.mesh", "cmd.task", "cmd.rgen")

// cmdReport is the part of the JSON report the command check tests read.
type cmdReport struct {
	Errors    []cmdGroup `json:"errors"`
	Unchecked []struct {
		Kind   string `json:"kind"`
		Reason string `json:"reason"`
	} `json:"unchecked"`
}

type cmdGroup struct {
	Check       string               `json:"check"`
	Level       string               `json:"level"`
	VUID        string               `json:"vuid"`
	Message     string               `json:"message"`
	Count       int                  `json:"count"`
	Stage       string               `json:"stage"`
	Coords      map[string][]float64 `json:"coords"`
	Action      string               `json:"action"`
	ActionIndex int                  `json:"action_index"`
	Submit      int                  `json:"submit"`
	Shader      struct {
		ID int `json:"id"`
	} `json:"shader"`
	Source        *struct{} `json:"source"`
	CommandBuffer struct {
		Name string `json:"name"`
	} `json:"command_buffer"`
	Pipeline struct {
		Name string `json:"name"`
	} `json:"pipeline"`
	Labels      []string     `json:"labels"`
	IndexBuffer *cmdIndex    `json:"index_buffer"`
	Vertex      *cmdVertex   `json:"vertex"`
	Indirect    *cmdIndirect `json:"indirect"`
}

type cmdIndex struct {
	FirstIndex uint32 `json:"first_index"`
	IndexCount uint32 `json:"index_count"`
	IndexSize  uint32 `json:"index_size"`
	Offset     uint32 `json:"offset"`
	End        uint32 `json:"end"`
	Available  uint32 `json:"available"`
	Indirect   bool   `json:"indirect"`
	Skipped    bool   `json:"skipped"`
}

type cmdVertex struct {
	Location uint32 `json:"location"`
	Binding  uint32 `json:"binding"`
	First    uint32 `json:"first_byte"`
	Size     uint32 `json:"size"`
	End      uint32 `json:"end"`
	Index    uint32 `json:"index"`
	Rate     string `json:"rate"`
	Stride   uint32 `json:"stride"`
	Skipped  bool   `json:"skipped"`
}

type cmdIndirect struct {
	Struct      string     `json:"struct"`
	Field       string     `json:"field"`
	Value       uint64     `json:"value"`
	Limit       uint64     `json:"limit"`
	Groups      *[3]uint32 `json:"groups"`
	Count       uint32     `json:"count"`
	Stride      uint32     `json:"stride"`
	Offset      uint32     `json:"offset"`
	CommandSize uint32     `json:"command_size"`
	BufferSize  uint32     `json:"buffer_size"`
	Fit         uint32     `json:"fit"`
	Skipped     bool       `json:"skipped"`
}

// want is one expected error group of a command check: its check, VUID,
// action, stage coordinates, values and the message's first sentences
// (msg; the rest is attribution). pipeline is the bound pipeline's name
// ("" for "cmd-pipeline").
type want struct {
	check, vuid, action string
	msg, pipeline       string
	coords              map[string][]float64
	index               *cmdIndex
	vertex              *cmdVertex
	indirect            *cmdIndirect
}

// cmdCases are the command checks' cases: what the app prints after its
// submit (which shows whether the bad command ran) and the one group, or
// two, each reports. limit is the device limit the app prints for cases
// that depend on one.
var cmdCases = []struct {
	name   string
	env    []string
	output string
	groups func(limit uint64) []want
}{
	{"draw_vertex_oob", nil, "vertices=0 sum=0", func(uint64) []want {
		return []want{{check: "vertex_fetch_oob", vuid: "VUID-vkCmdDraw-None-02721", action: "vkCmdDraw", msg: vertexMsg,
			coords: map[string][]float64{"vertex_index": {3}, "instance_index": {0}},
			vertex: &cmdVertex{Location: 0, Binding: 0, First: 48, Size: 16, End: 48, Index: 3, Rate: "vertex", Stride: 16, Skipped: true}}}
	}},
	{"draw_multi_vertex_oob", nil, "vertices=3 sum=6", func(uint64) []want {
		return []want{{check: "vertex_fetch_oob", vuid: "VUID-vkCmdDrawMultiEXT-None-02721", action: "vkCmdDrawMultiEXT", msg: vertexMsg,
			coords: map[string][]float64{"vertex_index": {3}, "instance_index": {0}},
			vertex: &cmdVertex{Location: 0, Binding: 0, First: 48, Size: 16, End: 48, Index: 3, Rate: "vertex", Stride: 16, Skipped: true}}}
	}},
	{"draw_indexed_oob", nil, "vertices=0 sum=0", func(uint64) []want {
		return []want{{check: "index_buffer_oob", vuid: "VUID-vkCmdDrawIndexed-robustBufferAccess2-07825", action: "vkCmdDrawIndexed",
			msg: "The draw reads indices 0 to 5 (firstIndex 0, indexCount 6), but the bound index buffer holds 3 " +
				"(VK_INDEX_TYPE_UINT32 from offset 0 to byte 12): indexSize × (firstIndex + indexCount) + offset = 24 > 12. " +
				"gpuav-dbg skipped the draw.",
			coords: draw(0), index: &cmdIndex{FirstIndex: 0, IndexCount: 6, IndexSize: 4, End: 12, Available: 3, Skipped: true}}}
	}},
	// Bound ranges: vkCmdBindVertexBuffers2's size, vkCmdBindIndexBuffer2KHR's.
	{"draw_vertex_oob_sized", nil, "vertices=0 sum=0", func(uint64) []want {
		return []want{{check: "vertex_fetch_oob", vuid: "VUID-vkCmdDraw-None-02721", action: "vkCmdDraw",
			msg: "Vertex attribute at location 0 (binding 0, vertex rate, stride 16) fetched bytes 32 to 47 for vertex " +
				"index 2, past the end of the bound vertex buffer range (byte 32). gpuav-dbg skipped the draw.",
			coords: map[string][]float64{"vertex_index": {2}, "instance_index": {0}},
			vertex: &cmdVertex{Location: 0, Binding: 0, First: 32, Size: 16, End: 32, Index: 2, Rate: "vertex", Stride: 16, Skipped: true}}}
	}},
	{"draw_indexed_oob_sized", nil, "vertices=0 sum=0", func(uint64) []want {
		return []want{{check: "index_buffer_oob", vuid: "VUID-vkCmdDrawIndexed-robustBufferAccess2-07825", action: "vkCmdDrawIndexed",
			msg: "The draw reads indices 0 to 2 (firstIndex 0, indexCount 3), but the bound index buffer holds 2 " +
				"(VK_INDEX_TYPE_UINT32 from offset 0 to byte 8): indexSize × (firstIndex + indexCount) + offset = 12 > 8. " +
				"gpuav-dbg skipped the draw.",
			coords: draw(0), index: &cmdIndex{FirstIndex: 0, IndexCount: 3, IndexSize: 4, End: 8, Available: 2, Skipped: true}}}
	}},
	{"draw_multi_indexed_oob", nil, "vertices=3 sum=6", func(uint64) []want {
		return []want{{check: "index_buffer_oob", vuid: "VUID-vkCmdDrawMultiIndexedEXT-robustBufferAccess2-07825",
			action: "vkCmdDrawMultiIndexedEXT", coords: draw(1),
			msg: "The draw reads indices 1 to 3 (firstIndex 1, indexCount 3), but the bound index buffer holds 3 " +
				"(VK_INDEX_TYPE_UINT32 from offset 0 to byte 12): indexSize × (firstIndex + indexCount) + offset = 16 > 12. " +
				"gpuav-dbg skipped the draw.",
			index: &cmdIndex{FirstIndex: 1, IndexCount: 3, IndexSize: 4, End: 12, Available: 3, Skipped: true}}}
	}},
	// Reported after the render pass, not stopped: what the driver draws of
	// the indices past the end is its own (lavapipe draws the 3 there are).
	{"draw_indexed_indirect_oob", nil, "vertices=", func(uint64) []want {
		return []want{indexedIndirect("vkCmdDrawIndexedIndirect")}
	}},
	{"draw_indexed_indirect_count_oob", nil, "vertices=", func(uint64) []want {
		return []want{indexedIndirect("vkCmdDrawIndexedIndirectCount")}
	}},
	{"draw_indirect_first_instance", nil, "vertices=1 sum=1", func(uint64) []want {
		return []want{{check: "indirect_command", vuid: "VUID-VkDrawIndirectCommand-firstInstance-00501", action: "vkCmdDrawIndirect",
			msg: firstInstanceMsg("VkDrawIndirectCommand"), coords: draw(0), indirect: &cmdIndirect{Struct: "VkDrawIndirectCommand", Field: "firstInstance", Value: 1}}}
	}},
	{"draw_indexed_indirect_first_instance", nil, "vertices=1 sum=1", func(uint64) []want {
		return []want{{check: "indirect_command", vuid: "VUID-VkDrawIndexedIndirectCommand-firstInstance-00554",
			action: "vkCmdDrawIndexedIndirect", coords: draw(0), msg: firstInstanceMsg("VkDrawIndexedIndirectCommand"),
			indirect: &cmdIndirect{Struct: "VkDrawIndexedIndirectCommand", Field: "firstInstance", Value: 1}}}
	}},
	{"draw_indirect_overrun", nil, "vertices=2 sum=3", func(uint64) []want {
		return []want{overrun("vkCmdDrawIndirect", "drawCount-00488", "drawCount", 3, 16, 32)}
	}},
	{"draw_indirect_count_overrun", nil, "vertices=2 sum=3", func(uint64) []want {
		return []want{overrun("vkCmdDrawIndirectCount", "maxDrawCount-03111", "maxDrawCount", 5, 16, 32),
			overrun("vkCmdDrawIndirectCount", "countBuffer-03122", "count", 5, 16, 32)}
	}},
	{"draw_indexed_indirect_count_overrun", nil, "vertices=2 sum=3", func(uint64) []want {
		return []want{overrun("vkCmdDrawIndexedIndirectCount", "maxDrawCount-03143", "maxDrawCount", 5, 20, 40),
			overrun("vkCmdDrawIndexedIndirectCount", "countBuffer-03154", "count", 5, 20, 40)}
	}},
	// Lavapipe's maxDrawIndirectCount is 2^32-1: the test hook lowers it.
	{"draw_indirect_count_limit", []string{"VK_LAYER_GPUAV_DBG_TEST_MAX_DRAW_INDIRECT_COUNT=1"}, "vertices=1 sum=1", func(uint64) []want {
		return []want{{check: "indirect_command", vuid: "VUID-vkCmdDrawIndirectCount-countBuffer-02717", action: "vkCmdDrawIndirectCount",
			msg:    "The count buffer holds 2, above maxDrawIndirectCount (1); maxDrawCount is 1. gpuav-dbg drew at most 1.",
			coords: draw(0), indirect: &cmdIndirect{Field: "count", Value: 2, Limit: 1, Skipped: true}}}
	}},
	{"dispatch_indirect_groups", nil, "groups=0 rays=0", func(limit uint64) []want {
		return []want{{check: "indirect_command", vuid: "VUID-VkDispatchIndirectCommand-y-00418", action: "vkCmdDispatchIndirect",
			msg: fmt.Sprintf("The y member of the VkDispatchIndirectCommand structure is %d, above maxComputeWorkGroupCount[1] (%d). "+
				"The command was (1, %d, 1). gpuav-dbg dispatched no groups.", limit+1, limit, limit+1),
			coords: draw(0), indirect: &cmdIndirect{Struct: "VkDispatchIndirectCommand", Field: "y", Value: limit + 1, Limit: limit,
				Groups: &[3]uint32{1, uint32(limit + 1), 1}, Skipped: true}}}
	}},
	{"dispatch_indirect_offset", nil, "groups=0 rays=0", func(uint64) []want {
		return []want{{check: "indirect_command", vuid: "VUID-vkCmdDispatchIndirect-offset-00407", action: "vkCmdDispatchIndirect",
			msg:    "The 12-byte command at offset 16 is past the end of the 16-byte indirect buffer. gpuav-dbg skipped the command.",
			coords: draw(0), indirect: &cmdIndirect{Field: "offset", Value: 16, Limit: 16, Count: 1, Stride: 12, Offset: 16,
				CommandSize: 12, BufferSize: 16, Skipped: true}}}
	}},
	// Mesh draws run inside the render pass, before any pre-pass can:
	// reported, not skipped.
	{"mesh_indirect_groups", nil, "rays=0", func(limit uint64) []want {
		return []want{{check: "indirect_command", vuid: "VUID-VkDrawMeshTasksIndirectCommandEXT-TaskEXT-07327",
			action: "vkCmdDrawMeshTasksIndirectEXT", coords: draw(0), msg: meshMsg("maxMeshWorkGroupCount", limit),
			indirect: &cmdIndirect{Struct: "VkDrawMeshTasksIndirectCommandEXT", Field: "groupCountY", Value: limit + 1, Limit: limit,
				Groups: &[3]uint32{1, uint32(limit + 1), 1}}}}
	}},
	{"mesh_task_indirect_count_groups", nil, "rays=0", func(limit uint64) []want {
		return []want{{check: "indirect_command", vuid: "VUID-VkDrawMeshTasksIndirectCommandEXT-TaskEXT-07323",
			action: "vkCmdDrawMeshTasksIndirectCountEXT", coords: draw(0), msg: meshMsg("maxTaskWorkGroupCount", limit),
			pipeline: "cmd-task-pipeline",
			indirect: &cmdIndirect{Struct: "VkDrawMeshTasksIndirectCommandEXT", Field: "groupCountY", Value: limit + 1, Limit: limit,
				Groups: &[3]uint32{1, uint32(limit + 1), 1}}}}
	}},
	{"trace_indirect_dims", nil, "rays=0", func(limit uint64) []want {
		return []want{traceRays("vkCmdTraceRaysIndirectKHR", "", limit)}
	}},
	{"trace_indirect2_dims", nil, "rays=0", func(limit uint64) []want {
		return []want{traceRays("vkCmdTraceRaysIndirect2KHR", "2", limit)}
	}},
}

func draw(i float64) map[string][]float64 { return map[string][]float64{"draw_index": {i}} }

const vertexMsg = "Vertex attribute at location 0 (binding 0, vertex rate, stride 16) fetched bytes 48 to 63 for vertex " +
	"index 3, past the end of the bound vertex buffer range (byte 48). gpuav-dbg skipped the draw."

func firstInstanceMsg(st string) string {
	return "The firstInstance member of the " + st + " structure is 1, but the drawIndirectFirstInstance feature is not enabled."
}

func meshMsg(limitName string, limit uint64) string {
	return fmt.Sprintf("The groupCountY member of the VkDrawMeshTasksIndirectCommandEXT structure is %d, above %s[1] (%d).",
		limit+1, limitName, limit)
}

func indexedIndirect(action string) want {
	return want{check: "index_buffer_oob", vuid: "VUID-VkDrawIndexedIndirectCommand-robustBufferAccess2-08798", action: action,
		msg: "The VkDrawIndexedIndirectCommand reads indices 0 to 5 (firstIndex 0, indexCount 6), but the bound index buffer " +
			"holds 3 (VK_INDEX_TYPE_UINT32 from offset 0 to byte 12): indexSize × (firstIndex + indexCount) + offset = 24 > 12.",
		coords: draw(0), index: &cmdIndex{FirstIndex: 0, IndexCount: 6, IndexSize: 4, End: 12, Available: 3, Indirect: true}}
}

func overrun(action, vuid, field string, count, stride, size uint32) want {
	what := "The " + field + " parameter is"
	if field == "count" {
		what = "The count in the count buffer is"
	}
	msg := fmt.Sprintf("%s %d: stride × (count - 1) + offset + size = %d × %d + 0 + %d = %d is past the end of the %d-byte "+
		"indirect buffer, which holds 2 such commands. gpuav-dbg executed only the 2 that fit.",
		what, count, stride, count-1, stride, stride*count, size)
	return want{check: "indirect_command", vuid: "VUID-" + action + "-" + vuid, action: action, coords: draw(0), msg: msg,
		indirect: &cmdIndirect{Field: field, Value: uint64(count), Limit: 2, Count: count, Stride: stride, CommandSize: stride,
			BufferSize: size, Fit: 2, Skipped: true}}
}

// traceRays: 8192 × 8192 × depth rays, the least depth past the limit.
func traceRays(action, two string, limit uint64) want {
	st := "VkTraceRaysIndirectCommand" + two + "KHR"
	depth := limit/(8192*8192) + 1
	msg := fmt.Sprintf("The width × height × depth of the %s structure is %d, above maxRayDispatchInvocationCount (%d). "+
		"The command was 8192 × 8192 × %d; gpuav-dbg traced no rays.", st, 8192*8192*depth, limit, depth)
	return want{check: "indirect_command", vuid: "VUID-" + st + "-width-03641", action: action, coords: draw(0), msg: msg,
		indirect: &cmdIndirect{Struct: st, Field: "width × height × depth", Value: 8192 * 8192 * depth, Limit: limit,
			Groups: &[3]uint32{8192, 8192, uint32(depth)}, Skipped: true}}
}

// appLimit reads the "limit=N" line a case prints (0 when none).
func appLimit(t *testing.T, out string) uint64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^limit=(\d+)$`).FindStringSubmatch(out)
	if m == nil {
		return 0
	}
	n, err := strconv.ParseUint(m[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// runCmd runs a case of the app under the launcher; a device without the
// case's extension (exit 3, "unsupported: EXT") skips the test, saying so.
func runCmd(t *testing.T, env, flags []string, kase string) (int, cmdReport, string) {
	t.Helper()
	var r cmdReport
	code, out := cmdApp.runInto(t, &r, env, flags, "--case", kase)
	if m := regexp.MustCompile(`unsupported: (\S+)`).FindStringSubmatch(out); m != nil {
		t.Skipf("the device lacks %s", m[1])
	}
	return code, r, out
}

// TestCommandChecks: every form of draw, dispatch, mesh draw and trace rays
// with a bad parameter, end to end through the launcher on lavapipe: each
// reports its group (check, VUID, action, the command's coordinates,
// exact values, no shader and no source, "cmd-cmd", submit 1), and what
// ran shows the skip (the draw, dispatch or trace did not run, or only the
// commands that fit did); draws whose commands the pre-pass reads after
// their render pass are reported, not skipped.
func TestCommandChecks(t *testing.T) {
	for _, tt := range cmdCases {
		t.Run(tt.name, func(t *testing.T) {
			code, r, out := runCmd(t, tt.env, nil, tt.name)
			if code != 1 {
				t.Fatalf("exit code %d, want 1\n%s", code, out)
			}
			if !strings.Contains(out, tt.output) {
				t.Errorf("app printed\n%s\nwant %q", out, tt.output)
			}
			checkGroups(t, r.Errors, tt.groups(appLimit(t, out)), out)
		})
	}
}

// checkGroups compares the report's groups with the wanted ones, in order.
func checkGroups(t *testing.T, got []cmdGroup, wants []want, out string) {
	t.Helper()
	if len(got) != len(wants) {
		t.Fatalf("%d groups, want %d\n%s", len(got), len(wants), out)
	}
	for i, w := range wants {
		g := got[i]
		if g.Check != w.check || g.Level != "error" || g.VUID != w.vuid || g.Action != w.action || g.ActionIndex != 0 ||
			g.Count != 1 || g.Submit != 1 || g.Shader.ID != 0 || g.Source != nil || g.CommandBuffer.Name != "cmd-cmd" ||
			!reflect.DeepEqual(g.Coords, w.coords) {
			t.Errorf("group %d: check %q level %q vuid %q action %q #%d count %d submit %d shader %d source %v cb %q coords %v, want %s %s %s %v",
				i, g.Check, g.Level, g.VUID, g.Action, g.ActionIndex, g.Count, g.Submit, g.Shader.ID, g.Source != nil,
				g.CommandBuffer.Name, g.Coords, w.check, w.vuid, w.action, w.coords)
		}
		if !reflect.DeepEqual(g.IndexBuffer, w.index) || !reflect.DeepEqual(g.Vertex, w.vertex) ||
			!reflect.DeepEqual(g.Indirect, w.indirect) {
			t.Errorf("group %d values:\n index %+v\n vertex %+v\n indirect %+v\nwant\n index %+v\n vertex %+v\n indirect %+v",
				i, g.IndexBuffer, g.Vertex, g.Indirect, w.index, w.vertex, w.indirect)
		}
		if g.Indirect != nil && g.Indirect.Groups != nil && w.indirect.Groups != nil && *g.Indirect.Groups != *w.indirect.Groups {
			t.Errorf("group %d: groups %v, want %v", i, *g.Indirect.Groups, *w.indirect.Groups)
		}
		pipeline := cmp.Or(w.pipeline, "cmd-pipeline")
		if g.Pipeline.Name != pipeline || !slices.Equal(g.Labels, []string{"cmd-case"}) {
			t.Errorf("group %d: pipeline %q labels %q, want %q and [cmd-case]", i, g.Pipeline.Name, g.Labels, pipeline)
		}
		head := fmt.Sprintf("%s: %s %s. Command buffer 0x? (\"cmd-cmd\"), action #0 %s in \"cmd-case\", submit 1, "+
			"pipeline 0x? (%q), checked by the layer (no shader). Stage ", w.check, w.msg, w.vuid, w.action, pipeline)
		if msg := regexp.MustCompile(`0x[0-9a-f]+`).ReplaceAllString(g.Message, "0x?"); !strings.HasPrefix(msg, head) {
			t.Errorf("group %d message:\n%s\nwant it to begin\n%s", i, msg, head)
		}
	}
}

// TestCommandChecksClean: every form at its limits (each draw form's
// commands exactly filling their buffers, counts equal to maxDrawCount,
// a dispatch followed by a plain vkCmdDispatch that relies on the compute
// state the pre-pass restored) reports nothing, leaves nothing unchecked
// (the vertex fetches of indexed and indirect draws are checked in the
// vertex shader) and runs all its work.
func TestCommandChecksClean(t *testing.T) {
	for _, tt := range []struct {
		kase, output string
		unchecked    []string
	}{
		{"draw_clean", "vertices=24 sum=46 groups=0 rays=0", nil},
		{"dispatch_clean", "vertices=0 sum=0 groups=7 rays=0", nil},
		{"mesh_clean", "vertices=0 sum=0 groups=5 rays=0", nil},
		{"trace_clean", "vertices=0 sum=0 groups=0 rays=16", nil},
	} {
		t.Run(tt.kase, func(t *testing.T) {
			code, r, out := runCmd(t, nil, nil, tt.kase)
			requireSilentCmd(t, code, r, out, tt.unchecked...)
			if !strings.Contains(out, tt.output) {
				t.Errorf("app printed\n%s\nwant %q", out, tt.output)
			}
		})
	}
}

// TestCommandChecksSettings: each command check switched off reports
// nothing and lets the command run as the app recorded it (an indexed
// indirect draw's pre-pass, there for both index_buffer_oob and
// indirect_command, reports only for the one that is on); with on_error
// execute the check reports and the command runs (skipped: false).
func TestCommandChecksSettings(t *testing.T) {
	for _, tt := range []struct {
		check, kase, output string
		unchecked           []string
	}{
		{"vertex_fetch_oob", "draw_vertex_oob", "vertices=6", nil},
		{"index_buffer_oob", "draw_indexed_oob", "vertices=3 sum=6", nil},
		{"indirect_command", "dispatch_indirect_groups", "groups=65536", nil}, // maxComputeWorkGroupCount[1] + 1 here and on NVIDIA
		// The pre-pass runs for the other check alone.
		{"indirect_command", "draw_indexed_indirect_first_instance", "vertices=1 sum=1", nil},
		{"index_buffer_oob", "draw_indexed_indirect_oob", "vertices=", nil},
	} {
		if tt.kase == "dispatch_indirect_groups" && !driverIsLavapipe(t) {
			// A dispatch past maxComputeWorkGroupCount is invalid: lavapipe
			// runs all 65,536 groups, the NVIDIA driver none (H100, 580).
			tt.output = "groups="
		}
		t.Run(tt.check+"=off", func(t *testing.T) {
			code, r, out := runCmd(t, nil, []string{"--check", tt.check + "=off"}, tt.kase)
			requireSilentCmd(t, code, r, out, tt.unchecked...)
			if !strings.Contains(out, tt.output) {
				t.Errorf("app printed\n%s\nwant %q", out, tt.output)
			}
		})
		// The layer alone, reporting to stderr.
		t.Run(tt.check+"/execute", func(t *testing.T) {
			s := runCmdDirect(t, tt.kase, "VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation", "VK_LAYER_GPUAV_DBG_ON_ERROR=execute")
			if n := strings.Count(s, "gpuav-dbg: ERROR "+tt.check+": "); n != 1 || strings.Count(s, "gpuav-dbg: ERROR") != 1 ||
				!strings.Contains(s, tt.output) {
				t.Fatalf("%d %s errors, want 1 and %q:\n%s", n, tt.check, tt.output, s)
			}
			if strings.Contains(s, "gpuav-dbg skipped") || strings.Contains(s, "no groups") {
				t.Errorf("on_error execute, but skipped:\n%s", s)
			}
		})
	}
}

// runCmdDirect runs a case of the app with the layer loaded by the
// environment env (no launcher) and returns its output.
func runCmdDirect(t *testing.T, kase string, env ...string) string {
	t.Helper()
	dir := cmdApp.dir(t)
	cmd := exec.Command(filepath.Join(dir, "cmdapp"), "--shaders", dir, "--case", kase)
	cmd.Env = append(append(os.Environ(), "VK_ADD_LAYER_PATH="+filepath.Join(root, "bin")), env...)
	b, err := cmd.CombinedOutput()
	s := string(b)
	if strings.Contains(s, "unsupported: ") {
		t.Skip(s)
	}
	if err != nil {
		t.Fatalf("cmdapp --case %s: %v\n%s", kase, err, s)
	}
	return s
}

// requireSilentCmd fails unless the run reported no error and left
// unchecked exactly the commands that unchecked names (the beginnings of
// their causes, of kind "command"): exit 0 with none, 4 with some.
func requireSilentCmd(t *testing.T, code int, r cmdReport, out string, unchecked ...string) {
	t.Helper()
	want := 0
	if len(unchecked) > 0 {
		want = 4
	}
	if code != want || len(r.Errors) != 0 {
		t.Fatalf("exit %d, %d groups, want %d and none\n%s", code, len(r.Errors), want, out)
	}
	var got []string
	for _, u := range r.Unchecked {
		got = append(got, u.Kind+": "+u.Reason)
	}
	if len(got) != len(unchecked) {
		t.Fatalf("unchecked %q, want %d causes beginning %q", got, len(unchecked), unchecked)
	}
	for i, u := range unchecked {
		if !strings.HasPrefix(got[i], "command: "+u) {
			t.Errorf("unchecked %q, want %q...", got[i], "command: "+u)
		}
	}
}

// TestCommandChecksKhronos compares with the Khronos layer 1.3.239 and its
// GPU-assisted validation, on the same cases with nothing of ours loaded:
// the clean cases are valid (no message); it reports the CPU-side counts
// (07825, 00488, 03111/03143, 00407), the count buffer past the end
// (03122/03154), firstInstance (00501/00554) and the dispatch group count
// (00418) under the VUIDs gpuav-dbg uses, and misses the vertex fetches
// (of direct, indexed and indirect draws), the indexed indirect command's
// index range, the mesh group counts and the trace rays dimensions that
// gpuav-dbg reports.
func TestCommandChecksKhronos(t *testing.T) {
	requireKhronos(t)
	caught := map[string][]string{
		"draw_indexed_oob":                     {"VUID-vkCmdDrawIndexed-robustBufferAccess2-07825"},
		"draw_multi_indexed_oob":               {"VUID-vkCmdDrawMultiIndexedEXT-robustBufferAccess2-07825"},
		"draw_indirect_first_instance":         {"VUID-VkDrawIndirectCommand-firstInstance-00501"},
		"draw_indexed_indirect_first_instance": {"VUID-VkDrawIndexedIndirectCommand-firstInstance-00554"},
		"draw_indirect_overrun":                {"VUID-vkCmdDrawIndirect-drawCount-00488"},
		"draw_indirect_count_overrun":          {"VUID-vkCmdDrawIndirectCount-countBuffer-03122", "VUID-vkCmdDrawIndirectCount-maxDrawCount-03111"},
		"draw_indexed_indirect_count_overrun": {"VUID-vkCmdDrawIndexedIndirectCount-countBuffer-03154",
			"VUID-vkCmdDrawIndexedIndirectCount-maxDrawCount-03143"},
		"dispatch_indirect_groups": {"VUID-VkDispatchIndirectCommand-y-00418"},
		"dispatch_indirect_offset": {"VUID-vkCmdDispatchIndirect-offset-00407"},
	}
	kases := []string{"draw_clean", "dispatch_clean", "mesh_clean", "trace_clean"}
	// The vertex fetches that gpuav-dbg checks in the vertex shader
	// (vertex_fetch_test.go): the Khronos layer 1.3.239 reports none.
	for _, tt := range vertexShaderCases {
		kases = append(kases, tt.kase)
	}
	for _, tt := range cmdCases {
		// 134M rays take minutes; the Khronos layer 1.3.239 gives no
		// vkCmdBindIndexBuffer2KHR (it predates VK_KHR_maintenance5).
		if tt.name != "draw_indirect_count_limit" && tt.name != "draw_indexed_oob_sized" && !strings.HasPrefix(tt.name, "trace_") {
			kases = append(kases, tt.name)
		}
	}
	for _, kase := range kases {
		t.Run(kase, func(t *testing.T) {
			s := cmdApp.runKhronos(t, "--case", kase)
			if strings.Contains(s, "unsupported: ") {
				t.Skip(s)
			}
			got := regexp.MustCompile(`Validation Error: \[ (\S+) \]`).FindAllStringSubmatch(s, -1)
			var ids []string
			for _, m := range got {
				ids = append(ids, m[1])
			}
			slices.Sort(ids)
			if want := caught[kase]; !slices.Equal(ids, want) {
				t.Fatalf("Khronos reported %v, want %v:\n%s", ids, want, s)
			}
		})
	}
}

// TestCommandChecksNotices: what the command checks leave unchecked is
// said. draw_indirect_full
// records more indirect draws than the first pre-pass buffer holds jobs
// for: the first submit leaves the last ones unchecked, with a warning, and
// its bad last command unreported; the buffer grows at the next
// vkBeginCommandBuffer (an info notice) and the second submit reports it;
// the indirect draws of a secondary command buffer recorded inside a
// render pass are not checked (the pre-pass runs after a render pass, which
// the secondary does not end). A run with no error exits 4.
func TestCommandChecksNotices(t *testing.T) {
	const (
		full = "indirect_command: the pre-pass buffer of a command buffer is full: the indirect commands past it " +
			"are not checked in this recording; it grows at the next vkBeginCommandBuffer"
		grown     = "input buffer (binding 4) grown to "
		secondary = "indirect_command: 1 indirect draws of command buffer 0x"
	)
	for _, tt := range []struct {
		kase, output string
		warnings     []string
		infos        []string
		groups       int
	}{
		{"draw_indirect_full", "vertices=2000 sum=", []string{full}, []string{grown}, 1},
		{"draw_secondary_indirect", "vertices=1 sum=1", []string{secondary}, nil, 0},
	} {
		t.Run(tt.kase, func(t *testing.T) {
			var r checkReport
			code, out := cmdApp.runInto(t, &r, nil, nil, "--case", tt.kase)
			wantCode := 4 // not everything checked
			if tt.groups > 0 {
				wantCode = 1
			}
			if code != wantCode || !strings.Contains(out, tt.output) || len(r.Errors) != tt.groups {
				t.Fatalf("exit %d, %d groups, want %d, %d and %q\n%s", code, len(r.Errors), wantCode, tt.groups, tt.output, out)
			}
			if tt.groups == 1 {
				e := r.Errors[0]
				if e.Check != "indirect_command" || e.ActionIndex != 999 || e.Submit != 2 || e.Count != 1 {
					t.Errorf("group %s action #%d submit %d ×%d, want indirect_command #999 of submit 2, once",
						e.Check, e.ActionIndex, e.Submit, e.Count)
				}
			}
			for level, texts := range map[string][]string{"warning": tt.warnings, "info": tt.infos} {
				for _, want := range texts {
					n := 0
					for _, no := range r.Notices {
						if strings.HasPrefix(no.Text, want) {
							n++
							if no.Level != level {
								t.Errorf("notice %q: level %s, want %s", no.Text, no.Level, level)
							}
						}
					}
					if n != 1 {
						t.Errorf("%d notices %q..., want 1: %+v", n, want, r.Notices)
					}
				}
			}
		})
	}
}
