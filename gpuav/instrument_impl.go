package gpuav

import (
	"fmt"
	"sync"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// instrument parses the module, runs the enabled passes over it and links
// the check functions they call. Any panic becomes an error so that the
// layer can pass the module through untouched.
func instrument(words []uint32, opt Options) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = Result{Words: words}, fmt.Errorf("instrument shader %d: internal error: %v", opt.ShaderID, r)
		}
	}()
	res.Words = words
	m, err := spirv.Parse(append([]uint32(nil), words...))
	if err != nil {
		return res, fmt.Errorf("instrument shader %d: %w", opt.ShaderID, err)
	}
	ctx, warn := newContext(m, opt)
	if warn != "" {
		res.Warnings = append(res.Warnings, warn)
		return res, nil
	}
	if opt.enabled(CheckDescriptorIndexOOB) || opt.enabled(CheckDescriptorUninit) || opt.enabled(CheckDescriptorDestroyed) {
		descriptorIndexPass(ctx)
	}
	if opt.enabled(CheckBufferOOB) {
		bufferOOBPass(ctx) // after the descriptor checks: it guards what they let through
	}
	if opt.enabled(CheckTexelBufferOOB) {
		texelBufferPass(ctx) // also after the descriptor checks
	}
	if opt.enabled(CheckRayQuery) {
		rayQueryPass(ctx)
	}
	if opt.enabled(CheckBDAOOB) {
		bdaPass(ctx)
	}
	res.Warnings = append(res.Warnings, ctx.warnings...)
	if ctx.added == 0 {
		return res, nil
	}
	if err := ctx.link(); err != nil {
		return Result{Words: words}, fmt.Errorf("instrument shader %d: %w", opt.ShaderID, err)
	}
	res.Words = m.Encode()
	res.Instrumented = true
	res.ChecksAdded = ctx.added
	return res, nil
}

func (o Options) enabled(check string) bool {
	if o.Checks == nil {
		return true
	}
	return o.Checks[check]
}

// context is the state a pass shares: the module, the options, the
// execution model of the module's entry points and the functions linked
// from the check library on demand.
type context struct {
	m         *spirv.Module
	opt       Options
	model     spirv.ExecutionModel
	linked    map[string]uint32 // check function → the id calls use
	linkOrder []string          // check functions in the order requested
	added     int
	warnings  []string
	builtins  map[spirv.BuiltIn]uint32
}

// newContext checks that the module is something the passes understand and
// returns a reason to leave it alone otherwise.
func newContext(m *spirv.Module, opt Options) (*context, string) {
	// Shader may be only implied (RayTracingKHR, MeshShadingEXT... declare
	// it implicitly); a module that declares Kernel is an OpenCL kernel.
	if m.HasCapability(spirv.CapabilityKernel) {
		return nil, "module has no Shader capability (a kernel?): left uninstrumented"
	}
	eps := m.EntryPoints()
	if len(eps) == 0 {
		return nil, "module has no entry point: left uninstrumented"
	}
	for _, ep := range eps[1:] {
		if ep.Model != eps[0].Model {
			return nil, fmt.Sprintf("module has entry points of several stages (%s and %s): left uninstrumented",
				StageName(uint32(eps[0].Model)), StageName(uint32(ep.Model)))
		}
	}
	for _, in := range m.Sections[spirv.SectionMemoryModel] {
		if in.Opcode() == spirv.OpMemoryModel {
			am := spirv.AddressingModel(in.Words[1])
			if am != spirv.AddressingModelLogical && am != spirv.AddressingModelPhysicalStorageBuffer64 {
				return nil, fmt.Sprintf("addressing model %d is not Logical or PhysicalStorageBuffer64: left uninstrumented", am)
			}
		}
	}
	return &context{m: m, opt: opt, model: eps[0].Model, linked: map[string]uint32{}, builtins: map[spirv.BuiltIn]uint32{}}, ""
}

func (c *context) warnf(format string, args ...any) {
	c.warnings = append(c.warnings, fmt.Sprintf(format, args...))
}

// function returns the id calls to a check function use. Linking is
// deferred: the first request allocates a placeholder id, and link imports
// every requested function in one go at the end, so functions they share
// (gpuav_write_record, the output buffer) are linked once per module.
func (c *context) function(name string) (uint32, error) {
	if id, ok := c.linked[name]; ok {
		return id, nil
	}
	id := c.m.NewID()
	c.linked[name] = id
	c.linkOrder = append(c.linkOrder, name)
	return id, nil
}

// link imports the requested check functions, points the calls at them,
// moves the library's variables to the layer's set and, on SPIR-V 1.4+,
// lists them in every entry point's interface.
func (c *context) link() error {
	if len(c.linkOrder) == 0 {
		return nil
	}
	lib, err := checkLibrary()
	if err != nil {
		return err
	}
	imp, err := c.m.ImportFunctions(lib, c.linkOrder...)
	if err != nil {
		return fmt.Errorf("link %v: %w", c.linkOrder, err)
	}
	for _, v := range imp.Variables {
		for _, d := range c.m.Decorations(v) {
			if d.Opcode() == spirv.OpDecorate && spirv.Decoration(d.Words[2]) == spirv.DecorationDescriptorSet {
				d.Words[3] = c.opt.DescriptorSet
			}
		}
		if c.m.VersionAtLeast(1, 4) {
			for _, ep := range c.m.EntryPoints() {
				c.m.AddToInterface(ep.Inst, v)
			}
		}
	}
	placeholder := map[uint32]uint32{}
	for name, id := range c.linked {
		placeholder[id] = imp.Functions[name]
	}
	for _, f := range c.m.Functions {
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

// builtin returns the Input variable decorated with a builtin, adding one of
// the given type (and listing it in every entry point's interface) when the
// module has none.
func (c *context) builtin(b spirv.BuiltIn, typ func() uint32) uint32 {
	if id, ok := c.builtins[b]; ok {
		return id
	}
	m := c.m
	for _, in := range m.Sections[spirv.SectionAnnotation] {
		if in.Opcode() == spirv.OpDecorate && len(in.Words) > 3 &&
			spirv.Decoration(in.Words[2]) == spirv.DecorationBuiltIn && spirv.BuiltIn(in.Words[3]) == b {
			v := m.Def(in.Words[1])
			if v != nil && v.Opcode() == spirv.OpVariable && spirv.StorageClass(v.Words[3]) == spirv.StorageClassInput {
				c.builtins[b] = v.Words[2]
				for _, ep := range m.EntryPoints() {
					m.AddToInterface(ep.Inst, v.Words[2])
				}
				return v.Words[2]
			}
		}
	}
	id := m.NewID()
	ptr := m.TypePointer(spirv.StorageClassInput, typ())
	m.AddGlobal(spirv.NewInstruction(spirv.OpVariable, ptr, id, uint32(spirv.StorageClassInput)))
	m.AddAnnotation(spirv.NewInstruction(spirv.OpDecorate, id, uint32(spirv.DecorationBuiltIn), uint32(b)))
	if c.model == spirv.ExecutionModelFragment && (b == spirv.BuiltInPrimitiveId) {
		m.AddAnnotation(spirv.NewInstruction(spirv.OpDecorate, id, uint32(spirv.DecorationFlat)))
	}
	for _, ep := range m.EntryPoints() {
		m.AddToInterface(ep.Inst, id)
	}
	c.builtins[b] = id
	return id
}

// emitter appends instructions to a block, allocating result ids.
type emitter struct {
	m     *spirv.Module
	insts []*spirv.Instruction
}

func (e *emitter) op(op spirv.Opcode, typ uint32, operands ...uint32) uint32 {
	id := e.m.NewID()
	e.insts = append(e.insts, spirv.NewInstruction(op, append([]uint32{typ, id}, operands...)...))
	return id
}

func (e *emitter) void(op spirv.Opcode, operands ...uint32) {
	e.insts = append(e.insts, spirv.NewInstruction(op, operands...))
}

// asUint converts a 32-bit scalar of any numeric type to uint (bit cast).
func (c *context) asUint(e *emitter, id, typ uint32) uint32 {
	u := c.m.TypeUint32()
	if typ == u {
		return id
	}
	return e.op(spirv.OpBitcast, u, id)
}

// loadBuiltinWords loads a builtin and returns up to n of its components as
// uints.
func (c *context) loadBuiltinWords(e *emitter, b spirv.BuiltIn, typ func() uint32, n int) []uint32 {
	v := c.builtin(b, typ)
	ptrType := c.m.Def(c.m.Def(v).Words[1])
	t := ptrType.Words[3]
	val := e.op(spirv.OpLoad, t, v)
	td := c.m.Def(t)
	if td.Opcode() != spirv.OpTypeVector {
		return []uint32{c.asUint(e, val, t)}
	}
	comp := td.Words[2]
	var out []uint32
	for i := 0; i < n && i < int(td.Words[3]); i++ {
		x := e.op(spirv.OpCompositeExtract, comp, val, uint32(i))
		out = append(out, c.asUint(e, x, comp))
	}
	return out
}

// stageInfo emits the code that builds the record's stage words
// (execution model, then three stage-specific words) as a uvec4.
func (c *context) stageInfo(e *emitter) uint32 {
	m := c.m
	u := m.TypeUint32()
	i32 := func() uint32 { return m.TypeInt(32, true) }
	v3u := func() uint32 { return m.TypeVector(u, 3) }
	v3f := func() uint32 { return m.TypeVector(m.TypeFloat(32), 3) }
	v4f := func() uint32 { return m.TypeVector(m.TypeFloat(32), 4) }
	var w []uint32
	switch c.model {
	case spirv.ExecutionModelVertex:
		w = append(c.loadBuiltinWords(e, spirv.BuiltInVertexIndex, i32, 1), c.loadBuiltinWords(e, spirv.BuiltInInstanceIndex, i32, 1)...)
	case spirv.ExecutionModelTessellationControl:
		w = append(c.loadBuiltinWords(e, spirv.BuiltInInvocationId, i32, 1), c.loadBuiltinWords(e, spirv.BuiltInPrimitiveId, i32, 1)...)
	case spirv.ExecutionModelTessellationEvaluation:
		w = append(c.loadBuiltinWords(e, spirv.BuiltInPrimitiveId, i32, 1), c.loadBuiltinWords(e, spirv.BuiltInTessCoord, v3f, 2)...)
	case spirv.ExecutionModelGeometry:
		w = append(c.loadBuiltinWords(e, spirv.BuiltInPrimitiveId, i32, 1), c.loadBuiltinWords(e, spirv.BuiltInInvocationId, i32, 1)...)
	case spirv.ExecutionModelFragment:
		w = c.loadBuiltinWords(e, spirv.BuiltInFragCoord, v4f, 2)
	case spirv.ExecutionModelGLCompute, spirv.ExecutionModelTaskEXT, spirv.ExecutionModelMeshEXT,
		spirv.ExecutionModelTaskNV, spirv.ExecutionModelMeshNV:
		w = c.loadBuiltinWords(e, spirv.BuiltInGlobalInvocationId, v3u, 3)
	case spirv.ExecutionModelRayGenerationKHR, spirv.ExecutionModelIntersectionKHR, spirv.ExecutionModelAnyHitKHR,
		spirv.ExecutionModelClosestHitKHR, spirv.ExecutionModelMissKHR, spirv.ExecutionModelCallableKHR:
		w = c.loadBuiltinWords(e, spirv.BuiltInLaunchIdKHR, v3u, 3)
	}
	for len(w) < 3 {
		w = append(w, m.ConstantUint32(0))
	}
	return e.op(spirv.OpCompositeConstruct, m.TypeVector(u, 4), m.ConstantUint32(uint32(c.model)), w[0], w[1], w[2])
}

// checkLibrary parses the check-function library once. The linker only
// reads it, and its definition index is built here, so instrumentations on
// several threads can share it.
var checkLibrary = sync.OnceValues(func() (*spirv.Module, error) {
	lib, err := spirv.Parse(append([]uint32(nil), libraryWords...))
	if err != nil {
		return nil, fmt.Errorf("parse check library: %w", err)
	}
	lib.Def(0) // build the index now: later lookups only read it
	return lib, nil
})
