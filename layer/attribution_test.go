package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// TestAttributionByIdentity: multi --mode reuse makes, in each round, a
// pipeline "pipe-R" and a command buffer "cmd-R", dispatches idx 2+R,
// waits, then frees the command buffer and destroys the pipeline, until a
// round's pipeline has an earlier round's handle (lavapipe reuses both;
// the test insists on it there). Every error is filed under its own
// round's pipeline and command-buffer names, exactly: in the layer's
// messages (each pipeline's and command buffer's serial, never reused, on
// the records and the names), and in the report of the session built from
// them (errors, timeline, pipelines). Before serials, a name given to a
// reused handle renamed every earlier group of that handle.
func TestAttributionByIdentity(t *testing.T) {
	setupMulti(t)
	// The referee (the Khronos layer below ours) would wrap the driver's
	// handles in ids of its own, never reused: it is told not to.
	settings := filepath.Join(t.TempDir(), "vk_layer_settings.txt")
	if err := os.WriteFile(settings, []byte("khronos_validation.disables = VK_VALIDATION_FEATURE_DISABLE_UNIQUE_HANDLES_EXT\n"),
		0o644); err != nil {
		t.Fatal(err)
	}
	r := runMulti(t, true, []string{"VK_LAYER_SETTINGS_PATH=" + settings}, "reuse", "--reuse-comp", multiFix.reuse)
	rounds := regexp.MustCompile(`round (\d+): pipeline=(0x[0-9a-f]+) cb=(0x[0-9a-f]+)`).FindAllStringSubmatch(r.stdout, -1)
	n := len(rounds)
	if n < 3 || n > 32 {
		t.Fatalf("%d rounds printed, want 3 to 32:\n%s", n, r.stdout)
	}
	devs := all[wire.Device](r)
	if len(devs) == 0 {
		t.Fatal("no device message")
	}
	pipes, cbs := map[string]bool{}, map[string]bool{}
	for _, rd := range rounds {
		pipes[rd[2]], cbs[rd[3]] = true, true
	}
	if len(pipes) == n || len(cbs) == n {
		if strings.Contains(devs[0].Name, "llvmpipe") {
			t.Fatalf("lavapipe reused no pipeline or no command buffer handle in %d rounds: the test no longer reuses them\n%s",
				n, r.stdout)
		}
		t.Logf("the driver reused no pipeline or no command buffer handle: the names are checked all the same\n%s", r.stdout)
	}

	// The layer's messages: a serial per pipeline and per command buffer,
	// each name given to its object's serial, each record carrying them.
	pipeSerial := map[string]uint64{} // name -> serial
	var serials []uint64
	for _, p := range all[wire.Pipeline](r) {
		if p.Serial == 0 || containsU64(serials, p.Serial) {
			t.Fatalf("pipeline 0x%x: serial %d, serials so far %v", p.Handle, p.Serial, serials)
		}
		serials = append(serials, p.Serial)
	}
	cbSerial := map[string]uint64{}
	for _, n := range all[wire.Name](r) {
		switch n.ObjectType {
		case "pipeline":
			if !containsU64(serials, n.Serial) {
				t.Errorf("name %q: serial %d is no pipeline's (%v)", n.Name, n.Serial, serials)
			}
			pipeSerial[n.Name] = n.Serial
		case "command_buffer":
			if n.Serial == 0 {
				t.Errorf("name %q of command buffer 0x%x: no serial", n.Name, n.Handle)
			}
			cbSerial[n.Name] = n.Serial
		}
	}
	errs := all[wire.Errors](r)
	if len(errs) != n {
		t.Fatalf("%d Errors messages, want %d: %s", len(errs), n, dump(r.msgs))
	}
	for _, e := range errs {
		idx := e.Records[0].Params[2]
		round := fmt.Sprint(idx - 2)
		if e.CommandBufferSerial == 0 || e.CommandBufferSerial != cbSerial["cmd-"+round] {
			t.Errorf("errors of idx %d: command buffer serial %d, want cmd-%s's %d", idx, e.CommandBufferSerial, round,
				cbSerial["cmd-"+round])
		}
		for _, rec := range e.Records {
			if rec.PipelineSerial == 0 || rec.PipelineSerial != pipeSerial["pipe-"+round] {
				t.Errorf("record of idx %d: pipeline serial %d, want pipe-%s's %d", idx, rec.PipelineSerial, round,
					pipeSerial["pipe-"+round])
			}
		}
	}

	// The session built from them, through its file, as a report.
	var doc struct {
		Errors []struct {
			Descriptor    session.Descriptor `json:"descriptor"`
			CommandBuffer session.Handle     `json:"command_buffer"`
			Pipeline      session.Handle     `json:"pipeline"`
		} `json:"errors"`
		Pipelines map[string]session.Pipeline `json:"pipelines"`
		Timeline  []session.SubmitNode        `json:"timeline"`
	}
	rep := reportOf(t, r)
	if err := json.Unmarshal(rep, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Errors) != n {
		t.Fatalf("%d error groups, want %d:\n%s", len(doc.Errors), n, rep)
	}
	for _, g := range doc.Errors {
		round := fmt.Sprint(g.Descriptor.Index - 2)
		if g.Pipeline.Name != "pipe-"+round || g.CommandBuffer.Name != "cmd-"+round ||
			g.Pipeline.Serial != pipeSerial["pipe-"+round] || g.CommandBuffer.Serial != cbSerial["cmd-"+round] {
			t.Errorf("group of idx %d: pipeline %+v, command buffer %+v; want pipe-%s, cmd-%s",
				g.Descriptor.Index, g.Pipeline, g.CommandBuffer, round, round)
		}
	}
	if len(doc.Timeline) != n {
		t.Fatalf("timeline of %d submits, want %d:\n%s", len(doc.Timeline), n, rep)
	}
	for i, sn := range doc.Timeline {
		cb := sn.CommandBuffers[0]
		want := fmt.Sprint(i)
		if cb.CommandBuffer.Name != "cmd-"+want || cb.Actions[0].Pipeline.Name != "pipe-"+want {
			t.Errorf("timeline submit %d: command buffer %+v, pipeline %+v; want cmd-%s, pipe-%s", sn.Submit,
				cb.CommandBuffer, cb.Actions[0].Pipeline, want, want)
		}
	}
	got := map[string]bool{}
	for _, p := range doc.Pipelines {
		got[p.Handle.Name] = true
	}
	want := []string{"oob-compute"}
	for i := range n {
		want = append(want, fmt.Sprint("pipe-", i))
	}
	for _, name := range want {
		if !got[name] || len(doc.Pipelines) != n+1 {
			t.Errorf("pipelines %v lack %s (want %d pipelines, each named)", got, name, n+1)
		}
	}
}

func containsU64(s []uint64, v uint64) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
