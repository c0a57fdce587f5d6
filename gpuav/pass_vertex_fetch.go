package gpuav

import (
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// VertexInShader (CodeVertexFetchOOB p6): the vertex shader found the
// fetch (an indexed or indirect draw, whose vertex indices the layer does
// not see); with VertexSkipped, the load read zeros.
const VertexInShader = 1 << 3

// vertexFetchPass guards every load of a vertex input (an Input variable
// with a Location, whole or through an access chain) in a vertex shader:
//
//	entry: %t = OpFunctionCall %uint gpuav_vertex_table   (once per function)
//	B: ... %st = the stage words (VertexIndex, InstanceIndex)
//	       %loc = OpFunctionCall %uint gpuav_vertex_fetch_check %t L N %st
//	       %ok = OpIEqual %bool %loc %uint_0xffffffff
//	       OpSelectionMerge %M None
//	       OpBranchConditional %ok %T %F
//	T: the load; OpBranch %M
//	F: OpFunctionCall gpuav_report_vertex_fetch ... %t %loc; OpBranch %M
//	M: %result = OpPhi %type %load %T %null %F ... the rest of B
//
// L is the variable's Location (plus the column or element a constant
// index selects), N the locations the load covers. The fetch itself
// happened before the shader ran: the check tells whether the index it
// used was inside the bound buffer (the layer's vertex table, binding
// DescStateBinding), and a failed check makes the load read zeros. Clamp
// has no meaning (the shader cannot fetch another vertex's attribute):
// it skips.
var vertexFetchPass = &passSpec{
	name:      "vertex_fetch",
	preserves: analysisLayoutSizes,
	run:       func(sh *shader) int { return walk(sh, &vertexFetchChecker{sh: sh}) },
}

// vertexFetchChecker is the vertex_fetch pass over one shader; table is
// the current function's hoisted gpuav_vertex_table call (0 until its
// first site).
type vertexFetchChecker struct {
	sh    *shader
	table uint32
}

// vertexLoad is a load of a vertex input: its first location and the
// number of locations it covers.
type vertexLoad struct {
	loc, n uint32
}

func (p *vertexFetchChecker) skip() bool {
	return p.sh.stage.model != spirv.ExecutionModelVertex
}

func (p *vertexFetchChecker) beginFunction(*function)    { p.table = 0 }
func (p *vertexFetchChecker) beginBlock(*function, bool) {}

func (p *vertexFetchChecker) match(fn *function, b *spirv.Block, j int) (vertexLoad, bool) {
	m := p.sh.m
	in := b.Insts[j]
	if in.Opcode() != spirv.OpLoad || len(in.Words) < 4 {
		return vertexLoad{}, false
	}
	ptr := m.Def(in.Words[3])
	var first uint32
	firstConst, chained := true, false
	if ptr != nil && (ptr.Opcode() == spirv.OpAccessChain || ptr.Opcode() == spirv.OpInBoundsAccessChain) && len(ptr.Words) > 4 {
		chained = true
		first, firstConst = constUint32(m, ptr.Words[4])
		ptr = m.Def(ptr.Words[3])
	}
	if ptr == nil || ptr.Opcode() != spirv.OpVariable || spirv.StorageClass(ptr.Words[3]) != spirv.StorageClassInput {
		return vertexLoad{}, false
	}
	loc, ok := m.Decoration(ptr.Words[2], spirv.DecorationLocation)
	if !ok || len(loc) == 0 {
		return vertexLoad{}, false // a builtin
	}
	pt := pointerType(m, ptr.Words[2])
	if pt == nil {
		return vertexLoad{}, false
	}
	t := m.Def(pt.Words[3])
	total := inputLocations(m, t)
	if !chained || t == nil || (t.Opcode() != spirv.OpTypeArray && t.Opcode() != spirv.OpTypeMatrix) {
		return vertexLoad{loc: loc[0], n: total}, true // a whole variable, or a vector's component
	}
	elem := inputLocations(m, m.Def(t.Words[2]))
	if !firstConst {
		return vertexLoad{loc: loc[0], n: total}, true // any element: every location
	}
	return vertexLoad{loc: loc[0] + first*elem, n: elem}, true
}

// inputLocations is the number of locations a vertex input of type t
// occupies: one per scalar or vector (two for a 64-bit vector of three or
// four components), a matrix one per column, an array its length times
// its element's.
func inputLocations(m *spirv.Module, t *spirv.Instruction) uint32 {
	if t == nil {
		return 1
	}
	switch t.Opcode() {
	case spirv.OpTypeVector:
		if c := m.Def(t.Words[2]); c != nil && len(c.Words) > 2 && c.Words[2] == 64 && t.Words[3] > 2 {
			return 2
		}
	case spirv.OpTypeMatrix:
		return t.Words[3] * inputLocations(m, m.Def(t.Words[2]))
	case spirv.OpTypeArray:
		if n, ok := constUint32(m, t.Words[3]); ok {
			return n * inputLocations(m, m.Def(t.Words[2]))
		}
	}
	return 1
}

func (p *vertexFetchChecker) guard(fn *function, b *spirv.Block, j int, s vertexLoad) (guarded, bool) {
	sh, m := p.sh, p.sh.m
	in := b.Insts[j]
	if sh.inLoopHeader(fn, b, j, "vertex input load") {
		return guarded{}, false
	}
	fns := sh.lib.functions("gpuav_vertex_table", "gpuav_vertex_fetch_check", "gpuav_report_vertex_fetch")
	u := m.TypeUint32()
	if p.table == 0 {
		p.table = fn.entry.op(spirv.OpFunctionCall, u, fns[0])
	}
	var stage, loc uint32
	g := guardedAccess{
		executed: sh.executed,
		pre:      append([]*spirv.Instruction(nil), b.Insts[:j]...),
		check: func(head *emitter) (uint32, bool) {
			stage = sh.stage.emit(head)
			loc = head.op(spirv.OpFunctionCall, u, fns[1], p.table, m.ConstantUint32(s.loc), m.ConstantUint32(s.n), stage)
			return head.op(spirv.OpIEqual, m.TypeBool(), loc, m.ConstantUint32(0xFFFFFFFF)), true
		},
		access: in,
		report: func(fail *emitter) {
			fail.op(spirv.OpFunctionCall, m.TypeVoid(), fns[2],
				m.ConstantUint32(sh.opt.ShaderID), m.ConstantUint32(sh.nextSite()), stage, p.table, loc)
		},
		null:    func() uint32 { return m.ConstantNull(in.ResultType()) },
		onError: sh.onError(),
		silent:  sh.opt.RobustOnly,
	}
	blocks, ok := g.split(m, fn.f, b, j)
	if !ok {
		return guarded{}, false
	}
	// Every parameter is dynamic; the flags gain what the pass knows.
	flags := uint32(VertexInShader)
	if g.failOnError() == OnErrorSkip {
		flags |= VertexSkipped
	}
	record := dynamicRecord([RecordParams]uint32{6: flags}, 0, 1, 2, 3, 4, 5, 6)
	return guarded{blocks: blocks, checks: []string{CheckVertexFetchOOB}, record: record, onError: g.failOnError()}, true
}
