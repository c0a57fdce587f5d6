package gpuav

import (
	"slices"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// This file moves the fast variant's report branches to the end of their
// block (docs/decisions/reports-at-block-end.md): a select-form read
// splits its block at the read, branching to its report right after it,
// so the accesses after it in the source's block (the hot loop's second
// read) come after a branch whose failed side writes memory. The
// hand-written select reference (bench/scenes/shaders/hotloop_select.comp)
// makes every read first and branches to its report once, at the end.

// sinkReports merges f's straight-line chains of blocks (a block that
// branches, unconditionally, to a block it alone reaches) and then moves
// what follows each report branch, up to the next instruction that must
// stay after it, in front of the branch. Only the records' order within
// one invocation changes: a report block only reads built-in inputs and
// calls the library's report functions, which write the layer's own
// output buffer, which no instruction of the app reads.
func sinkReports(m *spirv.Module, f *spirv.Function) {
	mergeChains(m, f)
	byID := map[uint32]*spirv.Block{}
	preds := map[uint32]int{}
	for _, b := range f.Blocks {
		byID[b.ID()] = b
		for _, s := range successors(b.Insts[len(b.Insts)-1]) {
			preds[s]++
		}
	}
	for _, x := range f.Blocks {
		n := len(x.Insts)
		if n < 2 || x.Insts[n-2].Opcode() != spirv.OpSelectionMerge || x.Insts[n-1].Opcode() != spirv.OpBranchConditional {
			continue
		}
		smID, t := x.Insts[n-2].Words[1], x.Insts[n-1]
		sfID := t.Words[2]
		if sfID == smID {
			sfID = t.Words[3]
		} else if t.Words[3] != smID {
			continue
		}
		sf, sm := byID[sfID], byID[smID]
		if sf == nil || sm == nil || sf == sm || preds[sfID] != 1 || !reportBlock(m, sf, smID) {
			continue
		}
		k := 0
		for k < len(sm.Insts)-1 && movable(m, sm.Insts[k]) {
			k++
		}
		if k == 0 {
			continue
		}
		body := append(append(x.Insts[:n-2:n-2], sm.Insts[:k]...), x.Insts[n-2:]...)
		x.Insts, sm.Insts = body, sm.Insts[k:]
	}
}

// reportBlock reports whether b is a report branch's failed side: it
// loads built-in inputs, builds the record's values from them, calls the
// library's gpuav_report_* functions and branches to merge.
func reportBlock(m *spirv.Module, b *spirv.Block, merge uint32) bool {
	n := len(b.Insts)
	if b.Insts[n-1].Opcode() != spirv.OpBranch || b.Insts[n-1].Words[1] != merge {
		return false
	}
	calls := 0
	for _, in := range b.Insts[:n-1] {
		switch in.Opcode() {
		case spirv.OpLine, spirv.OpNoLine, spirv.OpCompositeExtract, spirv.OpCompositeConstruct, spirv.OpBitcast:
		case spirv.OpLoad:
			if storageClass(m, in.Words[3]) != spirv.StorageClassInput {
				return false
			}
		case spirv.OpFunctionCall:
			if !strings.HasPrefix(m.Name(in.Words[3]), "gpuav_report") {
				return false
			}
			calls++
		default:
			return false
		}
	}
	return calls > 0
}

// storageClass returns the storage class of a pointer id's type.
func storageClass(m *spirv.Module, ptr uint32) spirv.StorageClass {
	d := m.Def(ptr)
	if d == nil {
		return spirv.StorageClass(^uint32(0))
	}
	t := m.Def(d.ResultType())
	if t == nil || t.Opcode() != spirv.OpTypePointer {
		return spirv.StorageClass(^uint32(0))
	}
	return spirv.StorageClass(t.Words[2])
}

// movable reports whether in may run before a report branch instead of
// after it: computation, memory access and image, group and derivative
// instructions, and calls of the library's (gpuav_) functions; not
// barriers, control flow (phis, merges, demotes, terminators), calls of
// the app's functions (which could loop for ever), primitive emission or
// ray tracing.
func movable(m *spirv.Module, in *spirv.Instruction) bool {
	info, ok := spirv.LookupOp(in.Opcode())
	if !ok {
		return false
	}
	switch info.Class {
	case "Arithmetic", "Bit", "Composite", "Conversion", "Debug", "Derivative", "Image", "Memory",
		"Relational_and_Logical", "Atomic", "Group", "Non-Uniform":
		return true
	case "Function":
		return in.Opcode() == spirv.OpFunctionCall && strings.HasPrefix(m.Name(in.Words[3]), "gpuav_")
	case "Extension":
		return in.Opcode() == spirv.OpExtInst && m.ExtInstSetName(in.Words[3]) == "GLSL.std.450"
	}
	return false
}

// mergeChains appends to a block A that ends in OpBranch B (with no merge
// instruction) the block B, when A is B's only predecessor and B is no
// construct's merge or continue target, nor a loop header; B's phis, of
// one operand, become their value.
func mergeChains(m *spirv.Module, f *spirv.Function) {
	preds := map[uint32]int{}
	targets := map[uint32]bool{f.Blocks[0].ID(): true}
	byID := map[uint32]*spirv.Block{}
	for _, b := range f.Blocks {
		byID[b.ID()] = b
		for _, s := range successors(b.Insts[len(b.Insts)-1]) {
			preds[s]++
		}
		for _, in := range b.Insts {
			switch in.Opcode() {
			case spirv.OpSelectionMerge:
				targets[in.Words[1]] = true
			case spirv.OpLoopMerge:
				targets[in.Words[1]], targets[in.Words[2]], targets[b.ID()] = true, true, true
			}
		}
	}
	renamed := map[uint32]uint32{}
	gone := map[uint32]bool{}
	for _, a := range f.Blocks {
		for !gone[a.ID()] {
			n := len(a.Insts)
			t := a.Insts[n-1]
			if t.Opcode() != spirv.OpBranch || (n >= 2 && a.Insts[n-2].Opcode() == spirv.OpLoopMerge) {
				break
			}
			b := byID[t.Words[1]]
			if b == nil || b == a || preds[b.ID()] != 1 || targets[b.ID()] {
				break
			}
			k := 0
			for ; k < len(b.Insts) && b.Insts[k].Opcode() == spirv.OpPhi; k++ {
				renamed[b.Insts[k].ResultID()] = b.Insts[k].Words[3]
			}
			a.Insts = append(a.Insts[:n-1:n-1], b.Insts[k:]...)
			gone[b.ID()] = true
			renamePhiParents(f, successors(a.Insts[len(a.Insts)-1]), b.ID(), a.ID())
		}
	}
	if len(gone) == 0 {
		return
	}
	var kept []*spirv.Block
	for _, b := range f.Blocks {
		if !gone[b.ID()] {
			kept = append(kept, b)
		}
	}
	f.Blocks = kept
	resolve := func(id uint32) uint32 {
		for {
			n, ok := renamed[id]
			if !ok {
				return id
			}
			id = n
		}
	}
	for id := range renamed {
		renamed[id] = resolve(id)
	}
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			renameOperands(m, in, renamed)
		}
	}
}

// renamePhiParents makes the phis of the blocks in succ that name from as
// a predecessor name to.
func renamePhiParents(f *spirv.Function, succ []uint32, from, to uint32) {
	for _, b := range f.Blocks {
		if !slices.Contains(succ, b.ID()) {
			continue
		}
		for _, in := range b.Insts {
			if in.Opcode() != spirv.OpPhi {
				break
			}
			for k := 4; k < len(in.Words); k += 2 {
				if in.Words[k] == from {
					in.Words[k] = to
				}
			}
		}
	}
}
