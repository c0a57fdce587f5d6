package spirv

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// MagicNumber is the first word of every SPIR-V module.
const MagicNumber uint32 = 0x07230203

// HeaderWords is the number of words in a module header.
const HeaderWords = 5

// Header is the five-word header of a module.
type Header struct {
	Magic     uint32
	Version   uint32 // 0x00MMmm00
	Generator uint32
	Bound     uint32
	Schema    uint32
}

// VersionMajorMinor splits the header's version word.
func (h Header) VersionMajorMinor() (major, minor int) {
	return int(h.Version>>16) & 0xff, int(h.Version>>8) & 0xff
}

// Instruction is one SPIR-V instruction. Words holds the whole instruction,
// the first word carrying the word count (high 16 bits) and opcode (low 16).
type Instruction struct {
	Words []uint32
	// OrigIndex is the instruction's index in the module it was parsed from
	// (0 for the first instruction after the header), or -1 for an
	// instruction added later. Both are 32-bit (ParseInstructions refuses
	// a module of 2^31 words or more): instrumentation makes hundreds of
	// thousands of instructions per pipeline, and the collector's work
	// follows their bytes.
	OrigIndex int32
	// OrigOffset is the word offset of the instruction in the module it was
	// parsed from (5 for the first instruction), or -1 when added later.
	OrigOffset int32
}

// NewInstruction builds an added instruction (no original position) from an
// opcode and its operand words.
func NewInstruction(op Opcode, operands ...uint32) *Instruction {
	in := newInstruction(op, 1+len(operands))
	copy(in.Words[1:], operands)
	return in
}

// NewResultInstruction builds an added instruction with a result type and
// a result id: NewInstruction(op, typ, id, operands...) without the
// slice in between.
func NewResultInstruction(op Opcode, typ, id uint32, operands ...uint32) *Instruction {
	in := newInstruction(op, 3+len(operands))
	in.Words[1], in.Words[2] = typ, id
	copy(in.Words[3:], operands)
	return in
}

// newInstruction allocates an added instruction of n words, the first
// set from op and n: up to eight words in one allocation with the
// instruction (most instructions the passes add), longer ones in two.
func newInstruction(op Opcode, n int) *Instruction {
	var in *Instruction
	switch {
	case n <= 4:
		p := new(struct {
			in Instruction
			w  [4]uint32
		})
		in, p.in.Words = &p.in, p.w[:n:n]
	case n <= 8:
		p := new(struct {
			in Instruction
			w  [8]uint32
		})
		in, p.in.Words = &p.in, p.w[:n:n]
	default:
		in = &Instruction{Words: make([]uint32, n)}
	}
	in.OrigIndex, in.OrigOffset = -1, -1
	in.Words[0] = uint32(n)<<16 | uint32(op)
	return in
}

// Opcode returns the instruction's opcode.
func (in *Instruction) Opcode() Opcode { return Opcode(in.Words[0] & 0xffff) }

// Clone returns a deep copy with the same original position.
func (in *Instruction) Clone() *Instruction {
	c := in.cloneAdded()
	c.OrigIndex, c.OrigOffset = in.OrigIndex, in.OrigOffset
	return c
}

// cloneAdded returns a deep copy as an added instruction (no original
// position), in one allocation with its words where they are few.
func (in *Instruction) cloneAdded() *Instruction {
	c := newInstruction(0, len(in.Words))
	copy(c.Words, in.Words)
	return c
}

// ResultType returns the result-type id, or 0 when the opcode has none.
func (in *Instruction) ResultType() uint32 {
	op := in.Words[0] & 0xffff
	if op > maxOpcode || typeWord[op] == 0 || len(in.Words) < 2 {
		return 0
	}
	return in.Words[1]
}

// ResultID returns the result id, or 0 when the opcode has none.
func (in *Instruction) ResultID() uint32 {
	op := in.Words[0] & 0xffff
	if op > maxOpcode {
		return 0
	}
	i := int(resultWord[op])
	if i == 0 || len(in.Words) <= i {
		return 0
	}
	return in.Words[i]
}

// SetResultID replaces the result id; it does nothing when there is none.
func (in *Instruction) SetResultID(id uint32) {
	op := in.Words[0] & 0xffff
	if op > maxOpcode {
		return
	}
	if i := int(resultWord[op]); i != 0 && len(in.Words) > i {
		in.Words[i] = id
	}
}

// ErrNotSPIRV is wrapped by errors about input that is not a SPIR-V module.
var ErrNotSPIRV = errors.New("not a SPIR-V module")

// WordsFromBytes converts a byte stream to words, accepting either byte
// order (the magic number tells which) and returns an error for input that
// cannot be a module: short, not a multiple of four bytes, bad magic.
func WordsFromBytes(b []byte) ([]uint32, error) {
	if len(b) < HeaderWords*4 {
		return nil, fmt.Errorf("%w: %d bytes is shorter than the 20-byte header", ErrNotSPIRV, len(b))
	}
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("%w: %d bytes is not a whole number of 32-bit words", ErrNotSPIRV, len(b))
	}
	var order binary.ByteOrder
	switch {
	case binary.LittleEndian.Uint32(b) == MagicNumber:
		order = binary.LittleEndian
	case binary.BigEndian.Uint32(b) == MagicNumber:
		order = binary.BigEndian
	default:
		return nil, fmt.Errorf("%w: bad magic number 0x%08x (want 0x%08x)", ErrNotSPIRV, binary.LittleEndian.Uint32(b), MagicNumber)
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = order.Uint32(b[4*i:])
	}
	return w, nil
}

// BytesFromWords encodes words in little-endian byte order, the order
// vkCreateShaderModule expects on every platform this project runs on.
func BytesFromWords(w []uint32) []byte {
	b := make([]byte, 4*len(w))
	for i, x := range w {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

// SwapWords byte-swaps every word in place.
func SwapWords(w []uint32) {
	for i, x := range w {
		w[i] = bits.ReverseBytes32(x)
	}
}

// ParseHeader checks the header of a word stream.
func ParseHeader(w []uint32) (Header, error) {
	if len(w) < HeaderWords {
		return Header{}, fmt.Errorf("%w: %d words is shorter than the 5-word header", ErrNotSPIRV, len(w))
	}
	if w[0] != MagicNumber {
		if bits.ReverseBytes32(w[0]) == MagicNumber {
			return Header{}, fmt.Errorf("%w: magic number is byte-swapped (0x%08x): the module has the other endianness", ErrNotSPIRV, w[0])
		}
		return Header{}, fmt.Errorf("%w: bad magic number 0x%08x (want 0x%08x)", ErrNotSPIRV, w[0], MagicNumber)
	}
	return Header{Magic: w[0], Version: w[1], Generator: w[2], Bound: w[3], Schema: w[4]}, nil
}

// ParseInstructions splits the words after the header into instructions
// without interpreting them, recording each one's original index and offset.
// The returned instructions share memory with w.
func ParseInstructions(w []uint32) (Header, []*Instruction, error) {
	h, err := ParseHeader(w)
	if err != nil {
		return h, nil, err
	}
	if len(w) > math.MaxInt32 {
		return h, nil, fmt.Errorf("%w: %d words is past the 2^31 this package reads", ErrNotSPIRV, len(w))
	}
	// Counted first, so that both arrays are made once at their size
	// (the count stops at a bad word count, which the loop reports).
	count := 0
	for off := HeaderWords; off < len(w); count++ {
		n := int(w[off] >> 16)
		if n == 0 {
			break
		}
		off += n
	}
	insts := make([]*Instruction, 0, count)
	backing := make([]Instruction, 0, count)
	for off := HeaderWords; off < len(w); {
		n := int(w[off] >> 16)
		if n == 0 {
			return h, nil, fmt.Errorf("%w: instruction %d at word %d has word count 0", ErrNotSPIRV, len(insts), off)
		}
		if off+n > len(w) {
			return h, nil, fmt.Errorf("%w: instruction %d at word %d has word count %d, past the end of the module (%d words)", ErrNotSPIRV, len(insts), off, n, len(w))
		}
		backing = append(backing, Instruction{Words: w[off : off+n : off+n], OrigIndex: int32(len(insts)), OrigOffset: int32(off)})
		insts = append(insts, &backing[len(backing)-1])
		off += n
	}
	return h, insts, nil
}

// EncodeInstructions writes a header and instructions back into words.
func EncodeInstructions(h Header, insts []*Instruction) []uint32 {
	n := HeaderWords
	for _, in := range insts {
		n += len(in.Words)
	}
	w := make([]uint32, 0, n)
	w = append(w, h.Magic, h.Version, h.Generator, h.Bound, h.Schema)
	for _, in := range insts {
		w = append(w, in.Words...)
	}
	return w
}

// DecodeString reads a nul-terminated literal string starting at words[0],
// returning the string and the number of words it occupies.
func DecodeString(words []uint32) (string, int) {
	var buf []byte
	for i, x := range words {
		for k := 0; k < 4; k++ {
			c := byte(x >> (8 * k))
			if c == 0 {
				return string(buf), i + 1
			}
			buf = append(buf, c)
		}
	}
	return string(buf), len(words)
}

// EncodeString packs s as a nul-terminated literal string.
func EncodeString(s string) []uint32 {
	n := len(s)/4 + 1
	w := make([]uint32, n)
	for i := 0; i < len(s); i++ {
		w[i/4] |= uint32(s[i]) << (8 * (i % 4))
	}
	return w
}
