// Package shadertest compiles GLSL test shaders with glslangValidator for
// the tests of other packages.
package shadertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// Compile compiles dir/name with glslangValidator and the given flags (for
// example "-g", "--target-env", "vulkan1.1"), running in dir so that the
// module names the file as name. A missing compiler or a compile error
// fails the test: scripts/install-deps installs glslang-tools.
func Compile(t testing.TB, dir, name string, flags ...string) []uint32 {
	t.Helper()
	out := filepath.Join(t.TempDir(), filepath.Base(name)+".spv")
	args := append(append([]string{}, flags...), "-o", out, name)
	cmd := exec.Command("glslangValidator", args...)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("glslangValidator %v in %s: %v\n%s", args, dir, err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	w, err := spirv.WordsFromBytes(b)
	if err != nil {
		t.Fatalf("compiled %s: %v", name, err)
	}
	return w
}

// LastOp returns the index (as records count instructions: 0 is the first
// after the header) of the module's last instruction with opcode op, and
// fails the test when there is none.
func LastOp(t testing.TB, words []uint32, op spirv.Opcode) int {
	t.Helper()
	_, insts, err := spirv.ParseInstructions(words)
	if err != nil {
		t.Fatal(err)
	}
	last := -1
	for i, in := range insts {
		if in.Opcode() == op {
			last = i
		}
	}
	if last < 0 {
		t.Fatalf("no %v in the module", op)
	}
	return last
}
