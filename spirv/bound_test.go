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
