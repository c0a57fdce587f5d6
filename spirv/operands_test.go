package spirv

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"
)

// inst builds an instruction's words from an opcode and operand words.
func inst(op Opcode, operands ...uint32) []uint32 {
	return NewInstruction(op, operands...).Words
}

// cat joins operand words, strings included.
func cat(parts ...any) []uint32 {
	var w []uint32
	for _, p := range parts {
		switch p := p.(type) {
		case uint32:
			w = append(w, p)
		case int:
			w = append(w, uint32(p))
		case string:
			w = append(w, EncodeString(p)...)
		case []uint32:
			w = append(w, p...)
		default:
			panic("cat: bad part")
		}
	}
	return w
}

// testCtx is an OperandContext with fixed answers.
type testCtx struct {
	widths map[uint32]int
	sets   map[uint32]*ExtInstSet
}

func (c testCtx) LiteralWidth(id uint32) int       { return c.widths[id] }
func (c testCtx) ExtInstSet(id uint32) *ExtInstSet { return c.sets[id] }

// span is an operand's kind and word span, for comparisons.
type span struct {
	Kind       OperandKind
	Start, Len int
}

func spans(ops []Operand) []span {
	var s []span
	for _, o := range ops {
		s = append(s, span{o.Kind, o.Start, o.Len})
	}
	return s
}

// checkCover fails unless ops cover words[1:] in order without gaps.
func checkCover(t testing.TB, words []uint32, ops []Operand) {
	t.Helper()
	pos := 1
	for _, o := range ops {
		if o.Start != pos || o.Len <= 0 {
			t.Fatalf("operand %+v does not start at word %d (operands %v)", o, pos, spans(ops))
		}
		pos += o.Len
	}
	if pos != len(words) && len(words) > 0 {
		t.Fatalf("operands end at word %d of %d", pos, len(words))
	}
}

func TestOperands(t *testing.T) {
	ctx := testCtx{
		widths: map[uint32]int{50: 2},
		sets: map[uint32]*ExtInstSet{
			1: ExtInstSetGLSLStd450,
			2: ExtInstSetShaderDebugInfo100,
			3: ExtInstSetNonSemanticUnknown,
			4: ExtInstSetOpenCLDebugInfo100,
		},
	}
	const (
		id   = KindIdRef
		typ  = KindIdResultType
		res  = KindIdResult
		lit  = KindLiteralInteger
		str  = KindLiteralString
		num  = KindLiteralContextDependentNumber
		unk  = KindUnknownWord
		none = OperandKind(0)
	)
	tests := []struct {
		name  string
		words []uint32
		ctx   OperandContext
		want  []span
		err   error
	}{
		{"nop", inst(OpNop), nil, nil, nil},
		{"load", inst(OpLoad, 5, 6, 7), nil, []span{{typ, 1, 1}, {res, 2, 1}, {id, 3, 1}}, nil},
		{"load aligned", inst(OpLoad, 5, 6, 7, uint32(MemoryAccessVolatile|MemoryAccessAligned), 16), nil,
			[]span{{typ, 1, 1}, {res, 2, 1}, {id, 3, 1}, {KindMemoryAccess, 4, 1}, {lit, 5, 1}}, nil},
		{"copy memory two masks", inst(OpCopyMemory, 1, 2, uint32(MemoryAccessAligned), 4, uint32(MemoryAccessAligned), 8), nil,
			[]span{{id, 1, 1}, {id, 2, 1}, {KindMemoryAccess, 3, 1}, {lit, 4, 1}, {KindMemoryAccess, 5, 1}, {lit, 6, 1}}, nil},
		{"decorate builtin", inst(OpDecorate, 9, uint32(DecorationBuiltIn), uint32(BuiltInFragCoord)), nil,
			[]span{{id, 1, 1}, {KindDecoration, 2, 1}, {KindBuiltIn, 3, 1}}, nil},
		{"decorate binding", inst(OpDecorate, 9, uint32(DecorationBinding), 3), nil,
			[]span{{id, 1, 1}, {KindDecoration, 2, 1}, {lit, 3, 1}}, nil},
		{"decorate block", inst(OpDecorate, 9, uint32(DecorationBlock)), nil, []span{{id, 1, 1}, {KindDecoration, 2, 1}}, nil},
		{"decorate id uniform id", inst(OpDecorateId, 9, uint32(DecorationUniformId), 10), nil,
			[]span{{id, 1, 1}, {KindDecoration, 2, 1}, {KindIdScope, 3, 1}}, nil},
		{"decorate string", inst(OpDecorateString, cat(9, uint32(DecorationUserSemantic), "abcd")...), nil,
			[]span{{id, 1, 1}, {KindDecoration, 2, 1}, {str, 3, 2}}, nil},
		{"decorate unknown", inst(OpDecorate, 9, 77777, 1, 2), nil,
			[]span{{id, 1, 1}, {KindDecoration, 2, 1}, {unk, 3, 1}, {unk, 4, 1}}, ErrUnknownEnumerant},
		{"member decorate offset", inst(OpMemberDecorate, 9, 1, uint32(DecorationOffset), 16), nil,
			[]span{{id, 1, 1}, {lit, 2, 1}, {KindDecoration, 3, 1}, {lit, 4, 1}}, nil},
		{"image operands in bit order", inst(OpImageSampleImplicitLod, 1, 2, 3, 4, uint32(ImageOperandsBias|ImageOperandsGrad|ImageOperandsMinLod), 10, 11, 12, 13), nil,
			[]span{{typ, 1, 1}, {res, 2, 1}, {id, 3, 1}, {id, 4, 1}, {KindImageOperands, 5, 1}, {id, 6, 1}, {id, 7, 1}, {id, 8, 1}, {id, 9, 1}}, nil},
		{"image operands missing param", inst(OpImageSampleImplicitLod, 1, 2, 3, 4, uint32(ImageOperandsGrad), 10), nil,
			[]span{{typ, 1, 1}, {res, 2, 1}, {id, 3, 1}, {id, 4, 1}, {KindImageOperands, 5, 1}, {id, 6, 1}}, ErrMalformed},
		{"loop merge params", inst(OpLoopMerge, 1, 2, uint32(LoopControlDependencyLength|LoopControlMinIterations), 4, 2), nil,
			[]span{{id, 1, 1}, {id, 2, 1}, {KindLoopControl, 3, 1}, {lit, 4, 1}, {lit, 5, 1}}, nil},
		{"execution mode local size", inst(OpExecutionMode, 1, uint32(ExecutionModeLocalSize), 8, 8, 1), nil,
			[]span{{id, 1, 1}, {KindExecutionMode, 2, 1}, {lit, 3, 1}, {lit, 4, 1}, {lit, 5, 1}}, nil},
		{"execution mode id", inst(OpExecutionModeId, 1, uint32(ExecutionModeLocalSizeId), 8, 8, 1), nil,
			[]span{{id, 1, 1}, {KindExecutionMode, 2, 1}, {id, 3, 1}, {id, 4, 1}, {id, 5, 1}}, nil},
		{"name 3 chars", inst(OpName, cat(1, "abc")...), nil, []span{{id, 1, 1}, {str, 2, 1}}, nil},
		{"name 4 chars", inst(OpName, cat(1, "abcd")...), nil, []span{{id, 1, 1}, {str, 2, 2}}, nil},
		{"name empty", inst(OpName, cat(1, "")...), nil, []span{{id, 1, 1}, {str, 2, 1}}, nil},
		{"name unterminated", inst(OpName, 1, 0x61616161), nil, []span{{id, 1, 1}, {unk, 2, 1}}, ErrMalformed},
		{"entry point", inst(OpEntryPoint, cat(uint32(ExecutionModelGLCompute), 4, "main", 5, 6)...), nil,
			[]span{{KindExecutionModel, 1, 1}, {id, 2, 1}, {str, 3, 2}, {id, 5, 1}, {id, 6, 1}}, nil},
		{"source", inst(OpSource, cat(uint32(SourceLanguageGLSL), 450, 3, "x")...), nil,
			[]span{{KindSourceLanguage, 1, 1}, {lit, 2, 1}, {id, 3, 1}, {str, 4, 1}}, nil},
		{"source short", inst(OpSource, uint32(SourceLanguageGLSL), 450), nil, []span{{KindSourceLanguage, 1, 1}, {lit, 2, 1}}, nil},
		{"constant 32", inst(OpConstant, 1, 2, 3), nil, []span{{typ, 1, 1}, {res, 2, 1}, {num, 3, 1}}, nil},
		{"constant 64", inst(OpConstant, 1, 2, 3, 4), nil, []span{{typ, 1, 1}, {res, 2, 1}, {num, 3, 2}}, nil},
		{"spec constant op", inst(OpSpecConstantOp, 1, 2, uint32(OpIAdd), 3, 4), nil,
			[]span{{typ, 1, 1}, {res, 2, 1}, {KindLiteralSpecConstantOpInteger, 3, 1}, {id, 4, 1}, {id, 5, 1}}, nil},
		{"spec constant op extract", inst(OpSpecConstantOp, 1, 2, uint32(OpCompositeExtract), 3, 0, 1), nil,
			[]span{{typ, 1, 1}, {res, 2, 1}, {KindLiteralSpecConstantOpInteger, 3, 1}, {id, 4, 1}, {lit, 5, 1}, {lit, 6, 1}}, nil},
		{"spec constant op unknown", inst(OpSpecConstantOp, 1, 2, 9999, 3), nil,
			[]span{{typ, 1, 1}, {res, 2, 1}, {KindLiteralSpecConstantOpInteger, 3, 1}, {unk, 4, 1}}, ErrUnknownOpcode},
		{"switch 32", inst(OpSwitch, 7, 8, 1, 9, 2, 10), ctx,
			[]span{{id, 1, 1}, {id, 2, 1}, {num, 3, 1}, {id, 4, 1}, {num, 5, 1}, {id, 6, 1}}, nil},
		{"switch 64", inst(OpSwitch, 50, 8, 1, 0, 9, 2, 0, 10), ctx,
			[]span{{id, 1, 1}, {id, 2, 1}, {num, 3, 2}, {id, 5, 1}, {num, 6, 2}, {id, 8, 1}}, nil},
		{"switch 64 without context", inst(OpSwitch, 50, 8, 1, 0, 9), nil,
			[]span{{id, 1, 1}, {id, 2, 1}, {num, 3, 1}, {id, 4, 1}, {num, 5, 1}}, ErrMalformed},
		{"phi", inst(OpPhi, 1, 2, 3, 4, 5, 6), nil,
			[]span{{typ, 1, 1}, {res, 2, 1}, {id, 3, 1}, {id, 4, 1}, {id, 5, 1}, {id, 6, 1}}, nil},
		{"group member decorate", inst(OpGroupMemberDecorate, 1, 2, 0, 3, 1), nil,
			[]span{{id, 1, 1}, {id, 2, 1}, {lit, 3, 1}, {id, 4, 1}, {lit, 5, 1}}, nil},
		{"ext inst glsl", inst(OpExtInst, 1, 2, 1, GLSLstd450FClamp, 3, 4, 5), ctx,
			[]span{{typ, 1, 1}, {res, 2, 1}, {id, 3, 1}, {KindLiteralExtInstInteger, 4, 1}, {id, 5, 1}, {id, 6, 1}, {id, 7, 1}}, nil},
		{"ext inst glsl too many", inst(OpExtInst, 1, 2, 1, GLSLstd450FClamp, 3, 4, 5, 6), ctx,
			[]span{{typ, 1, 1}, {res, 2, 1}, {id, 3, 1}, {KindLiteralExtInstInteger, 4, 1}, {id, 5, 1}, {id, 6, 1}, {id, 7, 1}, {unk, 8, 1}}, ErrMalformed},
		{"ext inst glsl unknown number", inst(OpExtInst, 1, 2, 1, 9999, 3), ctx,
			[]span{{typ, 1, 1}, {res, 2, 1}, {id, 3, 1}, {KindLiteralExtInstInteger, 4, 1}, {unk, 5, 1}}, ErrUnknownExtInst},
		{"ext inst debug line", inst(OpExtInst, 1, 2, 2, ShaderDebugInfoDebugLine, 3, 4, 5, 6, 7), ctx,
			[]span{{typ, 1, 1}, {res, 2, 1}, {id, 3, 1}, {KindLiteralExtInstInteger, 4, 1}, {id, 5, 1}, {id, 6, 1}, {id, 7, 1}, {id, 8, 1}, {id, 9, 1}}, nil},
		{"ext inst non-semantic extra ids", inst(OpExtInst, 1, 2, 2, ShaderDebugInfoDebugNoScope, 3), ctx,
			[]span{{typ, 1, 1}, {res, 2, 1}, {id, 3, 1}, {KindLiteralExtInstInteger, 4, 1}, {id, 5, 1}}, nil},
		{"ext inst non-semantic unknown set", inst(OpExtInst, 1, 2, 3, 42, 3, 4), ctx,
			[]span{{typ, 1, 1}, {res, 2, 1}, {id, 3, 1}, {KindLiteralExtInstInteger, 4, 1}, {id, 5, 1}, {id, 6, 1}}, nil},
		{"ext inst unknown set", inst(OpExtInst, 1, 2, 9, 42, 3, 4), ctx,
			[]span{{typ, 1, 1}, {res, 2, 1}, {id, 3, 1}, {KindLiteralExtInstInteger, 4, 1}, {unk, 5, 1}, {unk, 6, 1}}, ErrUnknownExtInst},
		{"ext inst no context", inst(OpExtInst, 1, 2, 1, GLSLstd450FClamp, 3), nil,
			[]span{{typ, 1, 1}, {res, 2, 1}, {id, 3, 1}, {KindLiteralExtInstInteger, 4, 1}, {unk, 5, 1}}, ErrUnknownExtInst},
		{"ext inst cl debug flags", inst(OpExtInst, 1, 2, 4, 8, 3, 4, 5), ctx,
			[]span{{typ, 1, 1}, {res, 2, 1}, {id, 3, 1}, {KindLiteralExtInstInteger, 4, 1}, {KindOpenCLDebugInfo100DebugInfoFlags, 5, 1}, {id, 6, 1}, {id, 7, 1}}, nil},
		{"ext inst cl debug source language", inst(OpExtInst, 1, 2, 4, 1, 2, 4, 5, uint32(SourceLanguageOpenCL_C)), ctx,
			[]span{{typ, 1, 1}, {res, 2, 1}, {id, 3, 1}, {KindLiteralExtInstInteger, 4, 1}, {lit, 5, 1}, {lit, 6, 1}, {id, 7, 1}, {KindSourceLanguage, 8, 1}}, nil},
		{"missing operands", inst(OpLoad, 5, 6), nil, []span{{typ, 1, 1}, {res, 2, 1}}, ErrMalformed},
		{"missing result", inst(OpLoad, 5), nil, []span{{typ, 1, 1}}, ErrMalformed},
		{"left over", inst(OpReturn, 1), nil, []span{{unk, 1, 1}}, ErrMalformed},
		{"unknown opcode", inst(Opcode(9999), 1, 2), nil, []span{{unk, 1, 1}, {unk, 2, 1}}, ErrUnknownOpcode},
		{"word count mismatch", []uint32{5<<16 | uint32(OpNop)}, nil, nil, ErrMalformed},
		{"empty", nil, nil, nil, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops, err := Operands(tt.words, tt.ctx)
			if !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
				t.Errorf("error %v, want %v", err, tt.err)
			}
			if got := spans(ops); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("operands\n got %v\nwant %v", got, tt.want)
			}
			checkCover(t, tt.words, ops)
		})
	}
}

func TestOperandNames(t *testing.T) {
	ops, err := Operands(inst(OpLoad, 5, 6, 7), nil)
	if err != nil {
		t.Fatal(err)
	}
	if ops[2].Name != "Pointer" {
		t.Errorf("OpLoad pointer operand named %q", ops[2].Name)
	}
}

func TestForEachID(t *testing.T) {
	ctx := testCtx{sets: map[uint32]*ExtInstSet{1: ExtInstSetGLSLStd450}}
	tests := []struct {
		name  string
		words []uint32
		want  []int
	}{
		{"load aligned", inst(OpLoad, 5, 6, 7, uint32(MemoryAccessAligned), 16), []int{1, 2, 3}},
		{"image operands", inst(OpImageSampleExplicitLod, 1, 2, 3, 4, uint32(ImageOperandsLod|ImageOperandsConstOffset), 5, 6), []int{1, 2, 3, 4, 6, 7}},
		{"decorate uniform id", inst(OpDecorateId, 9, uint32(DecorationUniformId), 10), []int{1, 3}},
		{"switch", inst(OpSwitch, 7, 8, 1, 9, 2, 10), []int{1, 2, 4, 6}},
		{"phi", inst(OpPhi, 1, 2, 3, 4, 5, 6), []int{1, 2, 3, 4, 5, 6}},
		{"group member decorate", inst(OpGroupMemberDecorate, 1, 2, 0, 3, 1), []int{1, 2, 4}},
		{"ext inst", inst(OpExtInst, 1, 2, 1, GLSLstd450FClamp, 3, 4, 5), []int{1, 2, 3, 5, 6, 7}},
		{"control barrier", inst(OpControlBarrier, 1, 2, 3), []int{1, 2, 3}},
		{"entry point", inst(OpEntryPoint, cat(uint32(ExecutionModelGLCompute), 4, "main", 5, 6)...), []int{2, 5, 6}},
		{"type int", inst(OpTypeInt, 1, 32, 0), []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []int
			if err := ForEachID(tt.words, ctx, func(i int) { got = append(got, i) }); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ids at %v, want %v", got, tt.want)
			}
		})
	}
}

// walkedIDs is ForEachID by the grammar walk alone: the reference for
// its shortcut over instructions of id operands only.
func walkedIDs(words []uint32, ctx OperandContext) ([]int, error) {
	ops, err := AppendOperands(nil, words, ctx)
	var ids []int
	for _, o := range ops {
		if o.Kind.IsID() {
			ids = append(ids, o.Start)
		}
	}
	return ids, err
}

// TestForEachIDShortcuts: for every opcode, and every instruction of every
// known extended instruction set, at every word count from one word to
// five past its fixed operands and with a word count that does not match,
// with and without an operand context, ForEachID reports the ids and the
// error the grammar walk finds (its shortcuts, for id-only operands and for
// operands at fixed places, change nothing), and the shortcuts cover the
// instructions they were made for.
func TestForEachIDShortcuts(t *testing.T) {
	sets := map[uint32]*ExtInstSet{}
	for i, set := range ExtInstSets {
		sets[uint32(200+i)] = set
	}
	ctxs := []OperandContext{nil, testCtx{sets: sets}}
	allIDShortcuts, layouts := 0, map[Opcode]int{}
	check := func(name string, words []uint32) {
		t.Helper()
		for _, ctx := range ctxs {
			want, wantErr := walkedIDs(words, ctx)
			var got []int
			err := ForEachID(words, ctx, func(i int) { got = append(got, i) })
			if !reflect.DeepEqual(got, want) || (err == nil) != (wantErr == nil) {
				t.Fatalf("%s, words %v, context %v: ids %v err %v, the walk finds %v err %v", name, words, ctx, got, err, want, wantErr)
			}
			switch {
			case allIDs(words):
				allIDShortcuts++
			case fixedLayout(words, ctx) != nil:
				layouts[Opcode(words[0]&0xffff)]++
			}
		}
	}
	for _, info := range Opcodes() {
		for n := 1; n <= 12; n++ {
			for _, count := range []int{n, n + 1} {
				words := make([]uint32, n)
				for i := range words {
					words[i] = uint32(100 + i)
				}
				words[0] = uint32(count)<<16 | uint32(info.Opcode)
				check(info.Name, words)
				if info.Opcode != OpExtInst || n <= 4 {
					continue
				}
				for setID, set := range sets {
					for num := range set.Insts {
						words[3], words[4] = setID, uint32(num)
						check(set.Name+" "+set.Insts[num].Name, words)
					}
				}
			}
		}
	}
	if allIDShortcuts < 1000 {
		t.Errorf("the id-only shortcut took %d instructions: it no longer covers the value instructions", allIDShortcuts)
	}
	for _, op := range []Opcode{OpLine, OpCompositeExtract, OpVectorShuffle, OpSelectionMerge, OpVariable, OpConstant, OpExtInst, OpTypePointer} {
		if layouts[op] == 0 {
			t.Errorf("%v never takes the layout shortcut", op)
		}
	}
}

func testModules(t testing.TB) map[string][]uint32 {
	files, err := filepath.Glob("testdata/print/*.spv")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test modules: %v", err)
	}
	m := map[string][]uint32{}
	for _, f := range files {
		m[filepath.Base(f)] = readModule(t, f)
	}
	return m
}

// TestOperandsModules walks every instruction of the test modules: none may
// leave words over or fail.
func TestOperandsModules(t *testing.T) {
	for name, w := range testModules(t) {
		t.Run(name, func(t *testing.T) {
			p, err := NewPrinter(w)
			if err != nil {
				t.Fatal(err)
			}
			_, insts, err := ParseInstructions(w)
			if err != nil {
				t.Fatal(err)
			}
			var ops []Operand
			for _, in := range insts {
				ops, err = AppendOperands(ops[:0], in.Words, p)
				if err != nil {
					t.Errorf("instruction %d (%v): %v", in.OrigIndex, in.Opcode(), err)
				}
				checkCover(t, in.Words, ops)
				for _, o := range ops {
					if o.Kind == KindUnknownWord {
						t.Errorf("instruction %d (%v): unknown word at %d", in.OrigIndex, in.Opcode(), o.Start)
					}
				}
				// ForEachID reports exactly the id operands, and a result id
				// where the instruction has one.
				var ids []int
				if err := ForEachID(in.Words, p, func(i int) { ids = append(ids, i) }); err != nil {
					t.Errorf("ForEachID: %v", err)
				}
				if r := in.ResultID(); r != 0 {
					found := false
					for _, i := range ids {
						if in.Words[i] == r {
							found = true
						}
					}
					if !found {
						t.Errorf("instruction %d: result id %d not reported", in.OrigIndex, r)
					}
				}
			}
		})
	}
}

func TestForEachIDAllocs(t *testing.T) {
	w := inst(OpImageSampleExplicitLod, 1, 2, 3, 4, uint32(ImageOperandsLod|ImageOperandsConstOffset), 5, 6)
	n := 0
	allocs := testing.AllocsPerRun(100, func() {
		_ = ForEachID(w, nil, func(int) { n++ })
	})
	if allocs != 0 {
		t.Errorf("ForEachID allocates %v times per call", allocs)
	}
	var buf []Operand
	allocs = testing.AllocsPerRun(100, func() {
		buf, _ = AppendOperands(buf[:0], w, nil)
	})
	if allocs != 0 {
		t.Errorf("AppendOperands into a reused slice allocates %v times per call", allocs)
	}
}

func FuzzOperands(f *testing.F) {
	for _, w := range testModules(f) {
		_, insts, err := ParseInstructions(w)
		if err != nil {
			f.Fatal(err)
		}
		for i, in := range insts {
			if i%7 == 0 {
				f.Add(BytesFromWords(in.Words))
			}
		}
	}
	f.Add(BytesFromWords(inst(OpSwitch, 50, 8, 1, 0, 9)))
	f.Add(BytesFromWords(inst(OpExtInst, 1, 2, 2, ShaderDebugInfoDebugLine, 3)))
	f.Add(BytesFromWords(inst(OpSpecConstantOp, 1, 2, uint32(OpSpecConstantOp), 3)))
	ctx := testCtx{
		widths: map[uint32]int{50: 2, 51: 100},
		sets:   map[uint32]*ExtInstSet{1: ExtInstSetGLSLStd450, 2: ExtInstSetShaderDebugInfo100, 3: ExtInstSetNonSemanticUnknown, 4: ExtInstSetOpenCLDebugInfo100},
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		words := make([]uint32, len(b)/4)
		for i := range words {
			words[i] = uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24
		}
		for _, c := range []OperandContext{nil, ctx} {
			ops, _ := Operands(words, c)
			checkCover(t, words, ops)
			var ids []int
			err := ForEachID(words, c, func(i int) {
				if i <= 0 || i >= len(words) {
					t.Fatalf("id index %d out of range", i)
				}
				ids = append(ids, i)
			})
			if want, wantErr := walkedIDs(words, c); !reflect.DeepEqual(ids, want) || (err == nil) != (wantErr == nil) {
				t.Fatalf("ForEachID: ids %v err %v, the walk finds %v err %v", ids, err, want, wantErr)
			}
		}
		if len(words) > 0 {
			// The printer must not panic either.
			p := &Printer{names: map[uint32]string{}, used: map[string]bool{}, typeOf: map[uint32]uint32{}, numTypes: map[uint32]numType{}, sets: map[uint32]*ExtInstSet{}}
			p.learn(words)
			_, _ = p.AppendInstruction(nil, words, true)
		}
	})
}

func BenchmarkOperands(b *testing.B) {
	w := readModule(b, "testdata/print/debuginfo.spv")
	p, err := NewPrinter(w)
	if err != nil {
		b.Fatal(err)
	}
	_, insts, _ := ParseInstructions(w)
	b.ReportAllocs()
	b.ResetTimer()
	var ops []Operand
	for i := 0; i < b.N; i++ {
		for _, in := range insts {
			ops, _ = AppendOperands(ops[:0], in.Words, p)
		}
	}
	b.ReportMetric(float64(len(insts)), "insts/op")
}

func BenchmarkForEachID(b *testing.B) {
	w := readModule(b, "testdata/print/debuginfo.spv")
	p, err := NewPrinter(w)
	if err != nil {
		b.Fatal(err)
	}
	_, insts, _ := ParseInstructions(w)
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		for _, in := range insts {
			_ = ForEachID(in.Words, p, func(int) { n++ })
		}
	}
}
