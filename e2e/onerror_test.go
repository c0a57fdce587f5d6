package e2e

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// What a failed access does (--on-error skip|clamp|execute, and --robust),
// proved by what the app's buffers hold afterwards. The values come from
// each app's header comment:
//
//	descapp  value = data[index].v[0] + 1, data[i].v[0] = 100 + i
//	bufapp   value = params.v[ui].x + tail.t[ti].y + data.d[si] (11 + 2000 + 103
//	         by default); d4, d3: data's words 4 and 3 (104, 103)
//	texelapp value = fetched texel (100 + i); old = the atomic's old value;
//	         s8, s7, s0: the storage texel buffer's words (1000 + i)
//	bdaapp   value = v[index] + 1, v[i] = 100 + i; d3: v[3] in memory
//	rqapp    hit = 1 where the query committed the triangle
//	clampapp value = what the access read; c3, s1by, s3by: words of the
//	         atomic's and the struct store's buffers
//	sanapp   u, i, f: the operation's result in each invocation
//	meshapp  pixel: the 1x1 target (white where the triangle was drawn, black
//	         where the payload read yielded 0)
//	traceapp payload: each launch's ray payload (7: the trace was not made,
//	         2: a miss, 1000 + the hit kind: a hit on the box)

// onErrorCase is one app run under one behaviour.
type onErrorCase struct {
	name    string
	app     *checkApp
	args    []string // the app's arguments after --shaders DIR
	flags   []string // gpuav-dbg run's flags besides --on-error
	onError string   // skip, clamp or execute
	check   string
	// out are lines the app must print: they prove what the access did.
	out []string
	// robustDriver, when set, replaces out on a driver that bounds-checks
	// buffer and texel accesses itself (lavapipe, NVIDIA: driverBoundsBuffers): an executed access is
	// then the driver's robust access, as it is for the app without
	// validation.
	robustDriver []string
	// access is the report's outcome.access: skipped, clamped or executed;
	// clampedTo its clamped_to (-1: none); reason a part of its reason.
	access    string
	clampedTo int64
	reason    string
}

// onErrorCases: each check with each behaviour where it has a meaning.
// Execute runs only where the app arranged the access to be safe: a
// runtime descriptor array's index past the layout's count, a read past a
// dynamic offset's buffer end and a device address past a buffer's
// memory are not run as written.
var onErrorCases = []onErrorCase{
	// descriptor_index_oob, runtime array (layout 4, index 5): clamped to
	// the real count's last element.
	{"desc/runtime_oob/skip", descApp, []string{"--case", "runtime_oob"}, nil, "skip", "descriptor_index_oob",
		[]string{"value=1"}, nil, "skipped", -1, ""},
	{"desc/runtime_oob/clamp", descApp, []string{"--case", "runtime_oob"}, nil, "clamp", "descriptor_index_oob",
		[]string{"value=104"}, nil, "clamped", 3, ""},
	// The element the clamp goes to (3) is unwritten, or its buffer
	// destroyed: the access is skipped, and the record says why.
	{"desc/runtime_oob_unwritten/clamp", descApp, []string{"--case", "runtime_oob_unwritten"}, nil, "clamp",
		"descriptor_index_oob", []string{"value=1"}, nil, "skipped", -1, "the element the index clamps to, 3, was never written"},
	{"desc/runtime_oob_destroyed/clamp", descApp, []string{"--case", "runtime_oob_destroyed"}, nil, "clamp",
		"descriptor_index_oob", []string{"value=1"}, nil, "skipped", -1, "the element the index clamps to, 3, has a destroyed resource"},
	// A variable count (6 of 16): the clamp uses the set's count.
	{"desc/variable_count/clamp", descApp, []string{"--case", "variable_count"}, nil, "clamp", "descriptor_index_oob",
		[]string{"value=106"}, nil, "clamped", 5, ""},
	// A sized array data[8] over a variable count of 4, index 5: the
	// buffer check finds the index past the count and clamps it to 3.
	{"desc/sized_variable/skip", descApp, []string{"--case", "sized_variable"}, nil, "skip", "descriptor_index_oob",
		[]string{"value=1"}, nil, "skipped", -1, ""},
	{"desc/sized_variable/clamp", descApp, []string{"--case", "sized_variable"}, nil, "clamp", "descriptor_index_oob",
		[]string{"value=104"}, nil, "clamped", 3, ""},
	// A sized array data[2] over 4 written elements, index 3.
	{"desc/small_oob/skip", descApp, []string{"--case", "small_oob"}, nil, "skip", "descriptor_index_oob",
		[]string{"value=1"}, nil, "skipped", -1, ""},
	{"desc/small_oob/clamp", descApp, []string{"--case", "small_oob"}, nil, "clamp", "descriptor_index_oob",
		[]string{"value=102"}, nil, "clamped", 1, ""},
	{"desc/small_oob/execute", descApp, []string{"--case", "small_oob"}, nil, "execute", "descriptor_index_oob",
		[]string{"value=104"}, nil, "executed", -1, ""},
	{"desc/small_oob/fragment/clamp", descApp, []string{"--case", "small_oob", "--stage", "fragment"}, nil, "clamp",
		"descriptor_index_oob", []string{"value=102"}, nil, "clamped", 1, ""},
	// descriptor_uninitialized (element 2 never written): nothing to
	// clamp to; executed, lavapipe reads zero.
	{"desc/uninitialized/skip", descApp, []string{"--case", "uninitialized"}, nil, "skip", "descriptor_uninitialized",
		[]string{"value=1"}, nil, "skipped", -1, ""},
	{"desc/uninitialized/clamp", descApp, []string{"--case", "uninitialized"}, nil, "clamp", "descriptor_uninitialized",
		[]string{"value=1"}, nil, "skipped", -1, "clamp has no meaning"},
	{"desc/uninitialized/execute", descApp, []string{"--case", "uninitialized"}, nil, "execute", "descriptor_uninitialized",
		[]string{"value=1"}, nil, "executed", -1, ""},
	// descriptor_destroyed (element 3's buffer destroyed, its memory kept).
	{"desc/destroyed/skip", descApp, []string{"--case", "destroyed"}, nil, "skip", "descriptor_destroyed",
		[]string{"value=1"}, nil, "skipped", -1, ""},
	{"desc/destroyed/clamp", descApp, []string{"--case", "destroyed"}, nil, "clamp", "descriptor_destroyed",
		[]string{"value=1"}, nil, "skipped", -1, "clamp has no meaning"},
	{"desc/destroyed/execute", descApp, []string{"--case", "destroyed"}, nil, "execute", "descriptor_destroyed",
		[]string{"value=104"}, nil, "executed", -1, ""},

	// buffer_oob: a uniform read v[2].x past a 32-byte range (v[1].x is
	// the last whole element inside: offset 16).
	{"buf/ubo_past_range/skip", bufApp, []string{"--case", "ubo_past_range"}, bufferOn, "skip", "buffer_oob",
		[]string{"value=2103"}, nil, "skipped", -1, ""},
	{"buf/ubo_past_range/clamp", bufApp, []string{"--case", "ubo_past_range"}, bufferOn, "clamp", "buffer_oob",
		[]string{"value=2114"}, nil, "clamped", 16, ""},
	{"buf/ubo_past_range/execute", bufApp, []string{"--case", "ubo_past_range"}, bufferOn, "execute", "buffer_oob",
		[]string{"value=2124"}, []string{"value=2103"}, "executed", -1, ""},
	{"buf/ubo_past_range/vertex/clamp", bufApp, []string{"--case", "ubo_past_range", "--stage", "vertex"}, bufferOn, "clamp",
		"buffer_oob", []string{"value=2114"}, nil, "clamped", 16, ""},
	// A storage write d[4] = 7 past a 16-byte range: clamped to d[3].
	{"buf/ssbo_past_range/skip", bufApp, []string{"--case", "ssbo_past_range"}, bufferOn, "skip", "buffer_oob",
		[]string{"d4=104", "d3=103"}, nil, "skipped", -1, ""},
	{"buf/ssbo_past_range/clamp", bufApp, []string{"--case", "ssbo_past_range"}, bufferOn, "clamp", "buffer_oob",
		[]string{"d4=104", "d3=7"}, nil, "clamped", 12, ""},
	{"buf/ssbo_past_range/execute", bufApp, []string{"--case", "ssbo_past_range"}, bufferOn, "execute", "buffer_oob",
		[]string{"d4=7", "d3=103"}, []string{"d4=104", "d3=103"}, "executed", -1, ""},
	// A read d[16] past a 64-byte range at dynamic offset 192: clamped
	// to d[15] of the range (d[63] of the buffer).
	{"buf/dynamic_offset/clamp", bufApp, []string{"--case", "dynamic_offset"}, bufferOn, "clamp", "buffer_oob",
		[]string{"value=2174"}, nil, "clamped", 60, ""},
	// A runtime array's t[1].y past a 20-byte range: OpArrayLength says
	// one element, t[0].y is read.
	{"buf/runtime_array_tail/skip", bufApp, []string{"--case", "runtime_array_tail"}, bufferOn, "skip", "buffer_oob",
		[]string{"value=114"}, nil, "skipped", -1, ""},
	{"buf/runtime_array_tail/clamp", bufApp, []string{"--case", "runtime_array_tail"}, bufferOn, "clamp", "buffer_oob",
		[]string{"value=2114"}, nil, "clamped", 12, ""},
	{"buf/runtime_array_tail/execute", bufApp, []string{"--case", "runtime_array_tail"}, bufferOn, "execute", "buffer_oob",
		[]string{"value=2115"}, []string{"value=114"}, "executed", -1, ""},

	// buffer_oob on the access kinds the clamp walks (clampapp): an atomic,
	// a vector's component, a matrix element in an array of matrices, a
	// struct member in a runtime array; and a range with no place for the
	// access (8 bytes for a 16-byte load), which is skipped.
	{"clamp/atomic/skip", clampApp, []string{"--case", "atomic"}, nil, "skip", "buffer_oob",
		[]string{"value=0", "c3=103"}, nil, "skipped", -1, ""},
	{"clamp/atomic/clamp", clampApp, []string{"--case", "atomic"}, nil, "clamp", "buffer_oob",
		[]string{"value=103", "c3=108"}, nil, "clamped", 12, ""},
	{"clamp/vector/skip", clampApp, []string{"--case", "vector"}, nil, "skip", "buffer_oob",
		[]string{"value=0"}, nil, "skipped", -1, ""},
	{"clamp/vector/clamp", clampApp, []string{"--case", "vector"}, nil, "clamp", "buffer_oob",
		[]string{"value=205"}, nil, "clamped", 20, ""},
	{"clamp/matrix/clamp", clampApp, []string{"--case", "matrix"}, nil, "clamp", "buffer_oob",
		[]string{"value=2012"}, nil, "clamped", 88, ""},
	{"clamp/member/skip", clampApp, []string{"--case", "member"}, nil, "skip", "buffer_oob",
		[]string{"s1by=311", "s3by=323"}, nil, "skipped", -1, ""},
	{"clamp/member/clamp", clampApp, []string{"--case", "member"}, nil, "clamp", "buffer_oob",
		[]string{"s1by=7", "s3by=323"}, nil, "clamped", 44, ""},
	{"clamp/small/clamp", clampApp, []string{"--case", "small"}, nil, "clamp", "buffer_oob",
		[]string{"value=0"}, nil, "skipped", -1, "the 8-byte bound range holds no place for the 16-byte access"},

	// texel_buffer_oob: 8-texel views; a fetch of texel 10, a store to
	// texel 8, an atomic on texel -1.
	{"texel/fetch_oob/skip", texelApp, []string{"--case", "fetch_oob"}, nil, "skip", "texel_buffer_oob",
		[]string{"value=0"}, nil, "skipped", -1, ""},
	{"texel/fetch_oob/clamp", texelApp, []string{"--case", "fetch_oob"}, nil, "clamp", "texel_buffer_oob",
		[]string{"value=107"}, nil, "clamped", 7, ""},
	{"texel/fetch_oob/execute", texelApp, []string{"--case", "fetch_oob"}, nil, "execute", "texel_buffer_oob",
		nil, []string{"value=0"}, "executed", -1, ""},
	{"texel/write_oob/clamp", texelApp, []string{"--case", "write_oob"}, nil, "clamp", "texel_buffer_oob",
		[]string{"s8=1008", "s7=7"}, nil, "clamped", 7, ""},
	{"texel/write_oob/execute", texelApp, []string{"--case", "write_oob"}, nil, "execute", "texel_buffer_oob",
		nil, []string{"s8=1008", "s7=1007"}, "executed", -1, ""},
	{"texel/atomic_oob/skip", texelApp, []string{"--case", "atomic_oob"}, nil, "skip", "texel_buffer_oob",
		[]string{"old=0", "s0=1000"}, nil, "skipped", -1, ""},
	{"texel/atomic_oob/clamp", texelApp, []string{"--case", "atomic_oob"}, nil, "clamp", "texel_buffer_oob",
		[]string{"old=1000", "s0=1005"}, nil, "clamped", 0, ""},
	{"texel/atomic_oob/fragment/clamp", texelApp, []string{"--case", "atomic_oob", "--stage", "fragment"}, nil, "clamp",
		"texel_buffer_oob", []string{"old=1000", "s0=1005"}, nil, "clamped", 0, ""},

	// bda_oob: addresses outside every live buffer have nothing to clamp
	// to; a destroyed buffer's memory stays, so executing is safe there.
	{"bda/read_past_end/clamp", bdaApp, []string{"--case", "read_past_end"}, nil, "clamp", "bda_oob",
		[]string{"value=1"}, nil, "skipped", -1, "clamp has no meaning"},
	{"bda/use_after_destroy/skip", bdaApp, []string{"--case", "use_after_destroy"}, nil, "skip", "bda_oob",
		[]string{"value=1"}, nil, "skipped", -1, ""},
	{"bda/use_after_destroy/clamp", bdaApp, []string{"--case", "use_after_destroy"}, nil, "clamp", "bda_oob",
		[]string{"value=1"}, nil, "skipped", -1, "clamp has no meaning"},
	{"bda/use_after_destroy/execute", bdaApp, []string{"--case", "use_after_destroy"}, nil, "execute", "bda_oob",
		[]string{"value=104"}, nil, "executed", -1, ""},
	{"bda/write_after_destroy/skip", bdaApp, []string{"--case", "write_after_destroy"}, nil, "skip", "bda_oob",
		[]string{"d3=103"}, nil, "skipped", -1, ""},
	{"bda/write_after_destroy/execute", bdaApp, []string{"--case", "write_after_destroy"}, nil, "execute", "bda_oob",
		[]string{"d3=7"}, nil, "executed", -1, ""},

	// ray_query: a negative t_min. Skipped and clamped, the query traces a
	// ray that hits nothing; executed, lavapipe traces it and hits.
	{"rq/negative_tmin/skip", rqApp, []string{"--ray", "0", "0", "0", "0", "0", "1", "-1", "10"}, nil, "skip", "ray_query",
		[]string{"hit=0 0 0 0"}, nil, "skipped", -1, ""},
	{"rq/negative_tmin/clamp", rqApp, []string{"--ray", "0", "0", "0", "0", "0", "1", "-1", "10"}, nil, "clamp", "ray_query",
		[]string{"hit=0 0 0 0"}, nil, "skipped", -1, "clamp has no meaning"},
	{"rq/negative_tmin/execute", rqApp, []string{"--ray", "0", "0", "0", "0", "0", "1", "-1", "10"}, nil, "execute", "ray_query",
		[]string{"hit=1 1 1 1"}, nil, "executed", -1, ""},

	// sanitizer_divide: 100u / 0. Skipped, the division yields 0; clamped,
	// the divisor is 1; executed, whatever the driver makes of it (lavapipe
	// gives all ones without the layer, and 0 once its compiler sees the
	// division on a path where the divisor is 0: undefined either way).
	{"san/udiv/skip", sanApp, []string{"--case", "udiv"}, nil, "skip", "sanitizer_divide",
		[]string{"u=0 0 0 0"}, nil, "skipped", -1, ""},
	{"san/udiv/clamp", sanApp, []string{"--case", "udiv"}, nil, "clamp", "sanitizer_divide",
		[]string{"u=100 100 100 100"}, nil, "clamped", 1, ""},
	{"san/udiv/execute", sanApp, []string{"--case", "udiv"}, nil, "execute", "sanitizer_divide",
		nil, nil, "executed", -1, ""},
	// mod(5.5, 0.0): a float divisor has nothing to clamp to: skipped (0).
	{"san/fmod/clamp", sanApp, []string{"--case", "fmod"}, nil, "clamp", "sanitizer_divide",
		[]string{"f=0 0 0 0"}, nil, "skipped", -1, "clamp has no meaning"},
	// min(NaN, 1.0): NMin (1) under skip and clamp.
	{"san/min_nan/clamp", sanApp, []string{"--case", "min_nan"}, []string{"--check", "sanitizer_minmax=on"}, "clamp", "sanitizer_minmax",
		[]string{"f=1 1 1 1"}, nil, "skipped", -1, "clamp has no meaning"},
	// A gather of component 5 of (0.2, 0.4, 0.6, 1.0): skipped, component
	// 0; clamped, component 3; executed, lavapipe reads component 1.
	{"san/gather/skip", sanApp, []string{"--case", "gather"}, nil, "skip", "sanitizer_gather",
		[]string{"f=0.2 0.2 0.2 0.2"}, nil, "skipped", -1, ""},
	{"san/gather/clamp", sanApp, []string{"--case", "gather"}, nil, "clamp", "sanitizer_gather",
		[]string{"f=1 1 1 1"}, nil, "clamped", 3, ""},
	{"san/gather/execute", sanApp, []string{"--case", "gather"}, nil, "execute", "sanitizer_gather",
		[]string{"f=0.4 0.4 0.4 0.4"}, nil, "executed", -1, ""},
	// bda_alignment: a read at data + 14 with an alignment of 4. Skipped,
	// it yields 0; clamp has no aligned place to go to; executed, lavapipe
	// reads bytes 14..17 (0, 0, 104, 0: 0x680000).
	{"bda/misaligned/skip", bdaApp, []string{"--case", "misaligned"}, nil, "skip", "bda_alignment",
		[]string{"value=1"}, nil, "skipped", -1, ""},
	{"bda/misaligned/clamp", bdaApp, []string{"--case", "misaligned"}, nil, "clamp", "bda_alignment",
		[]string{"value=1"}, nil, "skipped", -1, "clamp has no meaning"},
	{"bda/misaligned/execute", bdaApp, []string{"--case", "misaligned"}, nil, "execute", "bda_alignment",
		[]string{"value=6815745"}, nil, "executed", -1, ""},
	// mesh_outputs: 6 vertices and 2 primitives of 3 and 1. Skipped and
	// clamped alike, the counts are clamped to the maxima and the triangle
	// is drawn; executed, lavapipe draws it too (its own bound).
	{"mesh/both/skip", meshApp, []string{"--case", "both"}, nil, "skip", "mesh_outputs",
		[]string{"pixel=255,255,255,255"}, nil, "clamped", -1, ""},
	{"mesh/both/clamp", meshApp, []string{"--case", "both"}, nil, "clamp", "mesh_outputs",
		[]string{"pixel=255,255,255,255"}, nil, "clamped", -1, ""},
	{"mesh/both/execute", meshApp, []string{"--case", "both"}, nil, "execute", "mesh_outputs",
		nil, nil, "executed", -1, ""},
	// mesh_task_payload: a payload read with no task shader yields 0 under
	// skip and clamp (a payload has no range to clamp into): no triangle.
	// Not executed: lavapipe's mesh shader crashes reading the payload no
	// task shader made (docs/decisions/pipeline-word.md).
	{"mesh/payload/skip", meshApp, []string{"--case", "payload"}, nil, "skip", "mesh_task_payload",
		[]string{"pixel=0,0,0,0"}, nil, "skipped", -1, ""},
	{"mesh/payload/clamp", meshApp, []string{"--case", "payload"}, nil, "clamp", "mesh_task_payload",
		[]string{"pixel=0,0,0,0"}, nil, "skipped", -1, "clamp has no meaning"},
	// trace_ray: a ray with RayTmin > RayTmax is not made under skip and
	// clamp (a ray's values have nothing to clamp to); executed, the driver
	// decides what it hits. A hit kind of 200 is not reported under skip
	// and clamp (the ray misses the box); executed, the hit has it. (The
	// SBT operands' clamp: TestTraceRaySBTOnError, they are warnings.)
	{"trace/tmin_gt_tmax/skip", traceApp, []string{"--ray", "0", "0", "0", "0", "0", "1", "6", "4.5"}, nil, "skip", "trace_ray",
		[]string{"payload=7 7 7 7"}, nil, "skipped", -1, ""},
	{"trace/tmin_gt_tmax/clamp", traceApp, []string{"--ray", "0", "0", "0", "0", "0", "1", "6", "4.5"}, nil, "clamp", "trace_ray",
		[]string{"payload=7 7 7 7"}, nil, "skipped", -1, "a ray's values and flags are not an index"},
	{"trace/tmin_gt_tmax/execute", traceApp, []string{"--ray", "0", "0", "0", "0", "0", "1", "6", "4.5"}, nil, "execute", "trace_ray",
		nil, nil, "executed", -1, ""},
	{"trace/hit_kind/skip", traceApp, []string{"--stage", "rint", "--hit-kind", "200"}, nil, "skip", "trace_ray",
		[]string{"payload=2 2 2 2"}, nil, "skipped", -1, ""},
	{"trace/hit_kind/clamp", traceApp, []string{"--stage", "rint", "--hit-kind", "200"}, nil, "clamp", "trace_ray",
		[]string{"payload=2 2 2 2"}, nil, "skipped", -1, "a hit kind is a name, not an index"},
	{"trace/hit_kind/execute", traceApp, []string{"--stage", "rint", "--hit-kind", "200"}, nil, "execute", "trace_ray",
		nil, nil, "executed", -1, ""},
}

// invalidAsWritten says why an app's shader is invalid as written, for
// the apps whose shaders are: run as written (execute), a driver may
// refuse the app's own module (NVIDIA's compiler refuses san.comp), which
// no layer can help, so those cases run the app without the layer first
// and skip when the driver itself fails it.
var invalidAsWritten = map[*checkApp]string{
	sanApp: "san.comp gathers component 5 as a constant (its gather case), which is invalid SPIR-V as written",
}

// requireDriverTakesApp runs a case's app without any layer when its
// shaders are invalid as written (invalidAsWritten) and skips the test
// when the driver itself fails it: the driver's failure, not the layer's.
func requireDriverTakesApp(t *testing.T, tc onErrorCase) {
	t.Helper()
	why, ok := invalidAsWritten[tc.app]
	if !ok || tc.onError != "execute" {
		return
	}
	dir := tc.app.dir(t)
	cmd := exec.Command(filepath.Join(dir, tc.app.name), append([]string{"--shaders", dir}, tc.args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("without the layer the app fails (%v): %s, and the driver refuses it as written; the driver's "+
			"failure, not the layer's\n%s", err, why, out)
	}
}

// onErrorReport is the part of the report these tests read.
type onErrorReport struct {
	Settings struct {
		OnError string `json:"on_error"`
		Robust  bool   `json:"robust"`
	} `json:"settings"`
	Errors []struct {
		Check   string `json:"check"`
		Count   int    `json:"count"`
		Outcome *struct {
			Access    string `json:"access"`
			ClampedTo *int64 `json:"clamped_to"`
			Reason    string `json:"reason"`
		} `json:"outcome"`
	} `json:"errors"`
	Unchecked []struct {
		Kind   string `json:"kind"`
		Reason string `json:"reason"`
	} `json:"unchecked"`
}

// refusedByDriver returns the unchecked entry's reason when the driver
// refused a pipeline with the layer's code (the layer then made it from
// the app's code, unchecked: TestDriverRefusesInstrumentedPipeline), or "".
func (r *onErrorReport) refusedByDriver() string {
	for _, u := range r.Unchecked {
		if u.Kind == "pipeline" && strings.HasPrefix(u.Reason, "the driver refused it with the layer's checks") {
			return u.Reason
		}
	}
	return ""
}

// TestOnError: every case of onErrorCases under gpuav-dbg run --on-error:
// one error group of the check, the outcome in the report, and the app's
// lines proving what the access did.
func TestOnError(t *testing.T) {
	robustDriver := driverBoundsBuffers(t)
	for _, tc := range onErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.app == rqApp && !driverHas(t, "rayQuery") {
				t.Skip("the device has no rayQuery (vulkaninfo)")
			}
			if tc.app == meshApp && !driverHas(t, "meshShader") {
				t.Skip("the device has no meshShader (vulkaninfo)")
			}
			if tc.app == traceApp {
				requireTraceRay(t)
			}
			requireDriverTakesApp(t, tc)
			var r onErrorReport
			flags := append([]string{"--on-error", tc.onError}, tc.flags...)
			code, out := tc.app.runInto(t, &r, nil, flags, tc.args...)
			if why := r.refusedByDriver(); why != "" && code == 4 {
				// NVIDIA's compiler refused san.comp instrumented under
				// execute (VK_ERROR_UNKNOWN) where it takes the app's own.
				t.Skipf("the driver refused the pipeline with the layer's code, so the check cannot run here: %s\n%s", why, out)
			}
			if code != 1 || r.Settings.OnError != tc.onError || r.Settings.Robust {
				t.Fatalf("exit %d, settings %+v; want 1 and on_error %s\n%s", code, r.Settings, tc.onError, out)
			}
			if len(r.Errors) != 1 || r.Errors[0].Check != tc.check || r.Errors[0].Count < 1 {
				t.Fatalf("errors %+v, want one group of %s\n%s", r.Errors, tc.check, out)
			}
			if o := r.Errors[0].Outcome; o == nil || o.Access != tc.access || (o.ClampedTo == nil) != (tc.clampedTo < 0) ||
				(o.ClampedTo != nil && *o.ClampedTo != tc.clampedTo) || !strings.Contains(o.Reason, tc.reason) {
				t.Errorf("outcome %+v, want %s clamped_to %d reason %q", o, tc.access, tc.clampedTo, tc.reason)
			}
			want := tc.out
			if robustDriver && tc.robustDriver != nil {
				want = tc.robustDriver
			}
			if tc.onError == "execute" && !driverIsLavapipe(t) {
				// What an access made as written yields is the device's
				// (undefined): the cases' values are lavapipe's.
				want = nil
			}
			requireLines(t, out, want)
		})
	}
}

// TestRobustOnly: --robust clamps as --on-error clamp does (the same
// values in the app's buffers, skipped where a clamp has no meaning) and
// reports nothing: no error group, exit 4 with the robust cause, 0 with
// --allow-unchecked.
func TestRobustOnly(t *testing.T) {
	for _, tc := range onErrorCases {
		if tc.onError != "clamp" {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			if tc.app == rqApp && !driverHas(t, "rayQuery") {
				t.Skip("the device has no rayQuery (vulkaninfo)")
			}
			if tc.app == meshApp && !driverHas(t, "meshShader") {
				t.Skip("the device has no meshShader (vulkaninfo)")
			}
			if tc.app == traceApp {
				requireTraceRay(t)
			}
			var r onErrorReport
			code, out := tc.app.runInto(t, &r, nil, append([]string{"--robust"}, tc.flags...), tc.args...)
			if code != 4 || len(r.Errors) != 0 || r.Settings.OnError != "clamp" || !r.Settings.Robust {
				t.Fatalf("exit %d, %d groups, settings %+v; want 4, none, clamp and robust\n%s", code, len(r.Errors), r.Settings, out)
			}
			if len(r.Unchecked) != 1 || r.Unchecked[0].Kind != "robust" {
				t.Errorf("unchecked %+v, want the robust cause alone", r.Unchecked)
			}
			requireLines(t, out, tc.out)
			code, _ = tc.app.runInto(t, &r, nil, append([]string{"--robust", "--allow-unchecked"}, tc.flags...), tc.args...)
			if code != 0 {
				t.Errorf("--allow-unchecked: exit %d, want 0", code)
			}
		})
	}
}

// requireLines fails the test unless out has each of the lines whole.
func requireLines(t *testing.T, out string, lines []string) {
	t.Helper()
	for _, l := range lines {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(l) + `$`).MatchString(out) {
			t.Errorf("the app did not print %q:\n%s", l, out)
		}
	}
}

// driverIsLavapipe says whether the Vulkan device is Mesa's lavapipe
// (llvmpipe), which bounds-checks buffer and texel accesses itself.
func driverIsLavapipe(t *testing.T) bool {
	t.Helper()
	out, err := vulkaninfo()
	if err != nil {
		t.Fatal(err)
	}
	return regexp.MustCompile(`(?m)^\s*deviceName\s*=\s*llvmpipe`).MatchString(out)
}

// driverBoundsBuffers reports whether the device bounds uniform and
// storage buffer accesses by itself, so that an access past its range
// that the layer lets execute reads or writes inside the range (or
// nothing): lavapipe, and NVIDIA (measured on an H100, driver 580: the
// execute cases read and wrote what lavapipe does).
func driverBoundsBuffers(t *testing.T) bool {
	t.Helper()
	out, err := vulkaninfo()
	if err != nil {
		t.Fatal(err)
	}
	return driverIsLavapipe(t) || regexp.MustCompile(`(?m)^\s*vendorID\s*=\s*0x10de\b`).MatchString(out)
}

// TestTUIRerunOnError: the settings pane shows what a failed access does
// with its three values; picking clamp and re-running (r) gives a run
// whose header says so, whose record says it clamped, and whose app read
// the clamped element (descapp small_oob: value=102, where the first run's
// skipped access gave value=1).
func TestTUIRerunOnError(t *testing.T) {
	dir := descApp.dir(t)
	tm := startTmux(t, 120, 40, nil, "run", "--theme", "dark", "--session", filepath.Join(t.TempDir(), "s.gvs"), "--",
		filepath.Join(dir, "descapp"), "--shaders", dir, "--case", "small_oob")
	tm.waitFor("descriptor_index_oob")
	tm.waitFor("exited 0")
	tm.keys("o")
	tm.waitFor("value=1")
	tm.escape()
	tm.keys("s")
	s := tm.waitFor("Settings for the next run")
	if !strings.Contains(s, "on_error") || !strings.Contains(s, "[skip] clamp  execute") {
		t.Fatalf("the settings pane lacks on_error's three values:\n%s", s)
	}
	tm.keys("G", "k", "k", "k", "Space") // stop_on_error is the last row, printf, robust and on_error above it
	tm.waitFor(" skip [clamp] execute")
	tm.keys("r")
	tm.waitFor("run 2/2")
	tm.waitFor("on error: clamp")
	tm.waitFor("exited 0")
	tm.keys("o")
	tm.waitFor("value=102")
	tm.escape()
	tm.keys("Enter")
	tm.waitFor("clamped to index 1")
	tm.keys("q")
}
