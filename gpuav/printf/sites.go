package printf

import (
	"fmt"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// ImportName is the extended instruction set of debugPrintfEXT.
const ImportName = "NonSemantic.DebugPrintf"

// OpDebugPrintf is DebugPrintf's number in NonSemantic.DebugPrintf.
const OpDebugPrintf = 1

// Site is one DebugPrintf call of a module.
type Site struct {
	// Instruction is the call's index in the module (0: the first
	// instruction after the header), as lines carry it.
	Instruction int
	// Format is its format string.
	Format string
	// Args are the ids of its arguments.
	Args []uint32
}

// Sites finds a module's DebugPrintf calls, in module order. A call whose
// format operand is not an OpString is an error, as is a module that does
// not parse.
func Sites(words []uint32) ([]Site, error) {
	_, insts, err := spirv.ParseInstructions(words)
	if err != nil {
		return nil, fmt.Errorf("printf sites: %w", err)
	}
	sets := map[uint32]bool{}
	strs := map[uint32]string{}
	var sites []Site
	for i, in := range insts {
		if len(in.Words) < 2 {
			continue
		}
		switch in.Opcode() {
		case spirv.OpExtInstImport:
			if name, _ := spirv.DecodeString(in.Words[2:]); name == ImportName {
				sets[in.Words[1]] = true
			}
		case spirv.OpString:
			strs[in.Words[1]], _ = spirv.DecodeString(in.Words[2:])
		case spirv.OpExtInst:
			if len(in.Words) < 6 || !sets[in.Words[3]] || in.Words[4] != OpDebugPrintf {
				continue
			}
			f, ok := strs[in.Words[5]]
			if !ok {
				return nil, fmt.Errorf("printf sites: instruction %d: format %%%d is not an OpString", i, in.Words[5])
			}
			sites = append(sites, Site{Instruction: i, Format: f, Args: append([]uint32(nil), in.Words[6:]...)})
		}
	}
	return sites, nil
}
