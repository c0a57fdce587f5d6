package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// envSidRoot names a khronos-sid root made with --mesa (../shared/tools/
// khronos-sid/setup.sh ROOT --mesa): where the device has no
// VK_KHR_cooperative_matrix (CI's lavapipe, Mesa 25.0.7), the cooperative
// matrix tests run coopapp under sid's dynamic loader on sid's lavapipe
// (Mesa 26.2, which has it), the launcher and the layer unchanged.
const envSidRoot = "GPUAVDBG_SIDROOT"

// coopRun is how coopApp runs: the program and arguments before
// coopapp's own, and the environment.
type coopRun struct {
	prefix []string
	env    []string
}

// coopRunner returns how to run coopApp on a device with cooperative
// matrices, or skips the test: the system's device when coopapp finds
// VK_KHR_cooperative_matrix there (the NVIDIA GPU), else sid's lavapipe
// when GPUAVDBG_SIDROOT names a root, else none.
func coopRunner(t *testing.T) coopRun {
	t.Helper()
	dir := coopApp.dir(t)
	app := filepath.Join(dir, "coopapp")
	if !driverHas(t, "VK_KHR_cooperative_matrix") {
		root := os.Getenv(envSidRoot)
		if root == "" {
			t.Skipf("the device has no VK_KHR_cooperative_matrix (vulkaninfo); set %s to a khronos-sid root made with --mesa to run on sid's lavapipe", envSidRoot)
		}
		lib := filepath.Join(root, "base", "usr", "lib", "x86_64-linux-gnu")
		icd := filepath.Join(root, "mesa", "icd.d", "lvp_icd.json")
		if _, err := os.Stat(icd); err != nil {
			t.Fatalf("%s=%s: %v (made without --mesa?)", envSidRoot, root, err)
		}
		return coopRun{
			prefix: []string{filepath.Join(lib, "ld-linux-x86-64.so.2"), "--library-path",
				lib + ":" + filepath.Join(root, "mesa", "usr", "lib", "x86_64-linux-gnu"), app},
			env: []string{"VK_ICD_FILENAMES=" + icd, "VK_DRIVER_FILES=" + icd},
		}
	}
	return coopRun{prefix: []string{app}}
}

// run runs coopapp --case kase under the launcher with on_error skip (the
// default) and returns the exit code, report, output and the matrix's
// size the app printed (dim=N); an app that finds no cooperative matrix
// fails the test (vulkaninfo or sid's lavapipe said there was one).
func (c coopRun) run(t *testing.T, kase string) (int, checkReport, string, uint32) {
	t.Helper()
	var r checkReport
	args := append(append([]string{}, c.prefix[1:]...), "--shaders", coopApp.dir(t), "--case", kase)
	code, out := runLauncher(t, &r, c.env, nil, c.prefix[0], args...)
	if strings.Contains(out, "unsupported:") {
		t.Fatalf("coopapp found no cooperative matrix where vulkaninfo (or sid's lavapipe) has one:\n%s", out)
	}
	var dim uint32
	for _, l := range strings.Split(out, "\n") {
		if _, err := fmt.Sscanf(l, "dim=%d", &dim); err == nil {
			break
		}
	}
	if dim != 8 && dim != 16 {
		t.Fatalf("no dim=8 or dim=16 in the output:\n%s", out)
	}
	return code, r, out, dim
}

// TestCooperativeMatrixBuffer: coopapp's DIMxDIM float matrix (8 on
// lavapipe, 16 on the NVIDIA GPU) loaded past binding 0's 2048 bytes
// (row-major, stride 128 floats: (DIM-1)*512 + DIM*4 bytes from offset 0),
// and stored past binding 1's 4096 bytes (column-major from byte 4000,
// stride DIM/4 vec4s: DIM*DIM*4 bytes). One group of the 32 invocations
// each, with the exact span, the highest byte, the Khronos layer's VUID and
// the line; the failed access is skipped (the load yields zeros, so the
// store writes 0 at out[0]; the skipped store leaves 2). Both ending at
// exactly their range's last byte report nothing.
func TestCooperativeMatrixBuffer(t *testing.T) {
	c := coopRunner(t)
	tests := []struct {
		kase, word    string
		binding       uint32
		write         bool
		offset, rng   func(d uint32) uint32
		span          func(d uint32) uint32
		out0, outTile string
	}{
		{"load", "load", 0, false, func(uint32) uint32 { return 0 }, func(uint32) uint32 { return 2048 },
			func(d uint32) uint32 { return (d-1)*128*4 + d*4 }, "0", "0"},
		{"store", "store", 1, true, func(uint32) uint32 { return 4000 }, func(uint32) uint32 { return 4096 },
			func(d uint32) uint32 { return d * d * 4 }, "2", "2"},
	}
	for _, tc := range tests {
		t.Run(tc.kase, func(t *testing.T) {
			code, r, out, d := c.run(t, tc.kase)
			requireOneGroup(t, code, r, out)
			e := r.Errors[0]
			at := expectAt(t, "coop.comp", "buffer_oob", tc.word)
			span, off, rng := tc.span(d), tc.offset(d), tc.rng(d)
			verb := "load"
			if tc.write {
				verb = "store"
			}
			msg := fmt.Sprintf("buffer_oob: (set = 0, binding = %d) Descriptor index 0 access out of bounds. Descriptor size is %d and highest byte accessed was %d (%d-byte cooperative matrix %s at offset %d of a storage buffer). The access was skipped",
				tc.binding, rng, off+span-1, span, verb, off)
			if e.Check != "buffer_oob" || e.VUID != "VUID-vkCmdDispatch-storageBuffers-06936" || e.Count != 32 ||
				e.Action != "vkCmdDispatch" || e.CommandBuffer.Name != "coop-cmd" || e.Pipeline.Name != "coop-pipeline" {
				t.Errorf("group: check %q vuid %q count %d action %q cb %q pipeline %q", e.Check, e.VUID, e.Count, e.Action,
					e.CommandBuffer.Name, e.Pipeline.Name)
			}
			if !strings.HasPrefix(e.Message, msg) {
				t.Errorf("message %q, want %q...", e.Message, msg)
			}
			if b := e.Buffer; b == nil || !b.Coop || b.Offset != off || b.Size != span || b.Range != rng ||
				b.Highest != uint64(off+span-1) || b.Write != tc.write || b.Kind != "storage" {
				t.Errorf("buffer %+v, want a cooperative matrix %s of %d bytes at %d of %d", e.Buffer, verb, span, off, rng)
			}
			if e.Descriptor == nil || e.Descriptor.Set != 0 || e.Descriptor.Binding != tc.binding || e.Descriptor.Index != 0 {
				t.Errorf("descriptor %+v, want set 0 binding %d index 0", e.Descriptor, tc.binding)
			}
			if e.Source.File != "coop.comp" || e.Source.Line != at.line || e.Source.Text != at.text {
				t.Errorf("source %+v, want coop.comp:%d %q", e.Source, at.line, at.text)
			}
			requireLines(t, out, []string{"out=" + tc.out0 + "," + tc.outTile})
		})
	}
	t.Run("misaligned", func(t *testing.T) {
		code, r, out, d := c.run(t, "misaligned")
		requireOneGroup(t, code, r, out)
		e := r.Errors[0]
		at := expectAt(t, "coop.comp", "buffer_oob", "load")
		span, stride := (d-1)*(d+1)*4+d*4, (d+1)*4
		vuid := "VUID-RuntimeSpirv-OpCooperativeMatrixLoadKHR-08986"
		msg := fmt.Sprintf("cooperative_matrix_alignment: (set = 0, binding = 0) OpCooperativeMatrixLoadKHR: its Pointer, at byte offset 4 of the bound range (4 bytes past a multiple) and its Stride, %d bytes (4 past a multiple) are not a multiple of 16 bytes, the lesser of 16 and one row's (column-major: column's) bytes (a %d-byte matrix at offset 4, stride %d bytes). The access was skipped (a load read zero, a store or atomic did nothing). %s.",
			stride, span, stride, vuid)
		if e.Check != "cooperative_matrix_alignment" || e.VUID != vuid || e.Count != 32 || e.CommandBuffer.Name != "coop-cmd" {
			t.Errorf("group: check %q vuid %q count %d cb %q", e.Check, e.VUID, e.Count, e.CommandBuffer.Name)
		}
		if !strings.HasPrefix(e.Message, msg) {
			t.Errorf("message %q, want %q...", e.Message, msg)
		}
		if b := e.Buffer; b == nil || !b.Coop || b.Offset != 4 || b.Size != span || b.Write {
			t.Errorf("buffer %+v, want a cooperative matrix load of %d bytes at 4", e.Buffer, span)
		}
		if e.Source.File != "coop.comp" || e.Source.Line != at.line {
			t.Errorf("source %+v, want coop.comp:%d", e.Source, at.line)
		}
		requireLines(t, out, []string{"out=0,0"})
	})
	t.Run("clean", func(t *testing.T) {
		code, r, out, _ := c.run(t, "clean")
		requireSilent(t, code, r, out)
		requireLines(t, out, []string{"out=2,1"})
	})
}

// TestCooperativeMatrixBDA: coopapp's loads of TestCooperativeMatrixBuffer
// through a buffer reference into a 2048-byte buffer (coop_bda.comp):
// past its end, bda_oob with the span (DIM-1)*512 + DIM*4 and the buffer
// as the nearest; from byte 4 with a stride of (DIM+1)*4 bytes,
// cooperative_matrix_alignment with the address; ending at its last byte,
// nothing. The failed load is skipped (the stored tile is zeros).
func TestCooperativeMatrixBDA(t *testing.T) {
	c := coopRunner(t)
	srcOf := func(t *testing.T, out string) uint64 {
		t.Helper()
		for _, l := range strings.Split(out, "\n") {
			var a uint64
			if _, err := fmt.Sscanf(l, "src=0x%x", &a); err == nil {
				return a
			}
		}
		t.Fatalf("no src=0x... in the output:\n%s", out)
		return 0
	}
	at := expectAt(t, "coop_bda.comp", "bda_oob", "load")
	t.Run("oob", func(t *testing.T) {
		code, r, out, d := c.run(t, "bda")
		requireOneGroup(t, code, r, out)
		e, src := r.Errors[0], srcOf(t, out)
		span := (d-1)*128*4 + d*4
		msg := fmt.Sprintf("bda_oob: Out of bounds access: a cooperative matrix spanning %d bytes read at buffer device address 0x%x, past the nearest buffer below it, [0x%x, 0x%x) (2048 bytes). The access was skipped",
			span, src, src, src+2048)
		if e.Check != "bda_oob" || e.VUID != "VUID-RuntimeSpirv-PhysicalStorageBuffer64-11819" || e.Count != 32 {
			t.Errorf("group: check %q vuid %q count %d", e.Check, e.VUID, e.Count)
		}
		if !strings.HasPrefix(e.Message, msg) {
			t.Errorf("message %q, want %q...", e.Message, msg)
		}
		if b := e.BDA; b == nil || b.Address != fmt.Sprintf("0x%x", src) || b.Size != span || b.Write ||
			b.Nearest == nil || b.Nearest.Size != 2048 {
			t.Errorf("bda %+v, want %d bytes at 0x%x, nearest 2048 bytes", e.BDA, span, src)
		}
		if e.Source.File != "coop_bda.comp" || e.Source.Line != at.line {
			t.Errorf("source %+v, want coop_bda.comp:%d", e.Source, at.line)
		}
		requireLines(t, out, []string{"out=0,0"})
	})
	t.Run("misaligned", func(t *testing.T) {
		code, r, out, d := c.run(t, "bda-misaligned")
		requireOneGroup(t, code, r, out)
		e, src := r.Errors[0], srcOf(t, out)
		span, stride := (d-1)*(d+1)*4+d*4, (d+1)*4
		vuid := "VUID-RuntimeSpirv-OpCooperativeMatrixLoadKHR-08986"
		msg := fmt.Sprintf("cooperative_matrix_alignment: OpCooperativeMatrixLoadKHR: its Pointer, buffer device address 0x%x (4 bytes past a multiple) and its Stride, %d bytes (4 past a multiple) are not a multiple of 16 bytes, the lesser of 16 and one row's (column-major: column's) bytes (a %d-byte matrix at 0x%x, stride %d bytes). The access was skipped",
			src+4, stride, span, src+4, stride)
		if e.Check != "cooperative_matrix_alignment" || e.VUID != vuid || e.Count != 32 {
			t.Errorf("group: check %q vuid %q count %d", e.Check, e.VUID, e.Count)
		}
		if !strings.HasPrefix(e.Message, msg) {
			t.Errorf("message %q, want %q...", e.Message, msg)
		}
		if b := e.BDA; b == nil || b.Address != fmt.Sprintf("0x%x", src+4) || b.Size != span || b.Alignment != 16 {
			t.Errorf("bda %+v, want %d bytes at 0x%x, alignment 16", e.BDA, span, src+4)
		}
		requireLines(t, out, []string{"out=0,0"})
	})
	t.Run("clean", func(t *testing.T) {
		code, r, out, _ := c.run(t, "bda-clean")
		requireSilent(t, code, r, out)
		requireLines(t, out, []string{"out=1,1"})
	})
}
