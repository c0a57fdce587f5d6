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
const refusedObjectReason = "the driver refused its instrumented code (VkResult -13); it runs the app's original code, unchecked"

var refusedLine = regexp.MustCompile(`(?m)^refuselayer: refused (pipeline|shader) \d+$`)

// TestDriverRefusesInstrumentedPipeline: the driver (refuselayer) refuses
// refuse_a's compute (or graphics: its fragment stage) pipeline with the
// layer's code. The app's call succeeds all the same: the layer made the
// pipeline again from the app's original modules, and only that one: in a
// batch the other pipeline is kept as made (batch), or, when the refused
// create info asked to stop at its failure
// (VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT), made after it (early).
// The compute and graphics pipelines are made with their fast variants,
// which are dropped. The app's results are its own, the refused pipeline
// is said unchecked in a notice naming it (the debug name the app gave it
// after the call) and in one unchecked entry, and the run exits 4; the
// driver refused exactly once. (Before, the app's call returned
// VK_ERROR_UNKNOWN.)
func TestDriverRefusesInstrumentedPipeline(t *testing.T) {
	app, dir := refuseApp(t)
	env := []string{"VK_ADD_LAYER_PATH=" + dir, "VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation:" + refuseLayer,
		"GPUAVDBG_TEST_REFUSE_FILE=refuse_a."}
	pipelineNotice := func(reason string) *regexp.Regexp {
		return regexp.MustCompile(`^pipeline 0x[0-9a-f]+ \("refuse-a"\) runs its original, unchecked shaders: ` +
			regexp.QuoteMeta(reason) + `$`)
	}
	for _, c := range []struct {
		kase, kind, reason string
		notice             *regexp.Regexp
		out                []string
	}{
		{"single", "pipeline", refusedReason("compute"), pipelineNotice(refusedReason("compute")),
			[]string{"create=0", "a=101,102,103,104"}},
		{"batch", "pipeline", refusedReason("compute"), pipelineNotice(refusedReason("compute")),
			[]string{"create=0", "a=101,102,103,104", "b=200,202,204,206"}},
		{"early", "pipeline", refusedReason("compute"), pipelineNotice(refusedReason("compute")),
			[]string{"create=0", "a=101,102,103,104", "b=200,202,204,206"}},
		{"graphics", "pipeline", refusedReason("fragment"), pipelineNotice(refusedReason("fragment")),
			[]string{"create=0", "f=101"}},
		// Two shader objects in one call: refuse_a's refused, refuse_b's
		// kept as made (and checked).
		{"shaderobj", "shader", refusedObjectReason,
			regexp.MustCompile(`^shader \d+ \(shader object 0x[0-9a-f]+\) is not checked: ` +
				regexp.QuoteMeta(refusedObjectReason) + `$`),
			[]string{"create=0", "a=101,102,103,104", "b=200,202,204,206"}},
	} {
		t.Run(c.kase, func(t *testing.T) {
			reason, notice := c.reason, c.notice
			// The test layer alone takes the app's own code.
			plain := exec.Command(app, "--dir", dir, "--case", c.kase)
			plain.Env = append(os.Environ(), "VK_ADD_LAYER_PATH="+dir, "VK_INSTANCE_LAYERS="+refuseLayer,
				"GPUAVDBG_TEST_REFUSE_FILE=refuse_a.")
			if pout, err := plain.CombinedOutput(); err != nil || refusedLine.Match(pout) {
				t.Fatalf("without gpuav-dbg: %v\n%s", err, pout)
			}
			var r trustReport
			code, out := runLauncher(t, &r, env, nil, app, "--dir", dir, "--case", c.kase)
			requireLines(t, out, c.out)
			if got := refusedLine.FindAllString(out, -1); len(got) != 1 {
				t.Errorf("the driver refused %d pipelines, want 1\n%s", len(got), out)
			}
			type entry struct{ Kind, Reason string }
			var unchecked []entry
			for _, u := range r.Unchecked {
				unchecked = append(unchecked, entry{u.Kind, u.Reason})
			}
			if want := []entry{{c.kind, reason}}; code != 4 || len(r.Errors) != 0 || !slices.Equal(unchecked, want) {
				t.Fatalf("exit %d, %d groups, unchecked %q; want exit 4, none, and %q\n%s", code, len(r.Errors), unchecked, want, out)
			}
			var notices []string
			for _, n := range r.Notices {
				if notice.MatchString(n.Text) {
					notices = append(notices, n.Text)
				}
			}
			if len(notices) != 1 {
				var all []string
				for _, n := range r.Notices {
					all = append(all, n.Text)
				}
				t.Errorf("notices matching %s: %q; want one\n%s", notice, notices, strings.Join(all, "\n"))
			}
		})
	}
}
