package spirv

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestLookupOp(t *testing.T) {
	tests := []struct {
		op                 Opcode
		name               string
		hasType, hasResult bool
		operands           []OperandKind
	}{
		{OpNop, "OpNop", false, false, nil},
		{OpLoad, "OpLoad", true, true, []OperandKind{KindIdRef, KindMemoryAccess}},
		{OpStore, "OpStore", false, false, []OperandKind{KindIdRef, KindIdRef, KindMemoryAccess}},
		{OpTypeInt, "OpTypeInt", false, true, []OperandKind{KindLiteralInteger, KindLiteralInteger}},
		{OpDecorate, "OpDecorate", false, false, []OperandKind{KindIdRef, KindDecoration}},
		{OpAccessChain, "OpAccessChain", true, true, []OperandKind{KindIdRef, KindIdRef}},
		{OpImageSampleImplicitLod, "OpImageSampleImplicitLod", true, true, []OperandKind{KindIdRef, KindIdRef, KindImageOperands}},
		{OpRayQueryInitializeKHR, "OpRayQueryInitializeKHR", false, false, []OperandKind{KindIdRef, KindIdRef, KindIdRef, KindIdRef, KindIdRef, KindIdRef, KindIdRef, KindIdRef}},
		{OpSwitch, "OpSwitch", false, false, []OperandKind{KindIdRef, KindIdRef, KindPairLiteralIntegerIdRef}},
		{OpExtInst, "OpExtInst", true, true, []OperandKind{KindIdRef, KindLiteralExtInstInteger, KindIdRef}},
		// Aliases share the table entry of the first name.
		{OpDecorateStringGOOGLE, "OpDecorateString", false, false, []OperandKind{KindIdRef, KindDecoration}},
		{OpSDotKHR, "OpSDot", true, true, []OperandKind{KindIdRef, KindIdRef, KindPackedVectorFormat}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, ok := LookupOp(tt.op)
			if !ok {
				t.Fatalf("LookupOp(%d) not found", tt.op)
			}
			if info.Name != tt.name || info.Opcode != tt.op || info.HasType != tt.hasType || info.HasResult != tt.hasResult {
				t.Errorf("got %s (%d) type=%v result=%v, want %s type=%v result=%v", info.Name, info.Opcode, info.HasType, info.HasResult, tt.name, tt.hasType, tt.hasResult)
			}
			var kinds []OperandKind
			for _, o := range info.Operands {
				kinds = append(kinds, o.Kind)
			}
			if len(kinds) != len(tt.operands) {
				t.Fatalf("operands %v, want %v", kinds, tt.operands)
			}
			for i := range kinds {
				if kinds[i] != tt.operands[i] {
					t.Errorf("operand %d: %v, want %v", i, kinds[i], tt.operands[i])
				}
			}
			if got := tt.op.String(); got != tt.name {
				t.Errorf("String() = %q, want %q", got, tt.name)
			}
		})
	}
	info, _ := LookupOp(OpLoad)
	if info.Operands[0].Name != "Pointer" || info.Operands[1].Quant != QuantOptional {
		t.Errorf("OpLoad operands = %+v", info.Operands)
	}
	for _, op := range []Opcode{9, 13, 18, 65535, maxOpcode + 1} {
		if _, ok := LookupOp(op); ok {
			t.Errorf("LookupOp(%d) found an unassigned opcode", op)
		}
	}
	if got := Opcode(65000).String(); got != "OpUnknown(65000)" {
		t.Errorf("unknown opcode String() = %q", got)
	}
}

func TestOpTableConsistent(t *testing.T) {
	seen := map[Opcode]bool{}
	for i := range Opcodes() {
		info := &Opcodes()[i]
		if seen[info.Opcode] {
			t.Errorf("opcode %d (%s) twice in the table", info.Opcode, info.Name)
		}
		seen[info.Opcode] = true
		got, ok := LookupOp(info.Opcode)
		if !ok || got != info {
			t.Errorf("LookupOp(%s) does not return its table entry", info.Name)
		}
		for _, o := range info.Operands {
			if o.Kind == KindIdResult || o.Kind == KindIdResultType || LookupKind(o.Kind).Name == "UnknownWord" {
				t.Errorf("%s: bad operand kind %v", info.Name, o.Kind)
			}
		}
	}
	if len(seen) < 500 {
		t.Errorf("only %d opcodes", len(seen))
	}
}

func TestKinds(t *testing.T) {
	for k := OperandKind(1); k < numKinds; k++ {
		info := LookupKind(k)
		if info.Name == "" || info.Name == "UnknownWord" {
			t.Errorf("kind %d has no info", k)
		}
		for i := 1; i < len(info.Enumerants); i++ {
			if info.Enumerants[i-1].Value >= info.Enumerants[i].Value {
				t.Errorf("%s: enumerants not strictly sorted at %s", info.Name, info.Enumerants[i].Name)
			}
		}
		switch info.Category {
		case CategoryBitEnum, CategoryValueEnum:
			if len(info.Enumerants) == 0 {
				t.Errorf("%s: enum without enumerants", info.Name)
			}
		case CategoryComposite:
			if len(info.Bases) != 2 {
				t.Errorf("%s: bases %v", info.Name, info.Bases)
			}
		}
	}
	if LookupKind(KindUnknownWord).Name != "UnknownWord" || KindIdRef.String() != "IdRef" {
		t.Errorf("kind names wrong")
	}
	if LookupKind(KindImageOperands).Category != CategoryBitEnum || LookupKind(KindDecoration).Category != CategoryValueEnum ||
		LookupKind(KindIdScope).Category != CategoryID || LookupKind(KindLiteralString).Category != CategoryLiteral {
		t.Errorf("categories wrong")
	}
	if b := LookupKind(KindPairLiteralIntegerIdRef).Bases; b[0] != KindLiteralInteger || b[1] != KindIdRef {
		t.Errorf("PairLiteralIntegerIdRef bases %v", b)
	}
	if LookupKind(KindShaderDebugInfoDebugInfoFlags).Set != "NonSemantic.Shader.DebugInfo.100" {
		t.Errorf("set of KindShaderDebugInfoDebugInfoFlags")
	}
	e, ok := KindDecoration.Enumerant(uint32(DecorationUniformId))
	if !ok || len(e.Params) != 1 || e.Params[0].Kind != KindIdScope {
		t.Errorf("UniformId enumerant = %+v", e)
	}
}

func TestEnumerantNames(t *testing.T) {
	tests := []struct {
		kind OperandKind
		v    uint32
		want string
		ok   bool
	}{
		{KindDecoration, 33, "Binding", true},
		{KindBuiltIn, 15, "FragCoord", true},
		{KindDim, 0, "1D", true},
		{KindStorageClass, 5349, "PhysicalStorageBuffer", true}, // first of the aliases
		{KindExecutionModel, 5313, "RayGenerationNV", true},
		{KindDecoration, 99999, "", false},
	}
	for _, tt := range tests {
		got, ok := tt.kind.EnumerantName(tt.v)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%v.EnumerantName(%d) = %q, %v; want %q, %v", tt.kind, tt.v, got, ok, tt.want, tt.ok)
		}
	}
	masks := []struct {
		kind OperandKind
		v    uint32
		want string
	}{
		{KindImageOperands, 0, "None"},
		{KindImageOperands, 0x9, "Bias|ConstOffset"},
		{KindImageOperands, 0x80000001, "Bias|0x80000000"},
		{KindMemoryAccess, 3, "Volatile|Aligned"},
		{KindSelectionControl, 0, "None"},
		{KindMemorySemantics, 0, "Relaxed"}, // the first of the kind's 0 enumerants
		{KindRayFlags, 0, "NoneKHR"},
		{KindFunctionControl, 1, "Inline"},
	}
	for _, tt := range masks {
		if got := tt.kind.MaskName(tt.v); got != tt.want {
			t.Errorf("%v.MaskName(%#x) = %q, want %q", tt.kind, tt.v, got, tt.want)
		}
	}
	if got := KindDecoration.ValueName(99999); got != "99999" {
		t.Errorf("ValueName unknown = %q", got)
	}
}

func TestTypedConstants(t *testing.T) {
	tests := []struct {
		got  uint32
		want uint32
		str  string
	}{
		{uint32(DecorationBinding), 33, DecorationBinding.String()},
		{uint32(BuiltInFragCoord), 15, BuiltInFragCoord.String()},
		{uint32(ExecutionModelGLCompute), 5, ExecutionModelGLCompute.String()},
		{uint32(StorageClassStorageBuffer), 12, StorageClassStorageBuffer.String()},
		{uint32(CapabilityShader), 1, CapabilityShader.String()},
		{uint32(AddressingModelPhysicalStorageBuffer64), 5348, AddressingModelPhysicalStorageBuffer64.String()},
		{uint32(MemoryModelGLSL450), 1, MemoryModelGLSL450.String()},
		{uint32(Dim1D), 0, Dim1D.String()},
		{uint32(SourceLanguageGLSL), 2, SourceLanguageGLSL.String()},
		{uint32(ExecutionModeLocalSize), 17, ExecutionModeLocalSize.String()},
		{uint32(ScopeDevice), 1, ScopeDevice.String()},
		{uint32(ImageFormatRgba8), 4, ImageFormatRgba8.String()},
		{uint32(FunctionControlNone), 0, FunctionControlNone.String()},
		{uint32(SelectionControlFlatten), 1, SelectionControlFlatten.String()},
		{uint32(MemorySemanticsAcquire | MemorySemanticsUniformMemory), 0x42, (MemorySemanticsAcquire | MemorySemanticsUniformMemory).String()},
		{uint32(ImageOperandsBias | ImageOperandsConstOffset), 9, (ImageOperandsBias | ImageOperandsConstOffset).String()},
	}
	wantStr := []string{"Binding", "FragCoord", "GLCompute", "StorageBuffer", "Shader", "PhysicalStorageBuffer64", "GLSL450", "1D", "GLSL", "LocalSize", "Device", "Rgba8", "None", "Flatten", "Acquire|UniformMemory", "Bias|ConstOffset"}
	for i, tt := range tests {
		if tt.got != tt.want || tt.str != wantStr[i] {
			t.Errorf("case %d: %d %q, want %d %q", i, tt.got, tt.str, tt.want, wantStr[i])
		}
	}
	if ShaderDebugInfoDebugLine != 103 || ShaderDebugInfoDebugSource != 35 || ShaderDebugInfoDebugSourceContinued != 102 ||
		ShaderDebugInfoDebugScope != 23 || ShaderDebugInfoDebugNoScope != 24 || ShaderDebugInfoDebugInlinedAt != 25 ||
		ShaderDebugInfoDebugFunction != 20 || ShaderDebugInfoDebugCompilationUnit != 1 || ShaderDebugInfoDebugFunctionDefinition != 101 {
		t.Errorf("ShaderDebugInfo constants wrong")
	}
	if GLSLstd450FClamp != 43 || DebugPrintfDebugPrintf != 1 {
		t.Errorf("ext inst constants wrong")
	}
	if OpDecorateStringGOOGLE != OpDecorateString || OpDecorateString != 5632 {
		t.Errorf("alias constants wrong")
	}
}

func TestLookupExtInstSet(t *testing.T) {
	tests := []struct {
		name string
		want *ExtInstSet
	}{
		{"GLSL.std.450", ExtInstSetGLSLStd450},
		{"NonSemantic.Shader.DebugInfo.100", ExtInstSetShaderDebugInfo100},
		{"DebugInfo", ExtInstSetDebugInfo},
		{"OpenCL.DebugInfo.100", ExtInstSetOpenCLDebugInfo100},
		{"NonSemantic.DebugPrintf", ExtInstSetDebugPrintf},
		{"OpenCL.std", ExtInstSetOpenCLStd},
		{"NonSemantic.ClspvReflection.5", ExtInstSetClspvReflection},
		{"SPV_AMD_shader_ballot", ExtInstSetAMDShaderBallot},
		{"SPV_AMD_gcn_shader", ExtInstSetAMDGCNShader},
		{"SPV_AMD_shader_explicit_vertex_parameter", ExtInstSetAMDShaderExplicitVertexParameter},
		{"SPV_AMD_shader_trinary_minmax", ExtInstSetAMDShaderTrinaryMinmax},
		{"NonSemantic.Something.Else", ExtInstSetNonSemanticUnknown},
		{"GLSL.std.450x", nil},
		{"", nil},
	}
	for _, tt := range tests {
		if got := LookupExtInstSet(tt.name); got != tt.want {
			t.Errorf("LookupExtInstSet(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
	inst, ok := ExtInstSetShaderDebugInfo100.Lookup(ShaderDebugInfoDebugLine)
	if !ok || inst.Name != "DebugLine" || len(inst.Operands) != 5 {
		t.Errorf("DebugLine = %+v", inst)
	}
	inst, ok = ExtInstSetGLSLStd450.Lookup(GLSLstd450FClamp)
	if !ok || inst.Name != "FClamp" || len(inst.Operands) != 3 {
		t.Errorf("FClamp = %+v", inst)
	}
	if _, ok := ExtInstSetGLSLStd450.Lookup(0); ok {
		t.Errorf("GLSL.std.450 instruction 0 found")
	}
	if _, ok := ExtInstSetGLSLStd450.Lookup(1 << 31); ok {
		t.Errorf("GLSL.std.450 instruction 1<<31 found")
	}
	if _, ok := ExtInstSetNonSemanticUnknown.Lookup(1); ok {
		t.Errorf("unknown set has instructions")
	}
	inst, _ = ExtInstSetOpenCLDebugInfo100.Lookup(8) // DebugTypeFunction
	if inst.Operands[0].Kind != KindOpenCLDebugInfo100DebugInfoFlags {
		t.Errorf("OpenCL.DebugInfo.100 DebugTypeFunction operands %+v", inst.Operands)
	}
}

// TestGeneratedUpToDate regenerates the tables from the grammar installed on
// this machine and compares them with tables_gen.go.
func TestGeneratedUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	const dir = "/usr/include/spirv/unified1"
	if _, err := os.Stat(filepath.Join(dir, "spirv.core.grammar.json")); err != nil {
		t.Skipf("no grammar: %v", err)
	}
	out := filepath.Join(t.TempDir(), "tables_gen.go")
	cmd := exec.Command("go", "run", "./internal/gen", "-dir", dir, "-out", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generator: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("tables_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		// The tables may come from another version of the grammar than the
		// one installed here: that is not an error of the generator.
		if digest(got) != digest(want) {
			t.Skipf("the installed grammar (%s) is not the one tables_gen.go comes from (%s)", digest(got), digest(want))
		}
		t.Errorf("tables_gen.go is stale: run go generate ./spirv")
	}
}

// digest returns the "Grammar digest" line of generated tables.
func digest(src []byte) string {
	for _, l := range bytes.Split(src, []byte("\n")) {
		if bytes.HasPrefix(l, []byte("// Grammar digest: ")) {
			return string(l[len("// Grammar digest: "):])
		}
	}
	return ""
}

// TestResultWordTables: ResultID and ResultType, which read tables, agree
// with the grammar's HasResult and HasType for every opcode, and give 0
// for an unknown opcode and for an instruction too short to hold the id.
func TestResultWordTables(t *testing.T) {
	for _, info := range Opcodes() {
		in := &Instruction{Words: []uint32{4<<16 | uint32(info.Opcode), 11, 22, 33}}
		wantType, wantID := uint32(0), uint32(0)
		switch {
		case info.HasType && info.HasResult:
			wantType, wantID = 11, 22
		case info.HasResult:
			wantID = 11
		case info.HasType:
			wantType = 11
		}
		if got := in.ResultID(); got != wantID {
			t.Errorf("%s: ResultID %d, want %d", info.Name, got, wantID)
		}
		if got := in.ResultType(); got != wantType {
			t.Errorf("%s: ResultType %d, want %d", info.Name, got, wantType)
		}
		short := &Instruction{Words: []uint32{1<<16 | uint32(info.Opcode)}}
		if short.ResultID() != 0 || short.ResultType() != 0 {
			t.Errorf("%s: a one-word instruction has a result", info.Name)
		}
	}
	unknown := &Instruction{Words: []uint32{3<<16 | 0xfffe, 1, 2}}
	if unknown.ResultID() != 0 || unknown.ResultType() != 0 {
		t.Errorf("an unknown opcode has a result")
	}
}
