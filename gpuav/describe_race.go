package gpuav

import (
	"fmt"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// RaceValues describe a shared_memory_race hazard: two accesses of two
// invocations of one workgroup to one scalar of a shared variable, with
// no workgroup barrier between them. Local is the invocation of the
// record (the later access, whose instruction the record names), Other
// the earlier one.
type RaceValues struct {
	// Kind is "read-after-write", "write-after-read" or "write-after-write".
	Kind string
	// Variable is the Workgroup variable's result id in the module; Slot
	// the scalar in it, numbered in declaration order (SharedElement
	// names it).
	Variable, Slot uint32
	// LocalIndex and OtherLocalIndex are the invocations'
	// gl_LocalInvocationIndex.
	LocalIndex, OtherLocalIndex uint32
	// WorkgroupSize is the workgroup's x and y size (for the local ids).
	WorkgroupSize [2]uint32
	// OtherInstruction is the earlier access's instruction in the
	// original module (NoInstruction: not known).
	OtherInstruction    uint32
	Atomic, OtherAtomic bool
}

// LocalID returns a local invocation index as gl_LocalInvocationID.
func (r *RaceValues) LocalID(index uint32) [3]uint32 {
	x, y := max(r.WorkgroupSize[0], 1), max(r.WorkgroupSize[1], 1)
	return [3]uint32{index % x, index / x % y, index / (x * y)}
}

// raceKinds names the hazard codes.
var raceKinds = map[CheckCode]string{
	CodeSharedRaceRAW: "read-after-write",
	CodeSharedRaceWAR: "write-after-read",
	CodeSharedRaceWAW: "write-after-write",
}

// describeSharedRace fills in a shared_memory_race hazard, naming the
// variable by its id and the element by its slot (DescribeShared names
// them from the module).
func describeSharedRace(d *Description, code CheckCode, p [RecordParams]uint32) {
	describeShared(d, code, p, SharedElementName{Variable: fmt.Sprintf("%%%d", p[0]), Element: fmt.Sprintf("%%%d slot %d", p[0], p[1])})
}

// DescribeShared is Describe for a shared_memory_race record with the
// variable and element named (SharedElement).
func DescribeShared(code CheckCode, p [RecordParams]uint32, name SharedElementName) Description {
	d := Description{Check: code.CheckID()}
	describeShared(&d, code, p, name)
	return d
}

func describeShared(d *Description, code CheckCode, p [RecordParams]uint32, name SharedElementName) {
	r := &RaceValues{Kind: raceKinds[code], Variable: p[0], Slot: p[1], OtherInstruction: p[2],
		LocalIndex: p[3] & 0xffff, OtherLocalIndex: p[3] >> 16, WorkgroupSize: [2]uint32{p[4] & 0xffff, p[4] >> 16},
		Atomic: p[5]&1 != 0, OtherAtomic: p[5]&2 != 0}
	d.Race = r
	// The memory model's data race: no VUID names it.
	d.FullVUID = RaceVUID
	verb := func(write, atomic bool) string {
		v := "read"
		if write {
			v = "wrote"
		}
		if atomic {
			v = "atomically " + v
		}
		return v
	}
	first, second := code != CodeSharedRaceWAR, code != CodeSharedRaceRAW
	id := func(i uint32) string {
		l := r.LocalID(i)
		return fmt.Sprintf("(%d, %d, %d)", l[0], l[1], l[2])
	}
	other := "another access"
	if r.OtherInstruction != NoInstruction {
		other = fmt.Sprintf("instruction %d", r.OtherInstruction)
	}
	elem := name.Element
	if name.Offset != nil {
		elem += fmt.Sprintf(" (byte %d)", *name.Offset)
	}
	d.Message = fmt.Sprintf("Shared memory %s hazard on %s: invocation %s %s it after invocation %s %s it (%s), with no barrier() between the two accesses.",
		r.Kind, elem, id(r.LocalIndex), verb(second, r.Atomic), id(r.OtherLocalIndex), verb(first, r.OtherAtomic), other)
}

// RaceVUID is the id hazard reports carry: the specification has no VUID
// for a data race, which the memory model makes undefined behaviour.
const RaceVUID = "UNASSIGNED-Shared memory data race"

// SharedElementName names a shared-memory slot in the user's terms.
type SharedElementName struct {
	// Variable is the variable's name ("tile", or "%12" without OpName).
	Variable string
	// Element is the scalar: "tile[3].b", "sums[7]", "v.y".
	Element string
	// Offset is the scalar's byte offset in the variable laid out without
	// padding (scalars in declaration order, each its own size); nil when
	// unknown.
	Offset *uint32
}

// SharedElement names slot of the Workgroup variable varID in a module's
// words, as shared_memory_race numbers slots; false when the module does
// not have such a variable or slot.
func SharedElement(words []uint32, varID, slot uint32) (SharedElementName, bool) {
	m, err := spirv.Parse(append([]uint32(nil), words...))
	if err != nil {
		return SharedElementName{}, false
	}
	v := m.Def(varID)
	if v == nil || v.Opcode() != spirv.OpVariable || spirv.StorageClass(v.Words[3]) != spirv.StorageClassWorkgroup {
		return SharedElementName{}, false
	}
	pt := m.Def(v.Words[1])
	if pt == nil || pt.Opcode() != spirv.OpTypePointer {
		return SharedElementName{}, false
	}
	l := &sharedLayout{m: m, memo: map[uint32][2]uint32{}}
	name := varName(m, varID)
	var path strings.Builder
	path.WriteString(name)
	t, left, offset := pt.Words[3], slot, uint32(0)
	for depth := 0; depth < 64; depth++ {
		d := m.Def(t)
		if d == nil {
			return SharedElementName{}, false
		}
		switch d.Opcode() {
		case spirv.OpTypeInt, spirv.OpTypeFloat, spirv.OpTypeBool:
			if left != 0 {
				return SharedElementName{}, false
			}
			return SharedElementName{Variable: name, Element: path.String(), Offset: &offset}, true
		case spirv.OpTypeStruct:
			found := false
			for i, mt := range d.Words[2:] {
				s, b, ok := l.typeSlots(mt, 0)
				if !ok {
					return SharedElementName{}, false
				}
				if left < s {
					if mn := memberName(m, t, uint32(i)); mn != "" {
						fmt.Fprintf(&path, ".%s", mn)
					} else {
						fmt.Fprintf(&path, ".member%d", i)
					}
					t, found = mt, true
					break
				}
				left -= s
				offset += b
			}
			if !found {
				return SharedElementName{}, false
			}
		case spirv.OpTypeArray, spirv.OpTypeVector, spirv.OpTypeMatrix:
			s, b, ok := l.typeSlots(d.Words[2], 0)
			if !ok || s == 0 {
				return SharedElementName{}, false
			}
			i := left / s
			n := d.Words[3]
			if d.Opcode() == spirv.OpTypeArray {
				n, _ = constUint32(m, d.Words[3])
			}
			if i >= n {
				return SharedElementName{}, false
			}
			left -= i * s
			offset += i * b
			if d.Opcode() == spirv.OpTypeVector && i < 4 {
				fmt.Fprintf(&path, ".%c", "xyzw"[i])
			} else {
				fmt.Fprintf(&path, "[%d]", i)
			}
			t = d.Words[2]
		default:
			return SharedElementName{}, false
		}
	}
	return SharedElementName{}, false
}

// memberName returns a struct member's OpMemberName, or "".
func memberName(m *spirv.Module, typ, member uint32) string {
	for _, in := range m.Sections[spirv.SectionDebug] {
		if in.Opcode() == spirv.OpMemberName && len(in.Words) > 3 && in.Words[1] == typ && in.Words[2] == member {
			s, _ := spirv.DecodeString(in.Words[3:])
			return s
		}
	}
	return ""
}

// BarrierValues describe a barrier_divergence report: a workgroup barrier
// that not every invocation reached.
type BarrierValues struct {
	// Workgroup says the arrivals were counted over the workgroup, after
	// the barrier ran; else over one subgroup, before it.
	Workgroup bool
	// Arrived of Expected invocations reached the barrier.
	Arrived, Expected uint32
	// Missing is the local index of the lowest invocation that did not
	// (NoInstruction: not known; for Workgroup, one that returned before
	// the barrier).
	Missing uint32
	// Before is the workgroup barriers the invocations passed before
	// this one.
	Before uint32
	// WorkgroupSize is the workgroup's x and y size (for the local ids).
	WorkgroupSize [2]uint32
	// Skipped says the arrivals did not wait at the barrier (on_error skip).
	Skipped bool
}

// LocalID returns a local invocation index as gl_LocalInvocationID.
func (b *BarrierValues) LocalID(index uint32) [3]uint32 {
	r := RaceValues{WorkgroupSize: b.WorkgroupSize}
	return r.LocalID(index)
}

// BarrierVUID is the id barrier_divergence reports carry: the SPIR-V
// specification's rule (OpControlBarrier: every invocation of the
// execution scope executes the same dynamic instance) has no VUID.
const BarrierVUID = "UNASSIGNED-Barrier in divergent control flow"

// describeBarrier fills in a barrier_divergence report.
func describeBarrier(d *Description, code CheckCode, p [RecordParams]uint32) {
	b := &BarrierValues{Workgroup: code == CodeBarrierWorkgroup, Arrived: p[0], Expected: p[1], Missing: p[2], Before: p[3],
		WorkgroupSize: [2]uint32{p[4] & 0xffff, p[4] >> 16}, Skipped: p[5] == 1}
	d.Barrier = b
	d.FullVUID = BarrierVUID
	id := func(i uint32) string {
		l := b.LocalID(i)
		return fmt.Sprintf("(%d, %d, %d)", l[0], l[1], l[2])
	}
	nth := fmt.Sprintf("the workgroup's barrier number %d", b.Before+1)
	if b.Workgroup {
		d.Message = fmt.Sprintf("A barrier() (%s) completed with %d of the workgroup's %d invocations", nth, b.Arrived, b.Expected)
		if b.Missing != NoInstruction {
			d.Message += fmt.Sprintf("; local invocation %s and others returned before reaching it.", id(b.Missing))
		} else {
			d.Message += "; the others were in other control flow."
		}
		return
	}
	d.Message = fmt.Sprintf("A barrier() (%s) was reached by %d of the %d invocations of a subgroup (the rest returned or took other control flow)",
		nth, b.Arrived, b.Expected)
	if b.Missing != NoInstruction {
		d.Message += fmt.Sprintf("; local invocation %s did not arrive", id(b.Missing))
	}
	d.Message += "."
	if b.Skipped {
		d.Message += " The invocations that arrived skipped the barrier, so that it cannot hang."
	}
}
