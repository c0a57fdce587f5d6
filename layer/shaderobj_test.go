package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// The tests of this file cover VK_EXT_shader_object: compute
// shader objects made from SPIR-V are instrumented and the layer's set is
// bound before their dispatches; set-layout conflicts, every check off and
// binary code leave them alone. They run testdata/multi.c's shaderobj
// modes (lavapipe supports the extension).

// shaderObjectMsg returns the Shader message of the compute shader object h.
func shaderObjectMsg(t *testing.T, r result, h uint64) *wire.Shader {
	t.Helper()
	return shaderObjectFrom(t, r, h, multiFix.comp)
}

// shaderObjectFrom returns the Shader message of the shader object h,
// made from the SPIR-V file spv.
func shaderObjectFrom(t *testing.T, r result, h uint64, spv string) *wire.Shader {
	t.Helper()
	var found *wire.Shader
	for _, s := range all[wire.Shader](r) {
		if s.Object == h {
			if found != nil {
				t.Fatalf("two Shader messages for shader object %#x", h)
			}
			found = s
		}
	}
	if h == 0 || found == nil {
		t.Fatalf("no Shader message for shader object %#x: %s", h, dump(r.msgs))
	}
	if found.Module != 0 {
		t.Errorf("shader object %#x: Shader message names module %#x", h, found.Module)
	}
	comp, err := os.ReadFile(spv)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(found.SPIRV, comp) {
		t.Errorf("shader object %#x: the Shader message's SPIR-V (%d bytes) is not the app's (%d bytes)", h,
			len(found.SPIRV), len(comp))
	}
	return found
}

// logsContaining counts the Log messages of level whose text contains s.
func logsContaining(r result, level, s string) int {
	n := 0
	for _, l := range all[wire.Log](r) {
		if l.Level == level && strings.Contains(l.Text, s) {
			n++
		}
	}
	return n
}

// TestShaderObject: cmd-0 dispatches with the shader object (idx 3), the
// pipeline (idx 4), the shader object again (idx 5): every action's four
// records come back, the shader object's attributed to it (pipeline 0,
// its shader id), the pipeline's to the pipeline: the last bind of either
// wins. The instrumented shader's binary data is its uninstrumented
// twin's: shaders made from it run the app's code; shaders created from
// binary code get one warning.
func TestShaderObject(t *testing.T) {
	r := runMulti(t, true, nil, "shaderobj")
	n := names(r)
	so := shaderObjectMsg(t, r, n["oob-shader"])
	if !so.Instrumented || so.Warning != "" {
		t.Errorf("shader object: instrumented %v, warning %q", so.Instrumented, so.Warning)
	}
	var pipeShader uint32
	for _, p := range all[wire.Pipeline](r) {
		if p.Handle == n["oob-compute"] && len(p.Stages) == 1 {
			pipeShader = p.Stages[0].ShaderID
		}
	}
	if pipeShader == 0 || pipeShader == so.ID {
		t.Fatalf("pipeline oob-compute's shader %d, shader object's %d: %s", pipeShader, so.ID, dump(r.msgs))
	}
	for _, nm := range all[wire.Name](r) {
		if nm.Name == "oob-shader" && nm.ObjectType != "shader_object" {
			t.Errorf("name of the shader object: object type %q", nm.ObjectType)
		}
	}

	var e *wire.Errors
	var fromBinary []*wire.Errors
	for _, m := range all[wire.Errors](r) {
		if m.CommandBuffer == n["cmd-0"] {
			e = m
		} else {
			fromBinary = append(fromBinary, m)
		}
	}
	if e == nil {
		t.Fatalf("no errors of cmd-0: %s", dump(r.msgs))
	}
	if e.CommandBuffer != n["cmd-0"] || e.Submit != 1 || e.Queue != n["main-queue"] || e.Queue == 0 || e.Dropped != 0 ||
		len(e.Records) != 12 {
		t.Fatalf("errors: cb %#x submit %d queue %#x dropped %d, %d records; want cb %#x, submit 1, 12 records: %s",
			e.CommandBuffer, e.Submit, e.Queue, e.Dropped, len(e.Records), n["cmd-0"], dump(r.msgs))
	}
	want := []struct {
		idx      uint32
		pipeline uint64
		shader   uint32
	}{{3, 0, so.ID}, {4, n["oob-compute"], pipeShader}, {5, 0, so.ID}}
	invocations := map[uint32]map[uint32]bool{}
	for _, rec := range e.Records {
		if rec.ActionIndex >= uint32(len(want)) {
			t.Errorf("record of action %d: %+v", rec.ActionIndex, rec)
			continue
		}
		w := want[rec.ActionIndex]
		if rec.Check != gpuav.CheckDescriptorIndexOOB || rec.Code != uint32(gpuav.CodeDescriptorIndexOOB) ||
			rec.Action != "vkCmdDispatch" || rec.Pipeline != w.pipeline || rec.ShaderID != w.shader ||
			fmt.Sprint(rec.Labels) != "[compute]" || fmt.Sprint(rec.Params[:4]) != fmt.Sprint([]uint32{0, 0, w.idx, 2}) ||
			rec.Count != 1 || rec.Stage != gpuav.ModelGLCompute || rec.StageWords[1] != 0 || rec.StageWords[2] != 0 {
			t.Errorf("record of action %d: %+v; want index %d of length 2, pipeline %#x, shader %d", rec.ActionIndex, rec,
				w.idx, w.pipeline, w.shader)
		}
		if invocations[rec.ActionIndex] == nil {
			invocations[rec.ActionIndex] = map[uint32]bool{}
		}
		invocations[rec.ActionIndex][rec.StageWords[0]] = true
	}
	for a := range want {
		if got := invocations[uint32(a)]; len(got) != 4 || !got[0] || !got[1] || !got[2] || !got[3] {
			t.Errorf("action %d: invocations %v, want 0..3", a, got)
		}
	}

	// The binary data of the instrumented shader is its uninstrumented
	// twin's (it used to be the instrumented code: the NVIDIA driver
	// refused it, and an app that saved it crashed in a later run). A
	// shader created from those bytes in this run is made from the twin's
	// SPIR-V instead, instrumented: it writes outs[1] = 0 3 6 9, and its
	// idx 3 (action 1 of cmd-binary) is reported, once per creation, under
	// a shader id of its own.
	if c := logsContaining(r, "warning", "created from binary code (VK_SHADER_CODE_TYPE_BINARY_EXT)"); c != 0 {
		t.Errorf("%d binary-code warnings, want none (both creations are of the layer's bytes): %s", c, dump(r.msgs))
	}
	if c := logsContaining(r, "info", "created from binary data the layer handed out in this run"); c != 2 {
		t.Errorf("%d notes of binaries made from SPIR-V, want 2: %s", c, dump(r.msgs))
	}
	if len(fromBinary) != 2 {
		t.Fatalf("%d Errors messages from the shaders made from the binary, want 2: %s", len(fromBinary), dump(r.msgs))
	}
	for _, b := range fromBinary {
		if len(b.Records) != 4 || b.Records[0].ActionIndex != 1 || b.Records[0].ShaderID == so.ID ||
			fmt.Sprint(b.Records[0].Params[:4]) != "[0 0 3 2]" {
			t.Errorf("errors of a shader made from the binary: %+v, want 4 records of action 1, index 3 of 2", b)
		}
	}
	if c := logsContaining(r, "warning", "vkGetShaderBinaryDataEXT"); c != 0 {
		t.Errorf("%d binary-data warnings, want none (the twin's binary goes out): %s", c, dump(r.msgs))
	}
	if c, v := strings.Count(r.stdout, "binary_create=0\n"), strings.Count(r.stdout, "binary_values=0 3 6 9\n"); c != 2 || v != 2 {
		t.Errorf("creations from the binary: %d succeeded and %d computed 0 3 6 9, want 2 and 2:\n%s", c, v, r.stdout)
	}
}

// TestShaderObjectStderr: without a launcher the stderr line of a shader
// object's error names the shader object where a pipeline would be.
func TestShaderObjectStderr(t *testing.T) {
	r := runMulti(t, false, nil, "shaderobj")
	var line string
	for _, l := range strings.Split(r.stderr, "\n") {
		if strings.Contains(l, "action #0 vkCmdDispatch") {
			line = l
		}
	}
	if !strings.Contains(line, "Index of 3 used to index descriptor array of length 2") ||
		!strings.Contains(line, `(shader object 0x`) || !strings.Contains(line, `"oob-shader"), instruction`) ||
		strings.Contains(line, "pipeline") || !strings.Contains(line, "; 4 invocations.") {
		t.Errorf("stderr line of action 0: %q\nstderr:\n%s", line, r.stderr)
	}
}

// TestShaderObjectClean: in-bounds indices through the shader object and
// the pipeline report nothing.
func TestShaderObjectClean(t *testing.T) {
	r := runMulti(t, true, nil, "shaderobj-clean")
	if so := shaderObjectMsg(t, r, names(r)["oob-shader"]); !so.Instrumented {
		t.Errorf("shader object not instrumented: %q", so.Warning)
	}
	if e := all[wire.Errors](r); len(e) != 0 {
		t.Errorf("%d Errors messages from a clean run: %s", len(e), dump(r.msgs))
	}
}

// TestShaderObjectChecksOff: with every check off the shader object runs
// the app's code: the same out-of-bounds indices report nothing.
func TestShaderObjectChecksOff(t *testing.T) {
	r := runMulti(t, true, checksOffEnv(), "shaderobj")
	so := shaderObjectMsg(t, r, names(r)["oob-shader"])
	if so.Instrumented || !strings.HasPrefix(so.Warning, "instrumentation is off for this device") {
		t.Errorf("shader object with every check off: instrumented %v, warning %q", so.Instrumented, so.Warning)
	}
	if e := all[wire.Errors](r); len(e) != 0 {
		t.Errorf("%d Errors messages with every check off: %s", len(e), dump(r.msgs))
	}
	if c := logsContaining(r, "warning", "vkGetShaderBinaryDataEXT"); c != 0 {
		t.Errorf("binary-data warning for an uninstrumented shader: %s", dump(r.msgs))
	}
}

// TestShaderObjectConflict: a shader object whose min(maxBoundDescriptorSets,
// 33) set layouts reach the layer's set (7 on lavapipe, 31 on NVIDIA) runs
// uninstrumented, with a warning; its out-of-bounds dispatches (idx 3)
// report nothing.
func TestShaderObjectConflict(t *testing.T) {
	r := runMulti(t, true, nil, "shaderobj-conflict")
	d := one[wire.Device](t, r)
	if d.DescriptorSlot != min(d.MaxBoundDescriptorSets, 33)-1 {
		t.Fatalf("the layer's set is %d with maxBoundDescriptorSets %d", d.DescriptorSlot, d.MaxBoundDescriptorSets)
	}
	so := shaderObjectMsg(t, r, names(r)["oob-shader"])
	if so.Instrumented || so.Warning != "its set layouts use the descriptor set the layer needs: it runs uninstrumented" {
		t.Errorf("conflicting shader object: instrumented %v, warning %q", so.Instrumented, so.Warning)
	}
	want := fmt.Sprintf("uses %d descriptor set layouts, including set %d that the layer needs", d.DescriptorSlot+1, d.DescriptorSlot)
	// An error, not a warning: the shader runs unchecked.
	if c := logsContaining(r, "error", want); c != 1 {
		t.Errorf("%d conflict errors, want 1: %s", c, dump(r.msgs))
	}
	// No record: the shader object is not instrumented. (Its out-of-bounds
	// descriptor index is undefined behaviour the layer no longer guards:
	// on the NVIDIA driver its stray writes landed in the layer's output
	// header and showed as dropped records, so only records are counted.)
	for _, e := range all[wire.Errors](r) {
		if len(e.Records) != 0 {
			t.Errorf("records from an uninstrumented shader object: %s", dump(r.msgs))
		}
	}
}

// TestShaderObjectReport: in the headless JSON report (from a reopened
// session file), a shader object's error names the shader object, with its
// debug name, where a module would be, and pipeline 0x0.
func TestShaderObjectReport(t *testing.T) {
	r := runMulti(t, true, nil, "shaderobj")
	n := names(r)
	var doc struct {
		Errors []struct {
			ActionIndex   uint32         `json:"action_index"`
			Pipeline      session.Handle `json:"pipeline"`
			Shader        session.ShaderRef
			CommandBuffer session.Handle `json:"command_buffer"`
		} `json:"errors"`
	}
	report := reportOf(t, r)
	if err := json.Unmarshal(report, &doc); err != nil {
		t.Fatal(err)
	}
	got := map[uint32]string{}
	fromBinary := 0
	for _, e := range doc.Errors {
		if e.CommandBuffer.Name == "cmd-binary" {
			fromBinary++ // TestShaderObject checks them
			continue
		}
		got[e.ActionIndex] = fmt.Sprintf("pipeline %s %q, shader module %q object %q name %q", e.Pipeline.Handle,
			e.Pipeline.Name, e.Shader.Module, e.Shader.Object, e.Shader.Name)
	}
	obj := fmt.Sprintf("%#x", n["oob-shader"])
	want := map[uint32]string{
		0: fmt.Sprintf(`pipeline 0x0 "", shader module "" object %q name "oob-shader"`, obj),
		2: fmt.Sprintf(`pipeline 0x0 "", shader module "" object %q name "oob-shader"`, obj),
	}
	for a, w := range want {
		if got[a] != w {
			t.Errorf("action %d: %s\nwant %s", a, got[a], w)
		}
	}
	if len(doc.Errors) != 3+fromBinary || fromBinary != 2 || !strings.HasPrefix(got[1], fmt.Sprintf(`pipeline %#x "oob-compute", shader module "0x`, n["oob-compute"])) {
		t.Errorf("%d errors, action 1: %s\n%s", len(doc.Errors), got[1], report)
	}
}

// TestShaderObjectRender: a draw with vertex and fragment shader objects
// (every state dynamic) reports its 16 fragments' out-of-bounds index 3
// under the fragment shader object, pipeline 0; the next draw, with
// dyn-pipeline bound after them, its index 4 under the pipeline.
func TestShaderObjectRender(t *testing.T) {
	r := runMulti(t, true, nil, "shaderobj-render")
	n := names(r)
	frag := shaderObjectFrom(t, r, n["so-frag"], multiFix.frag)
	vert := shaderObjectFrom(t, r, n["so-vert"], multiFix.vert)
	if !frag.Instrumented {
		t.Errorf("fragment shader object not instrumented: %q", frag.Warning)
	}
	var pipeFrag uint32
	for _, p := range all[wire.Pipeline](r) {
		for _, st := range p.Stages {
			if p.Handle == n["dyn-pipeline"] && st.Stage == "fragment" {
				pipeFrag = st.ShaderID
			}
		}
	}
	e := one[wire.Errors](t, r)
	if e.CommandBuffer != n["cmd-0"] || e.Submit != 1 || e.Dropped != 0 {
		t.Fatalf("errors: %+v", e)
	}
	type key struct {
		action, idx, shader uint32
		pipeline            uint64
	}
	counts := map[key]int{}
	for _, rec := range e.Records {
		if rec.Check != gpuav.CheckDescriptorIndexOOB || rec.Action != "vkCmdDraw" || rec.Stage != gpuav.ModelFragment ||
			fmt.Sprint(rec.Labels) != "[frame]" || rec.Params[3] != 2 || rec.ShaderID == vert.ID {
			t.Errorf("record %+v", rec)
		}
		counts[key{rec.ActionIndex, rec.Params[2], rec.ShaderID, rec.Pipeline}] += rec.Count
	}
	want := map[key]int{
		{0, 3, frag.ID, 0}:                  16,
		{1, 4, pipeFrag, n["dyn-pipeline"]}: 16,
	}
	if pipeFrag == 0 || fmt.Sprint(counts) != fmt.Sprint(want) {
		t.Errorf("records (action, index, shader, pipeline) -> count: %v\nwant %v", counts, want)
	}
}

// TestShaderObjectNotSPIRVWords: a SPIR-V shader object whose codeSize is
// not a multiple of 4 goes to the driver untouched and to the session with
// the reason, as a module does.
func TestShaderObjectNotSPIRVWords(t *testing.T) {
	setup(t)
	if d := one[wire.Device](t, runApp(t, true, nil, fixture.app, "--shader", fixture.shader, "--index", "1")); !lavapipe(d) {
		// Measured on an H100 (driver 580): vkCreateShadersEXT never
		// returned with this code, as vkCreateShaderModule does not (e2e
		// TestBadModulesInSession). Invalid usage is the driver's to handle;
		// what the layer does with it does not depend on the driver.
		t.Skipf("a codeSize that is not a multiple of 4 hangs %s; lavapipe runs this test", d.Name)
	}
	r := runMulti(t, true, nil, "shaderobj-bad")
	st, err := os.Stat(multiFix.comp)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("codeSize %d is not a multiple of 4: not SPIR-V words, passed to the driver unchecked", st.Size()-2)
	if !strings.Contains(r.stdout, "shaderobj_bad=0\n") {
		// The driver refused it: the reason says so.
		want += "; the driver refused it (VkResult "
	}
	// The app's compute pipeline made shader 1; the shader object is 2.
	shaders := all[wire.Shader](r)
	if len(shaders) != 2 {
		t.Fatalf("%d shaders, want the pipeline's and the shader object's: %s", len(shaders), dump(r.msgs))
	}
	s := shaders[1]
	if s.Instrumented || !strings.HasPrefix(s.Warning, want) || len(s.SPIRV) != int(st.Size()-2) {
		t.Errorf("shader: instrumented %v, warning %q, %d bytes; want %q, %d bytes\n%s",
			s.Instrumented, s.Warning, len(s.SPIRV), want, st.Size()-2, r.stdout)
	}
}

// TestShaderObjectForeignBinary: a shader object created from binary code
// the layer never handed out (written by a run without the layer) runs as
// the app gave it, unchecked: it is in the session as a shader left
// unchecked with the reason (the report's unchecked list, exit 4), not a
// warning among the logs.
func TestShaderObjectForeignBinary(t *testing.T) {
	setupMulti(t)
	bin := filepath.Join(t.TempDir(), "shader.bin")
	runPlain(t, "--mode", "shaderobj-foreign", "--binary-out", bin)
	r := runMulti(t, true, nil, "shaderobj-foreign", "--binary-in", bin)
	if !strings.Contains(r.stdout, "binary_create=0\n") || !strings.Contains(r.stdout, "binary_values=0 3 6 9\n") {
		t.Fatalf("the shader from the binary did not run:\n%s", r.stdout)
	}
	// The app's compute pipeline made shader 1; the shader object is 2.
	shaders := all[wire.Shader](r)
	if len(shaders) != 2 {
		t.Fatalf("%d shaders, want the pipeline's and the shader object's: %s", len(shaders), dump(r.msgs))
	}
	if s := shaders[1]; s.Instrumented || s.Object == 0 || s.Module != 0 || s.Warning != binaryReason {
		t.Errorf("shader: %+v; want shader object, uninstrumented, warning %q", s, binaryReason)
	}
	if c := logsContaining(r, "warning", "binary"); c != 0 {
		t.Errorf("%d warnings about binary code, want none (the shader says it): %s", c, dump(r.msgs))
	}
	var doc struct {
		Unchecked []session.Unchecked `json:"unchecked"`
	}
	rep := reportOf(t, r)
	if err := json.Unmarshal(rep, &doc); err != nil {
		t.Fatal(err)
	}
	// (The launcher's entries, such as the app's end, are not the layer's.)
	var shadersLeft []session.Unchecked
	for _, u := range doc.Unchecked {
		if u.Kind != session.UncheckedEnd {
			shadersLeft = append(shadersLeft, u)
		}
	}
	want := []session.Unchecked{{Kind: session.UncheckedShader, Reason: binaryReason, Count: 1}}
	if !reflect.DeepEqual(shadersLeft, want) {
		t.Errorf("unchecked %+v, want %+v", doc.Unchecked, want)
	}
}
