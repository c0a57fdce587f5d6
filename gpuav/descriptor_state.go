package gpuav

import "github.com/gpuav-dbg/gpuav-dbg/spirv"

// Bits of gpuav_check_descriptor's checks operand
// (shaders/descriptor_state.glsl).
const (
	stateCheckIndex     = 1 << 0
	stateCheckUninit    = 1 << 1
	stateCheckDestroyed = 1 << 2
)

// stateChecks returns the checks an access site needs from the descriptor
// state the layer writes (binding DescStateBinding), or 0 when the inline
// compare with the shader's own array length is all it needs: runtime
// arrays take their length from the state, and descriptor_uninitialized
// and descriptor_destroyed look at the element's state.
//
// Only runtime arrays (descriptor indexing, "bindless") take this path:
// their elements may legally be unwritten (PARTIALLY_BOUND) or stale
// (UPDATE_AFTER_BIND) at draw time. A sized array keeps the inline
// compare: its descriptors must all be valid when the action is recorded,
// which needs no GPU check.
func (c *context) stateChecks(s site) uint32 {
	if !s.runtime {
		return 0
	}
	var bits uint32
	oob := c.opt.enabled(CheckDescriptorIndexOOB)
	if c.opt.enabled(CheckDescriptorUninit) {
		bits |= stateCheckUninit
	}
	if c.opt.enabled(CheckDescriptorDestroyed) {
		bits |= stateCheckDestroyed
	}
	if oob && (s.runtime || bits != 0) {
		bits |= stateCheckIndex
	}
	return bits
}

// stateCheck emits the call of gpuav_check_descriptor for site s into
// head: ok is the bool "the access may go ahead", code the check code and
// length the array length (from the state, else the shader's), both for
// the report.
func (c *context) stateCheck(head *emitter, s site, idx uint32) (ok, code, length uint32, err error) {
	fn, err := c.function("gpuav_check_descriptor")
	if err != nil {
		return 0, 0, 0, err
	}
	m := c.m
	u := m.TypeUint32()
	r := head.op(spirv.OpFunctionCall, m.TypeVector(u, 2), fn,
		m.ConstantUint32(s.set), m.ConstantUint32(s.binding), idx, m.ConstantUint32(s.length),
		m.ConstantUint32(s.state))
	code = head.op(spirv.OpCompositeExtract, u, r, 0)
	length = head.op(spirv.OpCompositeExtract, u, r, 1)
	ok = head.op(spirv.OpIEqual, m.TypeBool(), code, m.ConstantUint32(0))
	return ok, code, length, nil
}
