package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// The tests of this file cover the queue and the
// primary in the report, pipeline caches, inline (maintenance5) shader
// code, and allocation failure. They run testdata/multi.c (see its
// header for the modes).

// reportOf builds the session of a run as the launcher would (the
// messages through a collector that writes a session file), reopens the
// file (errors packed) and returns its headless JSON report.
func reportOf(t *testing.T, r result) []byte {
	t.Helper()
	c := session.NewCollector()
	var file bytes.Buffer
	file.WriteString(session.FileHeader)
	c.SetFile(&file)
	for _, m := range r.msgs {
		k, ok := wire.KindOf(m)
		if !ok {
			t.Fatalf("no kind for %T", m)
		}
		if err := c.Record(k, m); err != nil {
			t.Fatal(err)
		}
	}
	s, err := session.Parse(file.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := session.WriteReport(&out, s); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestSecondaryReport: the JSON report of a secondary's error, from a
// reopened session file, names the secondary, its queue and the primary
// that ran it after 1 of its actions.
func TestSecondaryReport(t *testing.T) {
	r := runMulti(t, true, nil, "secondary")
	n := names(r)
	var doc struct {
		Errors []struct {
			Check         string          `json:"check"`
			Count         int             `json:"count"`
			ActionIndex   uint32          `json:"action_index"`
			CommandBuffer session.Handle  `json:"command_buffer"`
			Queue         session.Handle  `json:"queue"`
			Primary       session.Handle  `json:"primary_command_buffer"`
			PrimaryAction json.RawMessage `json:"primary_action_index"`
			Descriptor    *session.Descriptor
		} `json:"errors"`
	}
	report := reportOf(t, r)
	if err := json.Unmarshal(report, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Errors) != 1 {
		t.Fatalf("%d errors, want 1:\n%s", len(doc.Errors), report)
	}
	e := doc.Errors[0]
	hex := func(h uint64) string { return fmt.Sprintf("0x%x", h) }
	serials := map[string]uint64{} // the command buffers' serials, from their names
	for _, m := range all[wire.Name](r) {
		serials[m.Name] = m.Serial
	}
	want := []struct {
		what      string
		got, want any
	}{
		{"check", e.Check, gpuav.CheckDescriptorIndexOOB},
		{"count", e.Count, 4},
		{"action_index", e.ActionIndex, uint32(0)},
		{"command_buffer", e.CommandBuffer, session.Handle{Handle: hex(n["cmd-secondary"]), Name: "cmd-secondary",
			Serial: serials["cmd-secondary"]}},
		{"queue", e.Queue, session.Handle{Handle: hex(n["main-queue"]), Name: "main-queue"}},
		{"primary_command_buffer", e.Primary, session.Handle{Handle: hex(n["cmd-0"]), Name: "cmd-0", Serial: serials["cmd-0"]}},
		{"primary_action_index", string(e.PrimaryAction), "1"},
	}
	for _, w := range want {
		if w.got != w.want {
			t.Errorf("%s = %v, want %v", w.what, w.got, w.want)
		}
	}
	if n["cmd-0"] == 0 || n["main-queue"] == 0 {
		t.Errorf("names missing: %v", n)
	}
}

// runPlain runs multi without the layer.
func runPlain(t *testing.T, args ...string) string {
	t.Helper()
	setupMulti(t)
	cmd := exec.Command(multiFix.app, append([]string{"--comp", multiFix.comp}, args...)...)
	cmd.Env = append(cleanEnv(), "XDG_RUNTIME_DIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "multi: done") {
		t.Fatalf("multi %v without the layer: %v\n%s", args, err, out)
	}
	return string(out)
}

// cacheSizes reads mode cache's line.
func cacheSizes(t *testing.T, out string) (empty, cache, merged int) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if _, err := fmt.Sscanf(l, "cache_empty_bytes=%d cache_bytes=%d merged_bytes=%d", &empty, &cache, &merged); err == nil {
			return
		}
	}
	t.Fatalf("no cache sizes in:\n%s", out)
	return
}

// TestPipelineCache: a pipeline the layer instruments goes into the
// layer's shadow cache, never the app's: the app's cache (and a cache
// merged from it) keeps only what it had, its data feeds a run without the
// layer, and a run with the layer fed the data of a run without it is
// still instrumented. On lavapipe, whose caches hold no pipelines (32
// bytes with or without the layer), the shadow's use is seen through the
// layer's log line; on a driver that caches (NVIDIA's: docs/HARDWARE.md)
// the sizes compare too.
func TestPipelineCache(t *testing.T) {
	dir := t.TempDir()
	plainOut := filepath.Join(dir, "plain.bin")
	layerOut := filepath.Join(dir, "layer.bin")
	pe, pc, pm := cacheSizes(t, runPlain(t, "--mode", "cache", "--cache-out", plainOut))
	if pc < pe || pm < pe {
		t.Fatalf("without the layer: empty %d, cache %d, merged %d", pe, pc, pm)
	}
	t.Logf("without the layer: empty cache %d bytes, with the pipeline %d, merged %d", pe, pc, pm)

	for _, in := range []string{"", plainOut} {
		args := []string{"--cache-out", layerOut}
		if in != "" {
			args = append(args, "--cache-in", in)
		}
		r := runMulti(t, true, nil, "cache", args...)
		e, c, m := cacheSizes(t, r.stdout)
		// The app's cache keeps only what it had: nothing, or the data of
		// the run without the layer (its own uninstrumented pipeline).
		want := pe
		if in != "" {
			want = pc
		}
		if c != want || m != want || e != pe {
			t.Errorf("with the layer (cache-in %q): empty %d, cache %d, merged %d; want empty %d, cache and merged %d "+
				"(the app's cache holds no instrumented pipeline)", in, e, c, m, pe, want)
		}
		checkDispatch(t, one[wire.Errors](t, r), names(r), "cmd-0", 1, 0, 6, 1)
		found := false
		for _, l := range all[wire.Log](r) {
			if l.Level == "info" && strings.Contains(l.Text, ": 1 pipeline creations with instrumented shaders used the layer's shadow cache") {
				found = true
			}
		}
		if !found {
			t.Errorf("no shadow cache log line: %s", dump(r.msgs))
		}
		// The app's data, saved under the layer, feeds a run without it.
		data, err := os.ReadFile(layerOut)
		if err != nil || len(data) != c {
			t.Fatalf("cache data: %d bytes, %v; want %d", len(data), err, c)
		}
		runPlain(t, "--mode", "cache", "--cache-in", layerOut)
	}
}

// TestPipelineCacheKept: the app's cache data read under the layer has the
// layer's shadow cache and instrumentation results kept beside it (a file
// named by the data's digest in VK_LAYER_GPUAV_DBG_CACHE_DIR); a second
// run whose cache is made from that data starts its shadow with them, and
// its module, instrumented from the kept result, reports the exact error.
// The app's data is the same as without the layer. With the directory
// "off", nothing is kept.
func TestPipelineCacheKept(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "kept")
	first, second := filepath.Join(dir, "first.bin"), filepath.Join(dir, "second.bin")
	env := []string{options.CacheDir.Env + "=" + keep}
	r := runMulti(t, true, env, "cache", "--cache-out", first)
	_, c, _ := cacheSizes(t, r.stdout)
	files, _ := filepath.Glob(filepath.Join(keep, "*.shadow"))
	if len(files) != 1 {
		t.Fatalf("%d files kept in %s, want 1", len(files), keep)
	}
	r = runMulti(t, true, env, "cache", "--cache-in", first, "--cache-out", second)
	checkDispatch(t, one[wire.Errors](t, r), names(r), "cmd-0", 1, 0, 6, 1)
	found := false
	for _, l := range all[wire.Log](r) {
		if l.Level == "info" && strings.Contains(l.Text, "pipeline cache: the layer's shadow cache starts with ") &&
			strings.Contains(l.Text, " instrumented modules kept from an earlier run") &&
			!strings.Contains(l.Text, " and 0 instrumented modules") {
			found = true
		}
	}
	if !found {
		t.Errorf("no kept shadow cache log line: %s", dump(r.msgs))
	}
	if _, c2, _ := cacheSizes(t, r.stdout); c2 != c {
		t.Errorf("the app's cache: %d bytes in the second run, %d in the first", c2, c)
	}
	off := filepath.Join(dir, "off")
	runMulti(t, true, []string{options.CacheDir.Env + "=off", "XDG_CACHE_HOME=" + off}, "cache", "--cache-out", first)
	if files, _ := filepath.Glob(filepath.Join(off, "*", "*.shadow")); len(files) != 0 {
		t.Errorf("cache directory off: %v kept", files)
	}
}

// TestInlineShaderModule: a compute stage given inline (maintenance5: no
// module, a VkShaderModuleCreateInfo after a VkDebugUtilsObjectNameInfoEXT
// in the stage's pNext) is instrumented: the OOB index 6 is reported,
// under a module the layer made for it and named after the stage's name.
func TestInlineShaderModule(t *testing.T) {
	r := runMulti(t, true, nil, "inline")
	n := names(r)
	e := one[wire.Errors](t, r)
	checkDispatch(t, e, n, "cmd-0", 1, 0, 6, 1)
	var pipe *wire.Pipeline
	for _, p := range all[wire.Pipeline](r) {
		if p.Handle == n["oob-compute"] {
			pipe = p
		}
	}
	if pipe == nil || len(pipe.Stages) != 1 || !pipe.Instrumented {
		t.Fatalf("pipeline oob-compute: %+v", pipe)
	}
	st := pipe.Stages[0]
	if st.Module == 0 || st.Module != n["inline-comp"] || st.ShaderID == 0 || st.ShaderID != e.Records[0].ShaderID ||
		st.Stage != "compute" || st.Entry != "main" {
		t.Errorf("stage %+v; want the module named inline-comp (%#x), shader %d", st, n["inline-comp"], e.Records[0].ShaderID)
	}
	for _, s := range all[wire.Shader](r) {
		if s.ID == st.ShaderID && (!s.Instrumented || s.Module != st.Module || len(s.SPIRV) == 0) {
			t.Errorf("shader %d: instrumented %v module %#x, %d bytes", s.ID, s.Instrumented, s.Module, len(s.SPIRV))
		}
	}
}

// TestAllocationFailure: a failed allocation of the layer's buffers turns
// instrumentation off with a message; the app runs to completion.
func TestAllocationFailure(t *testing.T) {
	t.Run("output buffer", func(t *testing.T) {
		// Layer buffer allocations: 1 the action buffer, 2 the sink, 3
		// cmd-0's output buffer, 4 cmd-1's: fails. cmd-1 and cmd-2 record
		// into the sink; only cmd-0 (idx 2) reports.
		r := runMulti(t, true, []string{"VK_LAYER_GPUAV_DBG_TEST_FAIL_ALLOC=4"}, "multi-cb")
		n := names(r)
		checkDispatch(t, one[wire.Errors](t, r), n, "cmd-0", 1, 0, 2, 1)
		found := 0
		for _, l := range all[wire.Log](r) {
			if l.Level == "error" && strings.HasPrefix(l.Text, "instrumentation is off: cannot allocate an output buffer") &&
				strings.Contains(l.Text, "VK_LAYER_GPUAV_DBG_TEST_FAIL_ALLOC") {
				found++
			}
		}
		if found != 1 {
			t.Errorf("%d allocation failure messages, want 1: %s", found, dump(r.msgs))
		}
	})
	t.Run("device set-up", func(t *testing.T) {
		r := runMulti(t, true, []string{"VK_LAYER_GPUAV_DBG_TEST_FAIL_ALLOC=1"}, "multi-cb")
		d := one[wire.Device](t, r)
		if d.Instrumenting || !strings.Contains(d.Reason, "action buffer: vkAllocateMemory (made to fail by VK_LAYER_GPUAV_DBG_TEST_FAIL_ALLOC)") {
			t.Errorf("device: instrumenting %v, reason %q", d.Instrumenting, d.Reason)
		}
		if errs := all[wire.Errors](r); len(errs) != 0 {
			t.Errorf("%d Errors messages from an uninstrumented device", len(errs))
		}
	})
}
