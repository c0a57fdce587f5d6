package wire

import (
	"slices"
	"testing"
)

// TestPrintfSiteLines: lines appended come back with their stage words and
// arguments; Check refuses bytes that are not whole lines and too many
// arguments.
func TestPrintfSiteLines(t *testing.T) {
	s := PrintfSite{Args: 2}
	s.AppendLine([3]uint32{1, 2, 3}, []uint32{10, 0xffffffff})
	s.AppendLine([3]uint32{4, 5, 6}, []uint32{11, 12})
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if s.Count() != 2 {
		t.Fatalf("Count %d, want 2", s.Count())
	}
	args := make([]uint32, 2)
	if st := s.Line(1, args); st != [3]uint32{4, 5, 6} || !slices.Equal(args, []uint32{11, 12}) {
		t.Errorf("line 1: stage %v args %v", st, args)
	}
	if st := s.Line(0, args); st != [3]uint32{1, 2, 3} || !slices.Equal(args, []uint32{10, 0xffffffff}) {
		t.Errorf("line 0: stage %v args %v", st, args)
	}
	for _, bad := range []PrintfSite{
		{Args: 1, Lines: make([]byte, 15)},
		{Args: 0, Lines: make([]byte, 13)},
		{Args: MaxPrintfArgs + 1},
	} {
		if bad.Check() == nil {
			t.Errorf("Check(args %d, %d bytes): no error", bad.Args, len(bad.Lines))
		}
	}
}
