package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session"
)

// TestEndToEndDemo runs the real layer and the demo app: it needs `make`
// to have built bin/libVkLayer_gpuav_dbg.so, bin/VkLayer_gpuav_dbg.json and
// bin/demo, and a Vulkan driver (lavapipe). gpuav-dbg itself is built from
// the sources under test. GPUAV_DBG_LAYER_PATH points at another layer
// directory.
func TestEndToEndDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	layerDir := os.Getenv(EnvLayerPath)
	if layerDir == "" {
		layerDir = filepath.Join(root, "bin")
	}
	demo := filepath.Join(root, "bin", "demo")
	for _, p := range []string{filepath.Join(layerDir, "libVkLayer_gpuav_dbg.so"), filepath.Join(layerDir, ManifestName), demo} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("end-to-end test needs %s: run make first (%v)", p, err)
		}
	}
	tmp := t.TempDir()
	exe := filepath.Join(tmp, "gpuav-dbg")
	build := exec.Command("go", "build", "-o", exe, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var runAny func(t *testing.T, want []int, args ...string) (stdout, stderr string)
	rt := filepath.Join(tmp, "rt")
	if err := os.Mkdir(rt, 0o700); err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, want int, args ...string) (stdout, stderr string) {
		t.Helper()
		return runAny(t, []int{want}, args...)
	}
	runAny = func(t *testing.T, want []int, args ...string) (stdout, stderr string) {
		t.Helper()
		cmd := exec.Command(exe, args...)
		cmd.Env = append(os.Environ(), EnvLayerPath+"="+layerDir, "XDG_RUNTIME_DIR="+rt, "XDG_STATE_HOME="+filepath.Join(tmp, "state"))
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(want, code) {
			t.Fatalf("gpuav-dbg %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, o.String(), e.String())
		}
		return o.String(), e.String()
	}

	t.Run("demo", func(t *testing.T) {
		out := filepath.Join(tmp, "demo.json")
		gvs := filepath.Join(tmp, "demo.gvs")
		_, stderr := run(t, exitErrors, "run", "--headless", "--json", out, "--session", gvs, demo)
		if strings.Contains(stderr, "not loaded") {
			t.Fatalf("the layer did not load:\n%s", stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var r session.Session
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		var compute *session.ErrorGroup
		for _, g := range r.Groups {
			if g.Stage == "compute" {
				compute = g
			}
		}
		if compute == nil {
			t.Fatalf("no compute error group:\n%s", data)
		}
		g := compute
		if g.Check != "descriptor_index_oob" || g.Count != 4 || g.Action != "vkCmdDispatch" ||
			g.VUID != "VUID-vkCmdDispatch-None-10068" || g.Descriptor == nil ||
			*g.Descriptor != (session.Descriptor{Set: 0, Binding: 0, Index: 3, ArrayLength: 2}) ||
			g.Source == nil || g.Source.File != "oob_compute.comp" || g.Source.Line != 9 ||
			!strings.Contains(g.Source.Text, "outs[pc.idx]") || g.CommandBuffer.Name != "compute-cmd" ||
			!strings.HasPrefix(g.CommandBuffer.Handle, "0x") {
			t.Fatalf("compute group: %+v\nsource %+v", g, g.Source)
		}
		if !strings.Contains(stderr, "gpuav-dbg: descriptor_index_oob ×4 compute oob_compute.comp:9 (set 0, binding 0) index 3 of array length 2 — vkCmdDispatch #0 cmd 0x") {
			t.Fatalf("stderr lacks the compute line:\n%s", stderr)
		}
		if !r.App.LayerLoaded || r.App.ExitCode != 0 || r.Device.Name == "" {
			t.Fatalf("app %+v device %+v", r.App, r.Device)
		}
		// The session file tells the same story.
		s, err := session.Open(gvs)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := session.WriteReport(&buf, s); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), data) {
			t.Fatalf("the session file's report differs from the run's:\n%s", buf.String())
		}
	})

	t.Run("check off", func(t *testing.T) {
		// Unchecked, the demo's out-of-bounds accesses are undefined
		// behaviour: lavapipe crashes on them, other drivers may not.
		out := filepath.Join(tmp, "off.json")
		runAny(t, []int{exitOK, exitApp}, "run", "--headless", "--json", out, "--session", filepath.Join(tmp, "off.gvs"),
			"--check", "descriptor_index_oob=off", demo)
		data, _ := os.ReadFile(out)
		var r session.Session
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Groups) != 0 || r.Settings.Checks["descriptor_index_oob"] || !r.App.LayerLoaded {
			t.Fatalf("report:\n%s", data)
		}
	})

	t.Run("not vulkan", func(t *testing.T) {
		_, stderr := run(t, exitOK, "run", "--headless", "--session", filepath.Join(tmp, "true.gvs"), "/bin/true")
		if !strings.Contains(stderr, "gpuav-dbg: the layer was not loaded by /bin/true (is it a Vulkan app? run with VK_LOADER_DEBUG=layer to see why)") {
			t.Fatalf("stderr:\n%s", stderr)
		}
	})
}
