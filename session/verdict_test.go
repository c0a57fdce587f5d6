package session

import "testing"

func TestVerdict(t *testing.T) {
	u := func(v uint32) *uint32 { return &v }
	skipped := &Outcome{Access: "skipped"}
	for _, c := range []struct {
		g    ErrorGroup
		want string
	}{
		{ErrorGroup{Check: "descriptor_index_oob", Descriptor: &Descriptor{Index: 5, ArrayLength: 4}, Outcome: skipped},
			"index 5 of an array of 4 descriptors — skipped (a load reads 0, a store is dropped)"},
		{ErrorGroup{Check: "descriptor_index_oob", Descriptor: &Descriptor{Index: 5, ArrayLength: 1}, Outcome: &Outcome{Access: "clamped", ClampedTo: u(0)}},
			"index 5 of an array of 1 descriptor — clamped to index 0"},
		{ErrorGroup{Check: "buffer_oob", Descriptor: &Descriptor{}, Buffer: &Buffer{Offset: 32, Size: 4, Range: 32}, Outcome: skipped},
			"4-byte read at byte 32 of a 32-byte bound range — skipped, read 0"},
		{ErrorGroup{Check: "buffer_oob", Descriptor: &Descriptor{}, Buffer: &Buffer{Offset: 32, Size: 16, Range: 32, Write: true}, Outcome: skipped},
			"16-byte write at byte 32 of a 32-byte bound range — skipped, the write dropped"},
		{ErrorGroup{Check: "buffer_oob", Descriptor: &Descriptor{}, Buffer: &Buffer{Offset: 32, Size: 4, Range: 32},
			Outcome: &Outcome{Access: "clamped", ClampedTo: u(28)}}, "4-byte read at byte 32 of a 32-byte bound range — clamped to byte offset 28"},
		{ErrorGroup{Check: "texel_buffer_oob", Descriptor: &Descriptor{}, Texel: &Texel{Texel: 10, Count: 8}, Outcome: &Outcome{Access: "executed"}},
			"read of texel 10 of a 8-texel view — executed as written"},
		{ErrorGroup{Check: "bda_oob", BDA: &BDA{Address: "0x1000", Size: 4, Write: true},
			Outcome: &Outcome{Access: "skipped", Reason: "clamp has no meaning here (the address is outside every buffer)"}},
			"4-byte write at 0x1000, in no buffer — skipped: clamp has no meaning here (the address is outside every buffer)"},
		{ErrorGroup{Check: "descriptor_uninitialized", Descriptor: &Descriptor{Set: 1, Binding: 2, Index: 3}, Outcome: skipped},
			"descriptor 3 of set 1, binding 2 was never written — skipped (a load reads 0, a store is dropped)"},
		{ErrorGroup{Check: "index_buffer_oob", MessageText: "index_buffer_oob: vkCmdDrawIndexed reads indices 0..5,\nbut the buffer holds 3. VUID-x.",
			IndexBuffer: &IndexBuffer{Skipped: true}}, "vkCmdDrawIndexed reads indices 0..5, but the buffer holds 3 — the draw was skipped"},
		{ErrorGroup{Check: "indirect_command", MessageText: "indirect_command: groupCountX is 65536. Command buffer 0x5", Indirect: &Indirect{}},
			"groupCountX is 65536 — ran as recorded"},
		{ErrorGroup{Check: "ray_query", MessageText: "ray_query: tmin > tmax. VUID-y"}, "tmin > tmax"},
	} {
		if got := c.g.Verdict(); got != c.want {
			t.Errorf("%s: %q\nwant %q", c.g.Check, got, c.want)
		}
	}
}
