package session

import (
	"slices"
	"strings"
)

// interner keeps one copy of what many error groups share: handle
// strings, VUIDs and action names, label paths, and the source of each
// instruction. A session of hundreds of thousands of groups would
// otherwise hold as many copies. What it hands out is never changed.
// The zero value is ready; it is used under the collector's lock.
type interner struct {
	hexes   map[uint64]string
	strs    map[string]string
	paths   map[string][]string
	sources map[sourceAt]*Source
}

// sourceAt is one instruction of one shader.
type sourceAt struct{ shader, instruction uint32 }

// hex is a handle as the report writes it, "0x55".
func (in *interner) hex(h uint64) string {
	if s, ok := in.hexes[h]; ok {
		return s
	}
	if in.hexes == nil {
		in.hexes = map[uint64]string{}
	}
	s := hexHandle(h)
	in.hexes[h] = s
	return s
}

// str returns the kept copy of s.
func (in *interner) str(s string) string {
	if k, ok := in.strs[s]; ok {
		return k
	}
	if in.strs == nil {
		in.strs = map[string]string{}
	}
	s = strings.Clone(s)
	in.strs[s] = s
	return s
}

// labels returns the kept copy of a label path (nil for none).
func (in *interner) labels(l []string) []string {
	if len(l) == 0 {
		return nil
	}
	key := strings.Join(l, "\x00")
	if p, ok := in.paths[key]; ok {
		return p
	}
	if in.paths == nil {
		in.paths = map[string][]string{}
	}
	p := slices.Clip(make([]string, len(l)))
	for i, s := range l {
		p[i] = in.str(s)
	}
	in.paths[key] = p
	return p
}

// source returns the kept source of an instruction, looking it up with
// find the first time.
func (in *interner) source(shader, instruction uint32, find func(shader, instruction uint32) *Source) *Source {
	k := sourceAt{shader, instruction}
	if s, ok := in.sources[k]; ok {
		return s
	}
	if in.sources == nil {
		in.sources = map[sourceAt]*Source{}
	}
	s := find(shader, instruction)
	in.sources[k] = s
	return s
}
