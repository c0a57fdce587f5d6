package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// install runs `make install PREFIX=prefix` in the repository and returns
// the prefix.
func install(t *testing.T) string {
	t.Helper()
	if os.Getenv(envPrebuilt) != "" {
		t.Skip("no make on this machine (prebuilt run)")
	}
	prefix := filepath.Join(t.TempDir(), "usr")
	cmd := exec.Command("make", "-s", "install", "PREFIX="+prefix)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make install: %v\n%s", err, out)
	}
	return prefix
}

// TestInstalledLayer: after make install, the installed gpuav-dbg finds
// the installed layer (doctor says where), and runs the demo with it.
func TestInstalledLayer(t *testing.T) {
	prefix := install(t)
	for _, f := range []string{"bin/gpuav-dbg", "lib/libVkLayer_gpuav_dbg.so", "share/vulkan/explicit_layer.d/VkLayer_gpuav_dbg.json"} {
		if _, err := os.Stat(filepath.Join(prefix, f)); err != nil {
			t.Fatalf("make install: %v", err)
		}
	}
	env := append(os.Environ(), "GPUAV_DBG_LAYER_PATH=")
	cmd := exec.Command(filepath.Join(prefix, "bin", "gpuav-dbg"), "doctor", "--json")
	cmd.Env = env
	out, _ := cmd.Output()
	var doc struct {
		Layer struct {
			Found    bool   `json:"found"`
			Manifest string `json:"manifest"`
			How      string `json:"how"`
		} `json:"layer"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, out)
	}
	if !doc.Layer.Found || doc.Layer.How != "installed with gpuav-dbg" {
		t.Fatalf("doctor: layer %+v", doc.Layer)
	}
	reportPath := filepath.Join(t.TempDir(), "r.json")
	cmd = exec.Command(filepath.Join(prefix, "bin", "gpuav-dbg"), "run", "--headless", "--json", reportPath,
		"--session", filepath.Join(t.TempDir(), "s.gvs"), "--", bin("demo"))
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("installed run: %v, want exit 1\n%s", err, out)
	}
	var r report
	data, _ := os.ReadFile(reportPath)
	if err := json.Unmarshal(data, &r); err != nil || len(r.Errors) != 2 {
		t.Fatalf("installed run: %v, %d groups\n%s", err, len(r.Errors), data)
	}
}

// TestLayerOnItsOwn: the installed layer, enabled through the loader's
// variables alone (no launcher), gives the demo's debug-utils messenger
// (which prints to stderr) each error with the source location and line
// and the invocations, as the Khronos layer does.
func TestLayerOnItsOwn(t *testing.T) {
	prefix := install(t)
	cmd := exec.Command(bin("demo"))
	cmd.Env = append(os.Environ(), "VK_ADD_LAYER_PATH="+filepath.Join(prefix, "share", "vulkan", "explicit_layer.d"),
		"VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation", "VK_LAYER_GPUAV_DBG_SOCKET=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("demo under the layer alone: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{
		"Validation Error: [ VUID-vkCmdDispatch-None-10068 ] Object 0: handle = 0x",
		"| descriptor_index_oob: (set = 0, binding = 0) Index of 3 used to index descriptor array of length 2. " +
			"The access was skipped (a load read zero, a store or atomic did nothing). VUID-vkCmdDispatch-None-10068. Command buffer 0x",
		"; 4 invocations. Samples: (0,0,0) (1,0,0) (2,0,0) (3,0,0). oob_compute.comp:9:\n    outs[pc.idx].v[i] = i * 3u;\n",
		"Stage compute, global_invocation_id (",
		"; 64 invocations.",
		"oob_fragment.frag:9:\n",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}
