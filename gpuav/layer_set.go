package gpuav

import "github.com/gpuav-dbg/gpuav-dbg/spirv"

// ReadsSet reports whether a module's entry points use a variable of
// descriptor set `set`: whether an instruction of a function in an entry
// point's call tree names a variable decorated with that set (Vulkan's
// static use). The layer binds its set before an action only for a
// variant that reads it (docs/decisions/no-bind-for-check-free-variants.md):
// a fast variant whose every check its facts decided has nothing of the
// layer's left in main, though the check functions it no longer calls
// may stay in the module. The answer comes from the words the driver gets,
// not from what the passes did. It errs towards true: words that do not
// parse, an entry point without its function, or a literal that equals a
// variable's id count as a use.
func ReadsSet(words []uint32, set uint32) bool {
	if len(words) < 5 || words[0] != spirv.MagicNumber || words[3] > 1<<22 {
		return true
	}
	bound := words[3]
	inSet := make([]bool, bound)
	type function struct {
		uses  bool
		calls []uint32
	}
	funcs := map[uint32]*function{}
	var entries []uint32
	var cur *function
	for i := 5; i < len(words); {
		n := int(words[i] >> 16)
		if n == 0 || i+n > len(words) {
			return true
		}
		in := words[i : i+n]
		i += n
		switch op := spirv.Opcode(in[0] & 0xffff); {
		case op == spirv.OpEntryPoint && n >= 3:
			entries = append(entries, in[2])
		case op == spirv.OpDecorate && n >= 4 && spirv.Decoration(in[2]) == spirv.DecorationDescriptorSet:
			if in[3] == set && in[1] < bound {
				inSet[in[1]] = true
			}
		case op == spirv.OpGroupDecorate && n >= 2 && in[1] < bound && inSet[in[1]]:
			for _, t := range in[2:] {
				if t < bound {
					inSet[t] = true
				}
			}
		case op == spirv.OpFunction && n >= 3:
			cur = &function{}
			funcs[in[2]] = cur
		case op == spirv.OpFunctionEnd:
			cur = nil
		case cur != nil:
			if op == spirv.OpFunctionCall && n >= 4 {
				cur.calls = append(cur.calls, in[3])
			}
			if !cur.uses {
				for _, w := range in[1:] {
					if w < bound && inSet[w] {
						cur.uses = true
						break
					}
				}
			}
		}
	}
	seen := map[uint32]bool{}
	for len(entries) > 0 {
		id := entries[len(entries)-1]
		entries = entries[:len(entries)-1]
		if seen[id] {
			continue
		}
		seen[id] = true
		f := funcs[id]
		if f == nil || f.uses {
			return true
		}
		entries = append(entries, f.calls...)
	}
	return false
}
