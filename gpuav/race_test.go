package gpuav

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
)

// compileCompute compiles a compute shader's source for env (vulkan1.1
// when "").
func compileCompute(t *testing.T, src, env string) []uint32 {
	t.Helper()
	if env == "" {
		env = "vulkan1.1"
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.comp"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return shadertest.Compile(t, dir, "t.comp", "-g", "--target-env", env)
}

// raceOnly instruments with shared_memory_race alone.
func raceOnly(t *testing.T, w []uint32, opt Options) Result {
	t.Helper()
	opt.ShaderID, opt.DescriptorSet = 3, 7
	opt.Checks = map[string]bool{CheckSharedMemoryRace: true}
	res, err := Instrument(w, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSharedRaceUnmodelledSync: a module whose shared memory other
// invocations can order by something else than a workgroup barrier is
// left unchecked with a warning naming why (a report could otherwise be a
// false positive); memoryBarrierShared() alone, or right next to
// barrier(), orders nothing between invocations the barrier does not, and
// leaves the module checked.
func TestSharedRaceUnmodelledSync(t *testing.T) {
	const head = "#version 450\n#extension GL_KHR_shader_subgroup_basic : require\nlayout(local_size_x = 64) in;\n" +
		"shared uint s[64];\nlayout(set = 0, binding = 0) buffer B { uint v[]; } b;\nvoid main() {\n uint l = gl_LocalInvocationIndex;\n"
	tests := []struct {
		name, body, warn string // warn "": checked
	}{
		{"subgroup-barrier", " s[l] = l;\n subgroupMemoryBarrierShared();\n subgroupBarrier();\n b.v[l] = s[l ^ 1u];\n",
			"a subgroup barrier"},
		{"fence-and-atomic", " s[l] = l;\n memoryBarrierShared();\n atomicAdd(b.v[0], 1u);\n b.v[l] = s[l ^ 1u];\n",
			"may synchronize invocations through an atomic"},
		{"fence-alone", " s[l] = l;\n memoryBarrierShared();\n b.v[l] = s[l ^ 1u];\n", ""},
		{"fence-before-barrier", " s[l] = l;\n memoryBarrierShared();\n barrier();\n atomicAdd(b.v[0], s[l ^ 1u]);\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := raceOnly(t, compileCompute(t, head+tt.body+"}\n", ""), Options{})
			warned := strings.Join(res.Warnings, "; ")
			switch {
			case tt.warn == "" && (res.ChecksAdded == 0 || warned != ""):
				t.Errorf("%d sites, warnings %q; want checked", res.ChecksAdded, warned)
			case tt.warn != "" && (res.ChecksAdded != 0 || !strings.Contains(warned, "shared memory left unchecked") ||
				!strings.Contains(warned, tt.warn)):
				t.Errorf("%d sites, warnings %q; want none and a warning saying %q", res.ChecksAdded, warned, tt.warn)
			}
		})
	}
}

// TestSharedRaceShadowLimit: the shadow (12 bytes a scalar) and the
// shader's own shared memory must fit the device's limit, the minimum
// every device has (16 KiB) when the layer does not say: 1024 floats need
// 4 KiB + 12 KiB; 1100 do not fit 16 KiB but fit 32 KiB.
func TestSharedRaceShadowLimit(t *testing.T) {
	src := func(n string) string {
		return "#version 450\nlayout(local_size_x = 64) in;\nshared float s[" + n + "];\n" +
			"layout(set = 0, binding = 0) buffer B { float v[]; } b;\nvoid main() { s[gl_LocalInvocationIndex] = 1.0; barrier(); b.v[0] = s[3]; }\n"
	}
	if res := raceOnly(t, compileCompute(t, src("1024"), ""), Options{}); res.ChecksAdded != 2 || len(res.Warnings) != 0 {
		t.Errorf("1024 floats: %d sites, warnings %q; want 2, none", res.ChecksAdded, res.Warnings)
	}
	w := compileCompute(t, src("1100"), "")
	res := raceOnly(t, w, Options{})
	if res.ChecksAdded != 0 || len(res.Warnings) != 1 ||
		!strings.Contains(res.Warnings[0], "its 4400 bytes of shared memory and the 13200-byte shadow exceed the device's 16384 bytes") {
		t.Errorf("1100 floats, 16 KiB: %d sites, warnings %q; want none and the limit's warning", res.ChecksAdded, res.Warnings)
	}
	if res := raceOnly(t, w, Options{MaxSharedMemory: 32768}); res.ChecksAdded != 2 || len(res.Warnings) != 0 {
		t.Errorf("1100 floats, 32 KiB: %d sites, warnings %q; want 2, none", res.ChecksAdded, res.Warnings)
	}
	if res := raceOnly(t, w, Options{MaxSharedMemory: 32768, RobustOnly: true}); res.ChecksAdded != 0 {
		t.Errorf("robust-only: %d sites, want none (the check reports nothing there)", res.ChecksAdded)
	}
}

// TestSharedElement names slots as the pass numbers them: struct members
// in order, array elements, vector components, matrix columns; the byte
// offset with the scalars unpadded.
func TestSharedElement(t *testing.T) {
	w := compileCompute(t, "#version 450\nlayout(local_size_x = 4) in;\nstruct P { float a; uvec2 b; mat2 m; };\n"+
		"shared P ps[3];\nshared vec4 v;\nlayout(set = 0, binding = 0) buffer B { float x[]; } b;\n"+
		"void main() { ps[1].b.y = 1u; v.z = 2.0; b.x[0] = ps[2].m[1][0] + v.w; }\n", "")
	res := raceOnly(t, w, Options{})
	if res.ChecksAdded != 4 {
		t.Fatalf("%d sites, want 4 (warnings %q)", res.ChecksAdded, res.Warnings)
	}
	var ps, v uint32
	for _, s := range res.Sites {
		switch s.Record.Params[0] {
		case 0:
		default:
			if ps == 0 {
				ps = s.Record.Params[0]
			} else if s.Record.Params[0] != ps {
				v = s.Record.Params[0]
			}
		}
	}
	if ps == 0 || v == 0 {
		t.Fatalf("variables %d, %d from the site table %+v", ps, v, res.Sites)
	}
	// P is a, b.x, b.y, m[0].x, m[0].y, m[1].x, m[1].y: 7 scalars, 28 bytes.
	for _, tt := range []struct {
		variable, slot uint32
		want           string
		offset         uint32
	}{
		{ps, 0, "ps[0].a", 0},
		{ps, 9, "ps[1].b.y", 36},
		{ps, 19, "ps[2].m[1].x", 76},
		{v, 2, "v.z", 8},
	} {
		n, ok := SharedElement(w, tt.variable, tt.slot)
		if !ok || n.Element != tt.want || n.Offset == nil || *n.Offset != tt.offset {
			t.Errorf("slot %d of %%%d: %+v %v, want %s at byte %d", tt.slot, tt.variable, n, ok, tt.want, tt.offset)
		}
	}
	if _, ok := SharedElement(w, ps, 21); ok {
		t.Errorf("slot 21 of ps (7 × 3 scalars) named")
	}
}

// TestDecodeRaceOtherAccess: a hazard record names the other access by its
// tag; Decode replaces it with that site's instruction, or NoInstruction
// for a tag no site has (past the 510th access).
func TestDecodeRaceOtherAccess(t *testing.T) {
	rec := dynamicRecord([RecordParams]uint32{0: 17}, -1, 0, 1, 2, 3, 4)
	sites := []Site{
		{ID: 0, Instruction: 40, Checks: []string{CheckSharedMemoryRace}, Record: rec, RaceTag: 1},
		{ID: 1, Instruction: 55, Checks: []string{CheckSharedMemoryRace}, Record: rec, RaceTag: 2},
	}
	table := func(uint32) ([]Site, uint32, bool) { return sites, ModelGLCompute, true }
	buf := make([]uint32, OutputHeaderWords+3*RecordWords)
	buf[OutputWrittenWord] = 2
	put := func(i int, other uint32) {
		r := buf[OutputHeaderWords+i*RecordWords:]
		r[0], r[1] = 9, 1|uint32(CodeSharedRaceRAW)<<RecordSiteBits
		r[2], r[3] = 5, other // slot 5, the other access's tag
		r[8], r[9], r[10] = 2|1<<16, 64|1<<16, 0
	}
	put(0, 1)
	put(1, 511)
	out := Decode(buf, table)
	if len(out.Records) != 2 || out.Malformed != 0 {
		t.Fatalf("%d records, %d malformed", len(out.Records), out.Malformed)
	}
	r := out.Records[0]
	if r.Instruction != 55 || r.Params[0] != 17 || r.Params[1] != 5 || r.Params[2] != 40 || r.Params[3] != 2|1<<16 {
		t.Errorf("record %+v, want instruction 55, variable 17, slot 5, other instruction 40, local indices 2 and 1", r)
	}
	if out.Records[1].Params[2] != NoInstruction {
		t.Errorf("tag 511: other instruction %d, want NoInstruction", out.Records[1].Params[2])
	}
	d := Describe(r.Code, r.Params)
	if d.Race == nil || d.Race.Kind != "read-after-write" || d.Race.LocalID(d.Race.LocalIndex) != [3]uint32{2, 0, 0} ||
		d.Race.LocalID(d.Race.OtherLocalIndex) != [3]uint32{1, 0, 0} || d.FullVUID != RaceVUID ||
		d.Message != "Shared memory read-after-write hazard on %17 slot 5: invocation (2, 0, 0) read it after invocation (1, 0, 0) wrote it (instruction 40), with no barrier() between the two accesses." {
		t.Errorf("description %+v %+v", d, d.Race)
	}
	if o := FailedAccess(OnErrorSkip, r.Code, r.Params); o.Access != AccessExecuted {
		t.Errorf("outcome under skip %+v, want executed (a hazard's accesses both happen)", o)
	}
}

// TestDescribeBarrier: the two barrier_divergence reports' sentences.
func TestDescribeBarrier(t *testing.T) {
	d := Describe(CodeBarrierSubgroup, [RecordParams]uint32{4, 8, 9, 1, 64, 1})
	if d.Barrier == nil || d.FullVUID != BarrierVUID ||
		d.Message != "A barrier() (the workgroup's barrier number 2) was reached by 4 of the 8 invocations of a subgroup (the rest returned or took other control flow); local invocation (9, 0, 0) did not arrive. The invocations that arrived skipped the barrier, so that it cannot hang." {
		t.Errorf("subgroup: %q", d.Message)
	}
	p := [RecordParams]uint32{32, 64, NoInstruction, 0, 8 | 8<<16, 0}
	if d := Describe(CodeBarrierWorkgroup, p); d.Message != "A barrier() (the workgroup's barrier number 1) completed with 32 of the workgroup's 64 invocations; the others were in other control flow." {
		t.Errorf("workgroup: %q", d.Message)
	}
	p[2] = 33
	if d := Describe(CodeBarrierWorkgroup, p); !strings.Contains(d.Message, "local invocation (1, 4, 0) and others returned before reaching it") {
		t.Errorf("workgroup: %q", d.Message)
	}
	if o := FailedAccess(OnErrorSkip, CodeBarrierWorkgroup, p); o.Access != AccessExecuted {
		t.Errorf("workgroup outcome %+v, want executed", o)
	}
}
