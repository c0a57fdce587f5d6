package session

import (
	"fmt"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// Disassembly is a shader module's original SPIR-V as spirv-dis prints it,
// for a source view of shaders without debug info.
type Disassembly struct {
	// Lines are the text's lines: the header comment, then one line per
	// instruction.
	Lines []string
	// Header is the number of header lines before the first instruction.
	Header int
	// starts are the 1-based first lines of the instructions: an
	// instruction with a multi-line string (OpSource's text) takes several.
	starts []int
	// Err says which instructions could not be fully interpreted (they are
	// printed anyway); nil when all were.
	Err error
}

// Line returns the 1-based line of instruction index i (0 for the first
// after the module header, as ErrorGroup.Instruction counts), 0 when the
// module has no such instruction.
func (d *Disassembly) Line(i uint32) int {
	if int(i) >= len(d.starts) {
		return 0
	}
	return d.starts[i]
}

// Disassemble returns the disassembly of shader id's original SPIR-V. The
// result does not change during a run: callers may keep it per shader.
func (s *Session) Disassemble(id uint32) (*Disassembly, error) {
	sh := s.Shaders[id]
	if sh == nil || len(sh.SPIRV) == 0 {
		return nil, fmt.Errorf("disassemble shader %d: the session holds no SPIR-V for it", id)
	}
	p, err := spirv.NewPrinter(sh.SPIRV)
	if err != nil {
		return nil, fmt.Errorf("disassemble shader %d: %w", id, err)
	}
	text, derr := p.Disassemble()
	header := strings.Count(string(p.AppendHeader(nil)), "\n")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	d := &Disassembly{Lines: lines, Header: header, Err: derr}
	line := header + 1
	for i := 0; ; i++ {
		in, err := p.InstructionAt(i)
		if err != nil && strings.Contains(err.Error(), "out of range") {
			break
		}
		d.starts = append(d.starts, line)
		line += 1 + strings.Count(in, "\n")
	}
	return d, nil
}
