package spirv

import (
	"errors"
	"testing"
)

// TestParseIDBound: a module whose bound is past SPIR-V's limit, or does
// not bound its ids, is refused (new ids would collide or wrap), and
// NewID never wraps.
func TestParseIDBound(t *testing.T) {
	// OpCapability Shader; OpMemoryModel Logical GLSL450; %1 = OpTypeVoid.
	module := func(bound uint32) []uint32 {
		return []uint32{MagicNumber, 0x00010300, 0, bound, 0,
			2<<16 | uint32(OpCapability), 1,
			3<<16 | uint32(OpMemoryModel), 0, 1,
			2<<16 | uint32(OpTypeVoid), 1}
	}
	for _, c := range []struct {
		bound uint32
		err   string
	}{
		{2, ""},
		{MaxIDBound, ""},
		{MaxIDBound + 1, "parse: id bound 4194304 is past SPIR-V's limit of 4194303"},
		{0xFFFFFFFF, "parse: id bound 4294967295 is past SPIR-V's limit of 4194303"},
		{1, "parse: instruction 2 defines %1, at or past the module's id bound 1"},
		{0, "parse: instruction 2 defines %1, at or past the module's id bound 0"},
	} {
		m, err := Parse(module(c.bound))
		got := ""
		if err != nil {
			got = err.Error()
			if !errors.Is(err, ErrIDBound) {
				t.Errorf("bound %d: %v does not wrap ErrIDBound", c.bound, err)
			}
		}
		if got != c.err || (err == nil) != (m != nil) {
			t.Errorf("bound %d: %q, want %q", c.bound, got, c.err)
		}
	}
	m, err := Parse(module(MaxIDBound - 1))
	if err != nil {
		t.Fatal(err)
	}
	if id := m.NewID(); id != MaxIDBound-1 {
		t.Fatalf("NewID = %d", id)
	}
	defer func() {
		r := recover()
		if err, ok := r.(error); !ok || !errors.Is(err, ErrIDBound) {
			t.Fatalf("NewID past the limit: %v, want a panic with ErrIDBound", r)
		}
	}()
	m.NewID()
}

// TestParseOperandIDs: a module that uses an id at or past its bound, in
// any place the grammar reads as an id, is refused with an error that
// names the instruction and the id, before anything indexes a table by it.
func TestParseOperandIDs(t *testing.T) {
	// %1 = OpTypeInt 32 0, then the instruction under test; bound 3.
	module := func(in ...uint32) []uint32 {
		w := []uint32{MagicNumber, 0x00010300, 0, 3, 0,
			2<<16 | uint32(OpCapability), 1,
			3<<16 | uint32(OpMemoryModel), 0, 1}
		w = append(w, in...)
		return append(w, 4<<16|uint32(OpTypeInt), 1, 32, 0)
	}
	glsl := EncodeString("GLSL.std.450")
	for _, c := range []struct {
		name string
		in   []uint32
		err  string
	}{
		{"name of an id below the bound", []uint32{3<<16 | uint32(OpName), 2, 0}, ""},
		{"name at the bound", []uint32{3<<16 | uint32(OpName), 3, 0},
			"parse: instruction 2 (OpName) uses %3, at or past the module's id bound 3"},
		{"decoration target far past", []uint32{3<<16 | uint32(OpDecorate), 0xFFFFFFF0, uint32(DecorationFlat)},
			"parse: instruction 2 (OpDecorate) uses %4294967280, at or past the module's id bound 3"},
		{"decoration parameter id", []uint32{4<<16 | uint32(OpDecorateId), 1, uint32(DecorationUniformId), 0x10000000},
			"parse: instruction 2 (OpDecorateId) uses %268435456, at or past the module's id bound 3"},
		{"extended instruction operand", append(append([]uint32{uint32(2+len(glsl))<<16 | uint32(OpExtInstImport), 2}, glsl...),
			6<<16|uint32(OpExtInst), 1, 0, 2, 4 /* FAbs */, 0x40000000),
			"parse: instruction 3 (OpExtInst) uses %1073741824, at or past the module's id bound 3"},
	} {
		_, err := Parse(module(c.in...))
		got := ""
		if err != nil {
			got = err.Error()
			if !errors.Is(err, ErrIDBound) {
				t.Errorf("%s: %v does not wrap ErrIDBound", c.name, err)
			}
		}
		if got != c.err {
			t.Errorf("%s: %q, want %q", c.name, got, c.err)
		}
	}
}
