package shadertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// Inline runs spirv-opt --inline-entry-points-exhaustive on a module, so
// that a -gVS module's calls become DebugInlinedAt chains, and checks the
// result with spirv-val (--target-env env). spirv-opt 2023.1 (Debian 12)
// leaves a DebugNoLine between OpFunction and its first OpLabel, which
// spirv-val rejects; Inline drops it. A missing tool fails the test.
func Inline(t testing.TB, words []uint32, env string) []uint32 {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.spv"), filepath.Join(dir, "out.spv")
	if err := os.WriteFile(in, spirv.BytesFromWords(words), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command("spirv-opt", "--inline-entry-points-exhaustive", "-o", out, in).CombinedOutput(); err != nil {
		t.Fatalf("spirv-opt --inline-entry-points-exhaustive: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	w, err := spirv.WordsFromBytes(b)
	if err != nil {
		t.Fatalf("spirv-opt output: %v", err)
	}
	h, insts, err := spirv.ParseInstructions(w)
	if err != nil {
		t.Fatalf("spirv-opt output: %v", err)
	}
	kept := insts[:0:0]
	inHead := false // between OpFunction and the first OpLabel
	for _, in := range insts {
		switch in.Opcode() {
		case spirv.OpFunction:
			inHead = true
		case spirv.OpLabel:
			inHead = false
		case spirv.OpExtInst:
			if inHead && len(in.Words) >= 5 && in.Words[4] == spirv.ShaderDebugInfoDebugNoLine {
				continue
			}
		}
		kept = append(kept, in)
	}
	w = spirv.EncodeInstructions(h, kept)
	Validate(t, w, env)
	return w
}

// Validate runs spirv-val --target-env env on a module and fails the test
// when it is invalid or spirv-val is missing.
func Validate(t testing.TB, words []uint32, env string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "v.spv")
	if err := os.WriteFile(p, spirv.BytesFromWords(words), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command("spirv-val", "--target-env", env, p).CombinedOutput(); err != nil {
		t.Fatalf("spirv-val: %v\n%s", err, b)
	}
}

// StripSourceText removes the source text from a module's debug info and
// keeps everything else (file names, lines, columns): OpSource loses its
// Source operand, DebugSource its Text operand, and OpSourceContinued and
// DebugSourceContinued go. It is what a module compiled with -g looks like
// when a build strips the text to save space.
func StripSourceText(t testing.TB, words []uint32) []uint32 {
	t.Helper()
	h, insts, err := spirv.ParseInstructions(words)
	if err != nil {
		t.Fatal(err)
	}
	debugSets := map[uint32]bool{}
	texts := map[uint32]bool{} // OpStrings holding DebugSource text
	for _, in := range insts {
		w := in.Words
		switch {
		case in.Opcode() == spirv.OpExtInstImport:
			if s, _ := spirv.DecodeString(w[2:]); s == "NonSemantic.Shader.DebugInfo.100" {
				debugSets[w[1]] = true
			}
		case in.Opcode() == spirv.OpExtInst && len(w) > 6 && debugSets[w[3]] && w[4] == spirv.ShaderDebugInfoDebugSource:
			texts[w[6]] = true
		case in.Opcode() == spirv.OpExtInst && len(w) > 5 && debugSets[w[3]] && w[4] == spirv.ShaderDebugInfoDebugSourceContinued:
			texts[w[5]] = true
		}
	}
	var out []*spirv.Instruction
	for _, in := range insts {
		w := in.Words
		switch in.Opcode() {
		case spirv.OpString:
			if texts[w[1]] {
				continue
			}
		case spirv.OpSource:
			if len(w) > 4 {
				in = spirv.NewInstruction(spirv.OpSource, w[1:4]...)
			}
		case spirv.OpSourceContinued:
			continue
		case spirv.OpExtInst:
			if len(w) >= 5 && debugSets[w[3]] {
				switch w[4] {
				case spirv.ShaderDebugInfoDebugSource:
					if len(w) > 6 {
						in = spirv.NewInstruction(spirv.OpExtInst, w[1:6]...)
					}
				case spirv.ShaderDebugInfoDebugSourceContinued:
					continue
				}
			}
		}
		out = append(out, in)
	}
	return spirv.EncodeInstructions(h, out)
}
