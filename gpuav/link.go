package gpuav

import (
	"fmt"
	"sync"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// linker links the check functions (shaders/*.glsl, compiled into
// libraryWords) that a shader's guards call. Linking is deferred: the first
// request for a function allocates a placeholder id that calls use, and
// link imports every requested function in one go once the passes are
// done, so functions they share (gpuav_write_record, the output buffer)
// are linked once per module.
type linker struct {
	m     *spirv.Module
	set   uint32            // the layer's descriptor set
	ids   map[string]uint32 // check function → the id calls use
	order []string          // check functions in the order requested
}

func newLinker(m *spirv.Module, set uint32) *linker {
	return &linker{m: m, set: set, ids: map[string]uint32{}}
}

// function returns the id calls to a check function use.
func (l *linker) function(name string) uint32 {
	if id, ok := l.ids[name]; ok {
		return id
	}
	id := l.m.NewID()
	l.ids[name] = id
	l.order = append(l.order, name)
	return id
}

// functions returns the ids of several check functions, requested in order
// (the order fixes their placeholder ids, and so the module's words).
func (l *linker) functions(names ...string) []uint32 {
	ids := make([]uint32, len(names))
	for i, name := range names {
		ids[i] = l.function(name)
	}
	return ids
}

// link imports the requested check functions, points the calls at them,
// moves the library's variables to the layer's set and, on SPIR-V 1.4+,
// lists them in every entry point's interface.
func (l *linker) link() error {
	if len(l.order) == 0 {
		return nil
	}
	lib, err := checkLibrary()
	if err != nil {
		return err
	}
	m := l.m
	imp, err := m.ImportFrom(lib, l.order...)
	if err != nil {
		return fmt.Errorf("link %v: %w", l.order, err)
	}
	for _, v := range imp.Variables {
		for _, d := range m.Decorations(v) {
			if d.Opcode() == spirv.OpDecorate && spirv.Decoration(d.Words[2]) == spirv.DecorationDescriptorSet {
				d.Words[3] = l.set
			}
		}
		if m.VersionAtLeast(1, 4) {
			for _, ep := range m.EntryPoints() {
				m.AddToInterface(ep.Inst, v)
			}
		}
	}
	placeholder := map[uint32]uint32{}
	for name, id := range l.ids {
		placeholder[id] = imp.Functions[name]
	}
	for _, f := range m.Functions {
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				if in.Opcode() == spirv.OpFunctionCall && len(in.Words) > 3 {
					if real, ok := placeholder[in.Words[3]]; ok {
						in.Words[3] = real
					}
				}
			}
		}
	}
	return nil
}

// checkLibrary parses the check-function library once and reads it for
// importing (spirv.NewLibrary: its functions' ids found once, not in every
// module that links them). The linker only reads it, and its definition
// index is built here, so instrumentations on several threads can share it.
var checkLibrary = sync.OnceValues(func() (*spirv.Library, error) {
	lib, err := spirv.Parse(append([]uint32(nil), libraryWords...))
	if err != nil {
		return nil, fmt.Errorf("parse check library: %w", err)
	}
	lib.Def(0) // build the index now: later lookups only read it
	for _, in := range lib.Sections[spirv.SectionExtInstImport] {
		lib.ExtInstSet(in.Words[1]) // likewise the sets its OpExtInsts name
	}
	return spirv.NewLibrary(lib), nil
})
