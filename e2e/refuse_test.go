package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/cbuild"
)

// The tests of this file hold the layer to "a pipeline the driver refuses
// with the layer's code never fails the app's call" with
// testdata/refuse: refuseapp, and refuselayer, a test layer below ours
// that refuses (VK_ERROR_UNKNOWN) a pipeline whose stages carry the
// layer's instrumentation, as a driver's compiler may.

// refuseBuild is the built refuseapp, its shaders and the test layer with
// its manifest, once per test binary.
var refuseBuild = sync.OnceValues(func() (string, error) {
	if p := os.Getenv(envPrebuilt); p != "" {
		return filepath.Join(p, "refuseapp"), nil
	}
	dir, err := os.MkdirTemp("", "gpuav-refuseapp")
	if err != nil {
		return "", err
	}
	return dir, buildRefuseApp(dir)
})

// refuseLayer is the test layer that refuses the layer's code
// (testdata/refuse/refuselayer.c).
const refuseLayer = "VK_LAYER_GPUAVDBG_test_refuse"

// buildRefuseApp builds refuseapp, its shaders and the test layer into dir.
func buildRefuseApp(dir string) error {
	src := filepath.Join(root, "e2e", "testdata", "refuse")
	for _, s := range []string{"refuse_a.comp", "refuse_b.comp", "refuse_a.frag", "refuse_point.vert"} {
		cmd := exec.Command("glslangValidator", "-g", "--target-env", "vulkan1.2", "-o", filepath.Join(dir, s+".spv"), s)
		cmd.Dir = src
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("glslangValidator %s: %w\n%s", s, err, out)
		}
	}
	if err := cbuild.App(filepath.Join(dir, "refuseapp"), filepath.Join(src, "refuseapp.c")); err != nil {
		return err
	}
	args := append(append([]string{}, cbuild.Flags...), "-shared", "-fPIC", "-fvisibility=hidden", "-o",
		filepath.Join(dir, "libVkLayer_gpuavdbg_test_refuse.so"), filepath.Join(src, "refuselayer.c"))
	if out, err := exec.Command("cc", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("build refuselayer.c: %w\n%s", err, out)
	}
	return os.WriteFile(filepath.Join(dir, "VkLayer_gpuavdbg_test_refuse.json"), []byte(`{"file_format_version": "1.1.0",
 "layer": {"name": "`+refuseLayer+`", "type": "GLOBAL", "library_path": "./libVkLayer_gpuavdbg_test_refuse.so",
 "api_version": "1.4.0", "implementation_version": "1", "description": "gpuav-dbg test: a driver that refuses the layer's code"}}
`), 0o644)
}

// refuseApp returns the app's path and its directory (the --dir argument).
func refuseApp(t *testing.T) (app, dir string) {
	t.Helper()
	dir, err := refuseBuild()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "refuseapp"), dir
}

// refusedReason is the unchecked cause of refuse_a's pipeline of stage
// refused with VK_ERROR_UNKNOWN.
func refusedReason(stage string) string {
	return "the driver refused it with the layer's checks in its " + stage + " stage (checks buffer_oob, " +
		"descriptor_destroyed, descriptor_index_oob, descriptor_uninitialized): VK_ERROR_UNKNOWN; it was created " +
		"from the app's original shaders"
}

// refusedObjectReason is the unchecked cause of refuse_a's shader object
// refused with VK_ERROR_UNKNOWN.
const refusedObjectReason = "the driver refused its instrumented code: VK_ERROR_UNKNOWN; it runs the app's original code, unchecked"

var refusedLine = regexp.MustCompile(`(?m)^refuselayer: refused (pipeline|shader) \d+$`)

// appLines are the lines refuseapp prints (create=, a=, b=, f=), and
// traceapp (payload=).
var appLines = regexp.MustCompile(`(?m)^(create|[abf]|payload)=.*$`)

// exactly matches s and nothing else.
func exactly(s string) *regexp.Regexp { return regexp.MustCompile(`^` + regexp.QuoteMeta(s) + `$`) }

// TestDriverRefusesInstrumentedPipeline: the driver (refuselayer) refuses
// refuse_a's compute (or graphics: its fragment stage) pipeline with the
// layer's code. The app's call succeeds all the same: the layer made the
// pipeline again from the app's original modules, and only that one: in a
// batch the other pipeline is kept as made (batch), or, when the refused
// create info asked to stop at its failure
// (VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT), made after it (early).
// The compute and graphics pipelines are made with their fast variants,
// which are dropped; shader objects are retried the same way
// (shaderobj), and ray-tracing pipelines (traceapp's, ray_tracing). A
// precise variant the driver refuses when an action first needs it is
// dropped and the fast pipeline kept (precise). The app
// prints exactly what it prints without gpuav-dbg, the refused pipeline
// is said unchecked in a notice naming it (the debug name the app gave it
// after the call) and in one unchecked entry, and the run exits 4; the
// driver refused exactly once. (Before, the app's call returned
// VK_ERROR_UNKNOWN.)
func TestDriverRefusesInstrumentedPipeline(t *testing.T) {
	app, dir := refuseApp(t)
	pipelineNotice := func(reason string) *regexp.Regexp {
		return regexp.MustCompile(`^pipeline 0x[0-9a-f]+ \("refuse-a"\) runs its original, unchecked shaders: ` +
			regexp.QuoteMeta(reason) + `$`)
	}
	traceReason := "the driver refused it with the layer's checks in its closest_hit, miss, raygen stages (checks " +
		"buffer_oob, descriptor_destroyed, descriptor_index_oob, descriptor_uninitialized, trace_ray): " +
		"VK_ERROR_UNKNOWN; it was created from the app's original shaders"
	computeReason, fragmentReason := refusedReason("compute"), refusedReason("fragment")
	preciseReason := regexp.MustCompile(`^compute pipeline 0x[0-9a-f]+: creating its precise variant failed ` +
		`\(VkResult -13\): the bounded accesses of its actions whose facts fail run unchecked$`)
	for _, c := range []struct {
		kase, kind     string
		trace          bool     // traceapp (with trace.rgen refused), not refuseapp
		env            []string // more of the test layer's environment
		reason, notice *regexp.Regexp
		out            []string // nil: whatever the app prints without gpuav-dbg
	}{
		{"single", "pipeline", false, nil, exactly(computeReason), pipelineNotice(computeReason),
			[]string{"create=0", "a=101,102,103,104"}},
		{"batch", "pipeline", false, nil, exactly(computeReason), pipelineNotice(computeReason),
			[]string{"create=0", "a=101,102,103,104", "b=200,202,204,206"}},
		{"early", "pipeline", false, nil, exactly(computeReason), pipelineNotice(computeReason),
			[]string{"create=0", "a=101,102,103,104", "b=200,202,204,206"}},
		{"graphics", "pipeline", false, nil, exactly(fragmentReason), pipelineNotice(fragmentReason),
			[]string{"create=0", "f=101"}},
		// Two shader objects in one call: refuse_a's refused, refuse_b's
		// kept as made (and checked).
		{"shaderobj", "shader", false, nil, exactly(refusedObjectReason),
			regexp.MustCompile(`^shader \d+ \(shader object 0x[0-9a-f]+\) is not checked: ` +
				regexp.QuoteMeta(refusedObjectReason) + `$`),
			[]string{"create=0", "a=101,102,103,104", "b=200,202,204,206"}},
		// The fast variant passes; the precise one, wanted at the
		// dispatch (data[1] bound 8 bytes), is refused: the reads past
		// the range run unchecked, as the app's own code.
		{"precise", "command", false, []string{"GPUAVDBG_TEST_REFUSE_AFTER=1"}, preciseReason, preciseReason, nil},
		// The raygen, miss and closest-hit stages carry checks; the
		// module of trace.rgen is refused.
		{"ray_tracing", "pipeline", true, []string{"GPUAVDBG_TEST_REFUSE_FILE=trace.rgen"}, exactly(traceReason),
			regexp.MustCompile(`^pipeline 0x[0-9a-f]+ \("trace-pipeline"\) runs its original, unchecked shaders: ` +
				regexp.QuoteMeta(traceReason) + `$`),
			[]string{"payload=1 1 1 1"}},
	} {
		t.Run(c.kase, func(t *testing.T) {
			layerEnv := append([]string{"VK_ADD_LAYER_PATH=" + dir, "GPUAVDBG_TEST_REFUSE_FILE=refuse_a."}, c.env...)
			app, args := app, []string{"--dir", dir, "--case", c.kase}
			if c.trace {
				requireTraceRay(t)
				d := traceApp.dir(t)
				app, args = filepath.Join(d, "traceapp"), []string{"--shaders", d}
			}
			// The test layer alone takes the app's own code.
			plain := exec.Command(app, args...)
			plain.Env = append(append(os.Environ(), layerEnv...), "VK_INSTANCE_LAYERS="+refuseLayer)
			pout, err := plain.CombinedOutput()
			if err != nil || refusedLine.Match(pout) {
				t.Fatalf("without gpuav-dbg: %v\n%s", err, pout)
			}
			own := appLines.FindAllString(string(pout), -1)
			if c.out != nil && !slices.Equal(own, c.out) {
				t.Fatalf("without gpuav-dbg the app printed %q, want %q", own, c.out)
			}
			var r struct {
				trustReport
				Unchecked []struct {
					Kind   string `json:"kind"`
					Reason string `json:"reason"`
					Count  int    `json:"count"`
				} `json:"unchecked"`
			}
			env := append(layerEnv, "VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation:"+refuseLayer)
			code, out := runLauncher(t, &r, env, nil, app, args...)
			if got := appLines.FindAllString(out, -1); !slices.Equal(got, own) {
				t.Errorf("the app printed %q, want %q as without gpuav-dbg\n%s", got, own, out)
			}
			if got := refusedLine.FindAllString(out, -1); len(got) != 1 {
				t.Errorf("the driver refused %d times, want once\n%s", len(got), out)
			}
			// One pipeline (or shader) unchecked: in a batch, the other
			// one runs its instrumented code.
			if code != 4 || len(r.Errors) != 0 || len(r.Unchecked) != 1 || r.Unchecked[0].Kind != c.kind ||
				!c.reason.MatchString(r.Unchecked[0].Reason) || r.Unchecked[0].Count != 1 {
				t.Fatalf("exit %d, %d groups, unchecked %+v; want exit 4, none, and one of kind %s matching %s, count 1\n%s",
					code, len(r.Errors), r.Unchecked, c.kind, c.reason, out)
			}
			var notices []string
			for _, n := range r.Notices {
				if c.notice.MatchString(n.Text) {
					notices = append(notices, n.Text)
				}
			}
			if len(notices) != 1 {
				var all []string
				for _, n := range r.Notices {
					all = append(all, n.Text)
				}
				t.Errorf("notices matching %s: %q; want one\n%s", c.notice, notices, strings.Join(all, "\n"))
			}
		})
	}
}
