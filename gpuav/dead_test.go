package gpuav

import (
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestRemoveDeadAdded: an added instruction whose value nothing uses goes
// when it has no effect, with what only it used and its decorations; an
// added one with an effect and the app's own dead code stay.
func TestRemoveDeadAdded(t *testing.T) {
	m, err := spirv.Parse(compile(t, "oob_compute.comp", "vulkan1.1"))
	if err != nil {
		t.Fatal(err)
	}
	u := m.TypeUint32()
	one, two := m.ConstantUint32(1), m.ConstantUint32(2)
	app := m.NewID() // the app's own: below bound
	bound := m.Header.Bound
	sum, prod, kept, used := m.NewID(), m.NewID(), m.NewID(), m.NewID()
	entry := m.Functions[0].Blocks[0]
	var ptr uint32 // outs[0].v[0]: the app's access chain to a storage buffer word
	for _, in := range m.Functions[0].Blocks[0].Insts {
		if in.Opcode() == spirv.OpAccessChain {
			ptr = in.ResultID()
		}
	}
	if ptr == 0 {
		t.Fatal("no access chain in oob_compute.comp's entry block")
	}
	added := []*spirv.Instruction{
		spirv.NewInstruction(spirv.OpIAdd, u, app, one, two),
		spirv.NewInstruction(spirv.OpIAdd, u, sum, one, two),
		spirv.NewInstruction(spirv.OpIMul, u, prod, sum, sum), // unused: goes, and sum with it
		spirv.NewInstruction(spirv.OpAtomicIAdd, u, kept, ptr, m.ConstantUint32(1), m.ConstantUint32(0), one),
		spirv.NewInstruction(spirv.OpIAdd, u, used, one, one),
		spirv.NewInstruction(spirv.OpStore, ptr, used),
	}
	n := len(entry.Insts)
	entry.Insts = append(entry.Insts[:n-1:n-1], append(added, entry.Insts[n-1])...)
	m.AddAnnotation(spirv.NewInstruction(spirv.OpDecorate, prod, uint32(spirv.DecorationRelaxedPrecision)))
	m.InvalidateIndex()

	removeDeadAdded(m, bound, pureFunctions(m, bound))
	defined := map[uint32]bool{}
	for _, in := range entry.Insts {
		defined[in.ResultID()] = true
	}
	for _, tt := range []struct {
		name string
		id   uint32
		kept bool
	}{
		{"the app's own unused add", app, true},
		{"an added add used only by a dead multiply", sum, false},
		{"an added unused multiply", prod, false},
		{"an added atomic whose result is unused", kept, true},
		{"an added add a store uses", used, true},
	} {
		if defined[tt.id] != tt.kept {
			t.Errorf("%s (%%%d): kept %v, want %v", tt.name, tt.id, defined[tt.id], tt.kept)
		}
	}
	validate(t, m.Encode(), "vulkan1.1")
	if dis := disassemble(t, m.Encode()); strings.Contains(dis, "RelaxedPrecision") {
		t.Error("the removed multiply's decoration is still there")
	}
}

// TestPureFunctions: the check library's lookups have no effect, its
// record writes and reports do.
func TestPureFunctions(t *testing.T) {
	w := compile(t, "buffer_oob_fact.comp", "vulkan1.1")
	m, err := spirv.Parse(w)
	if err != nil {
		t.Fatal(err)
	}
	bound := m.Header.Bound
	res, err := Instrument(w, Options{ShaderID: 1, DescriptorSet: 7})
	if err != nil {
		t.Fatal(err)
	}
	im, err := spirv.Parse(res.Words)
	if err != nil {
		t.Fatal(err)
	}
	pure := pureFunctions(im, bound)
	want := map[string]bool{
		"gpuav_buffer_binding":      true,
		"gpuav_binding_fact":        true,
		"gpuav_desc_word":           true,
		"gpuav_buffer_check":        true,
		"gpuav_write_record":        false,
		"gpuav_report_buffer_check": false,
		"main":                      false, // the app's: not the library's, never removed
	}
	found := map[string]bool{}
	for _, f := range im.Functions {
		name := im.FunctionName(f)
		if w, ok := want[name]; ok {
			found[name] = true
			if pure[f.ID()] != w {
				t.Errorf("%s: pure %v, want %v", name, pure[f.ID()], w)
			}
		}
	}
	for name := range want {
		if !found[name] {
			t.Errorf("%s: not in the instrumented module", name)
		}
	}
}

// deadLookups fails the test for every call of an effect-free library
// function whose value is unused (TestPreciseSwitch runs it on both
// variants), and returns the calls per function.
func deadLookups(t *testing.T, words []uint32) map[string]int {
	t.Helper()
	m, err := spirv.Parse(append([]uint32(nil), words...))
	if err != nil {
		t.Fatal(err)
	}
	pure := pureFunctions(m, 0)
	names := map[uint32]string{}
	for _, f := range m.Functions {
		names[f.ID()] = m.FunctionName(f)
	}
	calls := map[string]int{}
	for _, f := range m.Functions {
		uses := useCounts(m, f)
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				if in.Opcode() != spirv.OpFunctionCall {
					continue
				}
				name := names[in.Words[3]]
				calls[name]++
				if pure[in.Words[3]] && uses[in.ResultID()] == 0 {
					t.Errorf("%s: a call of %s whose value nothing uses", m.FunctionName(f), name)
				}
			}
		}
	}
	return calls
}

// TestRemoveUncalledAdded: no variant keeps a function that no entry
// point's call tree reaches; a fast variant whose facts decide every
// access keeps none of the check library, the precise variant the
// functions it calls. The app's own uncalled function stays.
func TestRemoveUncalledAdded(t *testing.T) {
	tests := []struct {
		shader            string
		fastAdded         int  // functions the instrumentation added, left in the fast variant
		preciseHasLibrary bool // the precise variant calls the check library
	}{
		{shader: "no_check_left.comp", fastAdded: 0, preciseHasLibrary: true},
		{shader: "same_index_memory.comp", fastAdded: -1, preciseHasLibrary: true}, // -1: some
	}
	for _, tt := range tests {
		t.Run(tt.shader, func(t *testing.T) {
			w := compile(t, tt.shader, "vulkan1.1")
			orig, err := spirv.Parse(append([]uint32(nil), w...))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Instrument(w, Options{ShaderID: 3, DescriptorSet: 7})
			if err != nil || res.Precise == nil {
				t.Fatalf("Instrument: %v (fast variant: %v)", err, res.Precise != nil)
			}
			for _, v := range []struct {
				name  string
				words []uint32
			}{{"precise", res.Words}, {"fast", res.Precise.FastWords}} {
				m, err := spirv.Parse(append([]uint32(nil), v.words...))
				if err != nil {
					t.Fatal(err)
				}
				reached := callTree(m)
				added := 0
				for _, f := range m.Functions {
					if f.ID() >= orig.Header.Bound {
						added++
						if !reached[f.ID()] {
							t.Errorf("%s variant: added function %s is called by no entry point", v.name, m.Name(f.ID()))
						}
					}
				}
				switch {
				case v.name == "fast" && tt.fastAdded >= 0 && added != tt.fastAdded:
					t.Errorf("fast variant: %d added functions, want %d", added, tt.fastAdded)
				case v.name == "fast" && tt.fastAdded < 0 && added == 0:
					t.Error("fast variant: no added function, want the checks it keeps")
				case v.name == "precise" && tt.preciseHasLibrary && added == 0:
					t.Error("precise variant: no added function")
				}
			}
		})
	}
}

// callTree returns the functions reached from m's entry points.
func callTree(m *spirv.Module) map[uint32]bool {
	byID := map[uint32]*spirv.Function{}
	for _, f := range m.Functions {
		byID[f.ID()] = f
	}
	reached := map[uint32]bool{}
	var visit func(id uint32)
	visit = func(id uint32) {
		if reached[id] || byID[id] == nil {
			return
		}
		reached[id] = true
		for _, b := range byID[id].Blocks {
			for _, in := range b.Insts {
				if in.Opcode() == spirv.OpFunctionCall {
					visit(in.Words[3])
				}
			}
		}
	}
	for _, ep := range m.EntryPoints() {
		visit(ep.Function)
	}
	return reached
}
