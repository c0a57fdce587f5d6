package spirv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/golden"
)

// The goldens in testdata/print are spirv-dis's own output (SPIRV-Tools
// 2023.1, Debian spirv-tools 2023.1-2), made with
//
//	for f in testdata/print/*.spv; do spirv-dis "$f" -o "${f%.spv}.golden"; done
//
// from modules compiled with
//
//	glslangValidator -V -g compute.comp -o compute.spv
//	glslangValidator -V -g sample.frag -o sample.spv
//	glslangValidator -V -gVS debuginfo.comp -o debuginfo.spv
//	glslangValidator -V --target-env vulkan1.2 -g raygen.rgen -o raygen.spv
//
// (glslang 12.0.0), and misc.spv, hand-written edge cases assembled with
//
//	spirv-as --target-env spv1.5 misc.spvasm -o misc.spv
//	spirv-dis misc.spv | sed 's/ %2 1 %8 / %2 DebugPrintf %8 /' >misc.golden
//
// The one difference from spirv-dis, made on purpose: spirv-dis 2023.1 does not
// know the NonSemantic.DebugPrintf set and prints its instruction number (1);
// this printer names it (DebugPrintf). With -update the test rewrites the
// goldens with this package's output instead.
func TestDisassembleGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/print/*.spv")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/print/*.spv")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			w := readModule(t, f)
			got, err := Disassemble(w)
			if err != nil {
				t.Errorf("Disassemble: %v", err)
			}
			golden.AssertString(t, strings.TrimSuffix(f, ".spv")+".golden", got)
		})
	}
}

func readModule(t testing.TB, path string) []uint32 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := WordsFromBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestInstructionAt prints every instruction of the test modules on its own
// and compares it with the golden's line(s) for it, indentation trimmed.
func TestInstructionAt(t *testing.T) {
	for name, w := range testModules(t) {
		t.Run(name, func(t *testing.T) {
			p, err := NewPrinter(w)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata/print", strings.TrimSuffix(name, ".spv")+".golden"))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(want), "\n")[5:]
			for i := 0; i < p.Len(); i++ {
				got, err := p.InstructionAt(i)
				if err != nil {
					t.Fatalf("InstructionAt(%d): %v", i, err)
				}
				n := strings.Count(got, "\n") + 1
				if n > len(lines) {
					t.Fatalf("instruction %d: golden too short", i)
				}
				if w := strings.TrimLeft(strings.Join(lines[:n], "\n"), " "); got != w {
					t.Errorf("instruction %d:\n got %q\nwant %q", i, got, w)
				}
				lines = lines[n:]
			}
		})
	}
	w := readModule(t, "testdata/print/compute.spv")
	if _, err := DisassembleInstruction(w, 1<<20); err == nil {
		t.Errorf("DisassembleInstruction out of range: no error")
	}
	if got, err := DisassembleInstruction(w, 0); err != nil || got != "OpCapability Shader" {
		t.Errorf("DisassembleInstruction(0) = %q, %v", got, err)
	}
}

func TestPrinterInstruction(t *testing.T) {
	w := readModule(t, "testdata/print/compute.spv")
	p, err := NewPrinter(w)
	if err != nil {
		t.Fatal(err)
	}
	var uintID, mainID uint32
	for id, n := range p.names {
		switch n {
		case "uint":
			uintID = id
		case "main":
			mainID = id
		}
	}
	tests := []struct {
		words []uint32
		want  string
	}{
		// Instructions that are not in the module use its names.
		{inst(OpLoad, uintID, 5000, mainID), "%5000 = OpLoad %uint %main"},
		{inst(OpName, cat(mainID, `a"b\c`)...), `OpName %main "a\"b\\c"`},
		{inst(OpImageSampleImplicitLod, 9001, 9002, 9003, 9004, uint32(ImageOperandsBias|ImageOperandsConstOffset), 9005, 9006), "%9002 = OpImageSampleImplicitLod %9001 %9003 %9004 Bias|ConstOffset %9005 %9006"},
		{inst(OpSelectionMerge, 9007, 0), "OpSelectionMerge %9007 None"},
		{inst(OpDecorate, 1, 77777, 3), "OpDecorate %1 77777 3"},
		{inst(Opcode(9999), 1, 2), "OpUnknown(9999) 1 2"},
		{inst(OpExtInst, 1, 2, 7777, 3, 4), "%2 = OpExtInst %1 %7777 3 4"},
		{inst(OpLoad, 1), "OpLoad %1"},
	}
	for _, tt := range tests {
		if got := p.Instruction(tt.words); got != tt.want {
			t.Errorf("Instruction(%v) = %q, want %q", tt.words, got, tt.want)
		}
	}
	if p.Name(uintID) != "uint" || p.Name(99999) != "99999" {
		t.Errorf("Name wrong")
	}
	if p.Header().Bound == 0 {
		t.Errorf("Header wrong")
	}
}

func TestDisassembleErrors(t *testing.T) {
	if _, err := Disassemble([]uint32{1, 2, 3}); err == nil {
		t.Errorf("Disassemble of 3 words: no error")
	}
	w := []uint32{MagicNumber, 0x10000, 0, 10, 0}
	w = append(w, inst(Opcode(9999), 1)...)
	w = append(w, inst(OpCapability, uint32(CapabilityShader))...)
	got, err := Disassemble(w)
	if err == nil {
		t.Errorf("unknown opcode: no error")
	}
	want := "; SPIR-V\n; Version: 1.0\n; Generator: Khronos; 0\n; Bound: 10\n; Schema: 0\n               OpUnknown(9999) 1\n               OpCapability Shader\n"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestSanitizeName(t *testing.T) {
	tests := map[string]string{"": "_", "main": "main", "a.b-c d": "a_b_c_d", "ü": "__", "weight(u1;": "weight_u1_"}
	for in, want := range tests {
		if got := sanitizeName(in); got != want {
			t.Errorf("sanitizeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFormatNumbers(t *testing.T) {
	p := &Printer{numTypes: map[uint32]numType{
		1: {float: true, width: 32}, 2: {float: true, width: 64}, 3: {float: true, width: 16},
		4: {signed: true, width: 32}, 5: {width: 32}, 6: {signed: true, width: 64}, 7: {width: 64},
	}}
	tests := []struct {
		typ   uint32
		words []uint32
		want  string
	}{
		{1, []uint32{0x3f000000}, "0.5"},
		{1, []uint32{0x80000000}, "-0"},
		{1, []uint32{0x7f800000}, "0x1p+128"},
		{1, []uint32{0xffc00000}, "-0x1.8p+128"},
		{1, []uint32{0x00000001}, "0x1p-149"},
		{1, []uint32{0x00400000}, "0x1p-127"},
		{1, []uint32{0x33d6bf95}, "1.00000001e-07"},
		{2, []uint32{0x9999999a, 0x3fb99999}, "0.10000000000000001"},
		{2, []uint32{0, 0x7ff00000}, "0x1p+1024"},
		{2, []uint32{1, 0}, "0x1p-1074"},
		{3, []uint32{0x3c00}, "0x1p+0"},
		{3, []uint32{0xb800}, "-0x1p-1"},
		{3, []uint32{0x0001}, "0x1p-24"},
		{3, []uint32{0x3e00}, "0x1.8p+0"},
		{3, []uint32{0}, "0x0p+0"},
		{4, []uint32{0xffffffff}, "-1"},
		{5, []uint32{0xffffffff}, "4294967295"},
		{6, []uint32{0xffffffff, 0xffffffff}, "-1"},
		{7, []uint32{0xffffffff, 0xffffffff}, "18446744073709551615"},
	}
	for _, tt := range tests {
		got, ok := p.number(tt.words, tt.typ)
		if !ok || got != tt.want {
			t.Errorf("number(%#x, type %d) = %q, %v; want %q", tt.words, tt.typ, got, ok, tt.want)
		}
	}
	if _, ok := p.number([]uint32{1}, 99); ok {
		t.Errorf("number of an unknown type: ok")
	}
	if got := generatorName(37 << 16); got != "Unknown(37)" {
		t.Errorf("generatorName(37) = %q", got)
	}
}
