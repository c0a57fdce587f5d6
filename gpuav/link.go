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
	before := len(m.Functions)
	imp, err := m.ImportFrom(lib, l.order...)
	if err != nil {
		return fmt.Errorf("link %v: %w", l.order, err)
	}
	if vulkanMemoryModel(m) {
		queueFamilyScopes(m, m.Functions[before:])
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

// vulkanMemoryModel reports whether a module's memory model is Vulkan
// (SPV_KHR_vulkan_memory_model: what cooperative matrices require).
func vulkanMemoryModel(m *spirv.Module) bool {
	for _, in := range m.Sections[spirv.SectionMemoryModel] {
		if in.Opcode() == spirv.OpMemoryModel && len(in.Words) > 2 && spirv.MemoryModel(in.Words[2]) == spirv.MemoryModelVulkan {
			return true
		}
	}
	return false
}

// queueFamilyScopes makes the Device scope of the imported functions'
// atomics and barriers QueueFamily: under the Vulkan memory model, Device
// scope needs the VulkanMemoryModelDeviceScope capability (and the device
// feature the app may not have enabled); the records are written and read
// within one queue family, which QueueFamily scope covers.
func queueFamilyScopes(m *spirv.Module, fns []*spirv.Function) {
	device, queueFamily := uint32(spirv.ScopeDevice), uint32(spirv.ScopeQueueFamily)
	for _, f := range fns {
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				for _, k := range scopeOperands(in) {
					if v, ok := m.ConstantValue(in.Words[k]); ok && v == device {
						in.Words[k] = m.ConstantUint32(queueFamily)
					}
				}
			}
		}
	}
}

// scopeOperands returns the word indices of an instruction's Scope ids.
func scopeOperands(in *spirv.Instruction) []int {
	var ks []int
	switch op := in.Opcode(); {
	case op == spirv.OpControlBarrier:
		ks = []int{1, 2}
	case op == spirv.OpMemoryBarrier, op == spirv.OpAtomicStore:
		ks = []int{1 + btoi(op == spirv.OpAtomicStore)}
	case op >= spirv.OpAtomicLoad && op <= spirv.OpAtomicXor, op == spirv.OpAtomicFAddEXT, op == spirv.OpAtomicFMinEXT, op == spirv.OpAtomicFMaxEXT:
		ks = []int{4}
	}
	var out []int
	for _, k := range ks {
		if k < len(in.Words) {
			out = append(out, k)
		}
	}
	return out
}

// btoi is 1 for true, 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
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
