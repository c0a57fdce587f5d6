package gpuav

import "testing"

// TestIDBits: the set answers for ids below, inside and past its range,
// at word boundaries, and after a removal.
func TestIDBits(t *testing.T) {
	s := newIDBits([]uint32{70, 7, 134, 71})
	for _, tc := range []struct {
		id   uint32
		want bool
	}{{0, false}, {6, false}, {7, true}, {8, false}, {70, true}, {71, true}, {72, false}, {133, false}, {134, true}, {135, false}, {1 << 31, false}} {
		if got := s.has(tc.id); got != tc.want {
			t.Errorf("has(%d) = %v, want %v", tc.id, got, tc.want)
		}
	}
	s.remove(70)
	s.remove(9999) // not there: nothing happens
	if s.has(70) || !s.has(71) || !s.has(7) {
		t.Errorf("after remove(70): has 70 %v, 71 %v, 7 %v; want false, true, true", s.has(70), s.has(71), s.has(7))
	}
	var empty idBits
	if empty.has(0) || newIDBits(nil).has(5) {
		t.Error("an empty set has an id")
	}
}
