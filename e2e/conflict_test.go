package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLayoutConflictIsLoud: a pipeline layout that uses every descriptor
// set the app sees (vkapp --conflict: 8 on lavapipe, the layer's set is
// the 8th) leaves its pipeline unchecked, and the run says so at error
// level, naming the layout and what to do (reserve-slot), and exits 4 (not
// everything was checked): an out-of-bounds index there is not reported.
// It used to be a warning and exit 0, so CI passed with the pipeline
// unchecked.
func TestLayoutConflictIsLoud(t *testing.T) {
	spv := filepath.Join(t.TempDir(), "oob_compute.spv")
	cmd := exec.Command("glslangValidator", "-g", "--target-env", "vulkan1.1", "-o", spv, "oob_compute.comp")
	cmd.Dir = filepath.Join(root, "examples", "demo", "shaders")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("compile shader: %v\n%s", err, out)
	}
	var r checkReport
	code, out := runLauncher(t, &r, nil, nil, vkapp(t), "--shader", spv, "--conflict", "--index", "3")
	if code != 4 || len(r.Errors) != 0 {
		t.Errorf("exit %d with %d error groups, want 4 (not everything was checked) and none\n%s", code, len(r.Errors), out)
	}
	loud := false
	for _, n := range r.Notices {
		loud = loud || (n.Level == "error" && strings.Contains(n.Text, "descriptor sets, including set") &&
			strings.Contains(n.Text, "run uninstrumented shaders") && strings.Contains(n.Text, "RESERVE_SLOT=1"))
	}
	if !loud {
		t.Errorf("no error-level notice names the layout that leaves its pipeline unchecked (exit %d): %+v", code, r.Notices)
	}
}
