package gpuav

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// CodeKey is what an instrumented module's bytes depend on: a digest of
// its original words and of the options it is instrumented with, except
// the ShaderID (docs/decisions/deterministic-instrumentation.md). Two
// modules with the same key are instrumented into the same words.
type CodeKey [sha256.Size]byte

// Key returns the code key of words instrumented with o. Every field of
// Options but ShaderID goes into it (TestCodeKeyCoversOptions), maps with
// their keys sorted.
func (o Options) Key(words []uint32) CodeKey {
	h := sha256.New()
	o.ShaderID = 0
	// %#v prints every field, a map's keys sorted: a field added to
	// Options is in the key without being listed here.
	fmt.Fprintf(h, "gpuav code key 1\x00%#v\x00", o)
	var b [4096]byte
	for len(words) > 0 {
		n := min(len(words), len(b)/4)
		for i, w := range words[:n] {
			binary.LittleEndian.PutUint32(b[4*i:], w)
		}
		h.Write(b[:4*n])
		words = words[n:]
	}
	var k CodeKey
	h.Sum(k[:0])
	return k
}

// ID is the shader id a module of this key is instrumented with when no
// other module of another key has it: the key's first four bytes, never 0
// (a record whose shader id is 0 is an empty slot).
func (k CodeKey) ID() uint32 {
	if id := binary.LittleEndian.Uint32(k[:4]); id != 0 {
		return id
	}
	return 1
}
