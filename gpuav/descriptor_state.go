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
// Runtime arrays call gpuav_check_descriptor at each access. Sized arrays
// and plain bindings take the state path only for the element checks
// (uninitialized, destroyed), through the hoisted lookup of elementCheck:
// the shader cannot know whether the binding is PARTIALLY_BOUND or
// UPDATE_AFTER_BIND, and an unwritten or destroyed descriptor that is
// dynamically used is invalid whatever the flags say, so every such
// access is checked when those checks are on.
func stateChecks(opt Options, s site) uint32 {
	var bits uint32
	oob := opt.enabled(CheckDescriptorIndexOOB)
	if opt.enabled(CheckDescriptorUninit) {
		bits |= stateCheckUninit
	}
	if opt.enabled(CheckDescriptorDestroyed) {
		bits |= stateCheckDestroyed
	}
	if !s.runtime && (bits == 0 || !opt.SizedElementChecks) {
		return 0
	}
	if oob && !s.plain {
		bits |= stateCheckIndex
	}
	return bits
}

// elementCheck emits the call of gpuav_desc_element for a sized array or
// plain binding site into head, the binding's gpuav_desc_binding lookup
// into the function's entry block (once per binding). ok, code and length
// are as stateCheck's.
func (p *descriptorChecker) elementCheck(fn *function, head *emitter, s site, idx uint32) (ok, code, length uint32) {
	sh, m := p.sh, p.sh.m
	fns := sh.lib.functions("gpuav_desc_binding", "gpuav_desc_element")
	u := m.TypeUint32()
	key := [2]uint32{s.set, s.binding}
	bind, found := p.bindings[key]
	if !found {
		bind = fn.entry.op(spirv.OpFunctionCall, m.TypeVector(u, 3), fns[0],
			m.ConstantUint32(s.set), m.ConstantUint32(s.binding))
		p.bindings[key] = bind
	}
	r := head.op(spirv.OpFunctionCall, m.TypeVector(u, 2), fns[1],
		bind, idx, s.lengthOperand(head), m.ConstantUint32(s.state))
	code = head.op(spirv.OpCompositeExtract, u, r, 0)
	length = head.op(spirv.OpCompositeExtract, u, r, 1)
	ok = head.op(spirv.OpIEqual, m.TypeBool(), code, m.ConstantUint32(0))
	return ok, code, length
}

// stateCheck emits the call of gpuav_check_descriptor for site s into
// head: ok is the bool "the access may go ahead", code the check code and
// length the array length (from the state, else the shader's), both for
// the report.
func (p *descriptorChecker) stateCheck(head *emitter, s site, idx uint32) (ok, code, length uint32) {
	m := p.sh.m
	fn := p.sh.lib.function("gpuav_check_descriptor")
	u := m.TypeUint32()
	r := head.op(spirv.OpFunctionCall, m.TypeVector(u, 2), fn,
		m.ConstantUint32(s.set), m.ConstantUint32(s.binding), idx, m.ConstantUint32(s.length),
		m.ConstantUint32(s.state))
	code = head.op(spirv.OpCompositeExtract, u, r, 0)
	length = head.op(spirv.OpCompositeExtract, u, r, 1)
	ok = head.op(spirv.OpIEqual, m.TypeBool(), code, m.ConstantUint32(0))
	return ok, code, length
}
