package gpuav

import "testing"

// TestDescribeBDAAlignment: the address, size, access and alignment of a
// bda_alignment record, and how far past a multiple the address is.
func TestDescribeBDAAlignment(t *testing.T) {
	d := Describe(CodeBDAAlignment, [RecordParams]uint32{0xdeadbee6, 0x7f, 16, BDAWrite | BDAStruct, 8})
	want := "Misaligned access: 16 bytes written at buffer device address 0x7fdeadbee6, which is not a multiple of the access's Aligned operand 8 (6 bytes past one). The access is a whole-struct load or store."
	if d.Check != CheckBDAAlignment || d.VUID("vkCmdDispatch") != "VUID-RuntimeSpirv-PhysicalStorageBuffer64-06315" || d.Message != want {
		t.Errorf("%s %s %q\nwant %q", d.Check, d.VUID("vkCmdDispatch"), d.Message, want)
	}
	if v := d.BDA; v == nil || v.Address != 0x7fdeadbee6 || v.Size != 16 || v.Alignment != 8 || !v.Write || !v.Struct || v.Nearest != nil {
		t.Errorf("values %+v", d.BDA)
	}
	if o := FailedAccess(OnErrorClamp, CodeBDAAlignment, [RecordParams]uint32{}); o.Access != AccessSkipped ||
		o.Reason != "clamp has no meaning here (a misaligned address has no aligned place to go to)" {
		t.Errorf("clamp: %+v", o)
	}
}
