// Command gen writes package spirv's opcode, operand-kind and
// extended-instruction-set tables from the Khronos machine-readable grammar
// (spirv.core.grammar.json and the extinst.*.grammar.json files that Debian's
// spirv-headers package installs in /usr/include/spirv/unified1).
//
// It is run by go generate in package spirv:
//
//	go run ./internal/gen -dir /usr/include/spirv/unified1 -out tables_gen.go
//
// The output is gofmt'd and deterministic: it depends only on the grammar
// files.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// extSet describes one extended instruction set grammar file.
type extSet struct {
	file string // file name in the grammar directory
	// name is the OpExtInstImport string; with prefix set, it is the
	// prefix an import name must start with (the rest is a version).
	name   string
	prefix bool
	// goName names the set's variable (ExtInstSet<goName>).
	goName string
	// kindPrefix is put before the names of the set's own operand kinds
	// (KindShaderDebugInfoDebugInfoFlags), which clash between sets.
	kindPrefix string
	// constPrefix, when not empty, asks for uint32 constants naming the
	// set's instruction numbers (ShaderDebugInfoDebugLine).
	constPrefix string
}

var extSets = []extSet{
	{file: "extinst.glsl.std.450.grammar.json", name: "GLSL.std.450", goName: "GLSLStd450", constPrefix: "GLSLstd450"},
	{file: "extinst.opencl.std.100.grammar.json", name: "OpenCL.std", goName: "OpenCLStd"},
	{file: "extinst.debuginfo.grammar.json", name: "DebugInfo", goName: "DebugInfo", kindPrefix: "DebugInfo"},
	{file: "extinst.opencl.debuginfo.100.grammar.json", name: "OpenCL.DebugInfo.100", goName: "OpenCLDebugInfo100", kindPrefix: "OpenCLDebugInfo100"},
	{file: "extinst.nonsemantic.shader.debuginfo.100.grammar.json", name: "NonSemantic.Shader.DebugInfo.100", goName: "ShaderDebugInfo100", kindPrefix: "ShaderDebugInfo", constPrefix: "ShaderDebugInfo"},
	{file: "extinst.nonsemantic.debugprintf.grammar.json", name: "NonSemantic.DebugPrintf", goName: "DebugPrintf", constPrefix: "DebugPrintf"},
	{file: "extinst.nonsemantic.clspvreflection.grammar.json", name: "NonSemantic.ClspvReflection.", prefix: true, goName: "ClspvReflection", kindPrefix: "ClspvReflection"},
	{file: "extinst.spv-amd-shader-ballot.grammar.json", name: "SPV_AMD_shader_ballot", goName: "AMDShaderBallot"},
	{file: "extinst.spv-amd-gcn-shader.grammar.json", name: "SPV_AMD_gcn_shader", goName: "AMDGCNShader"},
	{file: "extinst.spv-amd-shader-explicit-vertex-parameter.grammar.json", name: "SPV_AMD_shader_explicit_vertex_parameter", goName: "AMDShaderExplicitVertexParameter"},
	{file: "extinst.spv-amd-shader-trinary-minmax.grammar.json", name: "SPV_AMD_shader_trinary_minmax", goName: "AMDShaderTrinaryMinmax"},
}

type grammar struct {
	MajorVersion int           `json:"major_version"`
	MinorVersion int           `json:"minor_version"`
	Revision     int           `json:"revision"`
	Version      int           `json:"version"`
	Instructions []instruction `json:"instructions"`
	OperandKinds []operandKind `json:"operand_kinds"`
}

type instruction struct {
	Opname   string    `json:"opname"`
	Class    string    `json:"class"`
	Opcode   uint32    `json:"opcode"`
	Operands []operand `json:"operands"`
}

type operand struct {
	Kind       string `json:"kind"`
	Quantifier string `json:"quantifier"`
	Name       string `json:"name"`
}

type operandKind struct {
	Category   string      `json:"category"`
	Kind       string      `json:"kind"`
	Doc        string      `json:"doc"`
	Enumerants []enumerant `json:"enumerants"`
	Bases      []string    `json:"bases"`
}

type enumerant struct {
	Enumerant  string          `json:"enumerant"`
	Value      json.RawMessage `json:"value"`
	Parameters []operand       `json:"parameters"`
}

func (e enumerant) value() uint32 {
	var n uint64
	var s string
	if err := json.Unmarshal(e.Value, &s); err == nil {
		v, err := strconv.ParseUint(s, 0, 32)
		if err != nil {
			log.Fatalf("enumerant %s: bad value %q", e.Enumerant, s)
		}
		return uint32(v)
	}
	if err := json.Unmarshal(e.Value, &n); err != nil {
		log.Fatalf("enumerant %s: bad value %s", e.Enumerant, e.Value)
	}
	return uint32(n)
}

// inputs hashes every input file, in the order they are read, so that the
// output records which grammar it comes from.
var inputs = sha256.New()

func readInput(path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(inputs, "%s %d\n", filepath.Base(path), len(b))
	inputs.Write(b)
	return b
}

func load(path string) *grammar {
	b := readInput(path)
	var g grammar
	if err := json.Unmarshal(b, &g); err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	return &g
}

// kindRef is an operand kind as it appears in the output.
type kindRef struct {
	goConst string // KindIdRef
	k       *operandKind
	set     string // ext inst set import name, or "" for core kinds
}

type gen struct {
	buf      bytes.Buffer
	core     map[string]*kindRef
	kinds    []*kindRef // in output (and constant) order
	setKinds map[string]map[string]*kindRef
	consts   map[string]string // every exported name we define -> what
}

func (g *gen) p(format string, args ...any) { fmt.Fprintf(&g.buf, format, args...) }

// define records an exported name and fails on a clash.
func (g *gen) define(name, what string) {
	if prev, ok := g.consts[name]; ok {
		log.Fatalf("name clash: %s is both %s and %s", name, prev, what)
	}
	g.consts[name] = what
}

func cleanName(s string) string {
	s = strings.TrimSpace(s)
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' && !strings.Contains(s[1:len(s)-1], "'") {
		s = s[1 : len(s)-1]
	}
	return s
}

func quant(q string) string {
	switch q {
	case "":
		return "QuantOne"
	case "?":
		return "QuantOptional"
	case "*":
		return "QuantVariadic"
	}
	log.Fatalf("unknown quantifier %q", q)
	return ""
}

func (g *gen) operands(ops []operand, set string) string {
	if len(ops) == 0 {
		return "nil"
	}
	var sb strings.Builder
	sb.WriteString("[]OperandInfo{")
	for i, o := range ops {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "{%s, %s, %q}", g.kindConst(o.Kind, set), quant(o.Quantifier), cleanName(o.Name))
	}
	sb.WriteString("}")
	return sb.String()
}

func (g *gen) kindConst(kind, set string) string {
	if set != "" {
		if r, ok := g.setKinds[set][kind]; ok {
			return r.goConst
		}
	}
	r, ok := g.core[kind]
	if !ok {
		log.Fatalf("unknown operand kind %q (set %q)", kind, set)
	}
	return r.goConst
}

func category(c string) string {
	switch c {
	case "BitEnum":
		return "CategoryBitEnum"
	case "ValueEnum":
		return "CategoryValueEnum"
	case "Id":
		return "CategoryID"
	case "Literal":
		return "CategoryLiteral"
	case "Composite":
		return "CategoryComposite"
	}
	log.Fatalf("unknown operand kind category %q", c)
	return ""
}

// goIdent makes an enumerant name a valid Go identifier tail.
func goIdent(s string) string {
	var sb strings.Builder
	for _, r := range s {
		if r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			sb.WriteRune(r)
		} else {
			sb.WriteRune('_')
		}
	}
	return sb.String()
}

// sortedEnumerants returns the enumerants sorted by value, keeping only the
// first (in grammar order) of those sharing a value.
func sortedEnumerants(es []enumerant) []enumerant {
	out := append([]enumerant(nil), es...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].value() < out[j].value() })
	var uniq []enumerant
	for i, e := range out {
		if i > 0 && e.value() == out[i-1].value() {
			continue
		}
		uniq = append(uniq, e)
	}
	return uniq
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("gen: ")
	dir := flag.String("dir", "/usr/include/spirv/unified1", "directory holding spirv.core.grammar.json and the extinst.*.grammar.json files")
	out := flag.String("out", "tables_gen.go", "output file")
	pkg := flag.String("pkg", "spirv", "package name of the output")
	registry := flag.String("registry", "", "the SPIR-V registry spir-v.xml, for generator (tool) names (default: ../spir-v.xml next to -dir)")
	flag.Parse()

	core, sets := loadGrammars(*dir)
	g := newGen(core, sets)
	g.header(core, *pkg)
	g.opcodes(core)
	g.operandKinds()
	g.enumTypes()
	g.extInstSets(sets)
	if *registry == "" {
		*registry = filepath.Join(*dir, "..", "spir-v.xml")
	}
	g.generators(*registry)
	g.write(*out)
}

// loadedSet is an extended instruction set with its grammar.
type loadedSet struct {
	extSet
	g *grammar
}

// loadGrammars reads the core grammar and the known extended instruction
// sets' from dir, and notes the sets it does not know.
func loadGrammars(dir string) (*grammar, []loadedSet) {
	core := load(filepath.Join(dir, "spirv.core.grammar.json"))
	supplement(core, load(supplementFile))
	var sets []loadedSet
	known := map[string]bool{}
	for _, s := range extSets {
		known[s.file] = true
		sets = append(sets, loadedSet{s, load(filepath.Join(dir, s.file))})
	}
	if others, _ := filepath.Glob(filepath.Join(dir, "extinst.*.grammar.json")); len(others) > 0 {
		for _, f := range others {
			if !known[filepath.Base(f)] {
				fmt.Fprintf(os.Stderr, "gen: note: %s is not a known extended instruction set; skipped\n", filepath.Base(f))
			}
		}
	}

	return core, sets
}

// supplementFile is the grammar fragment merged into the core grammar: what
// older installed grammars lack and the project needs (its comment says
// what). It is an input like the grammar files, so the digest covers it.
const supplementFile = "internal/gen/supplement.json"

// supplement merges into core each instruction (by opcode), operand kind (by
// name) and enumerant (by value) of extra that core does not have; an added
// instruction goes before the first with a larger opcode.
func supplement(core, extra *grammar) {
	have := map[uint32]bool{}
	for _, in := range core.Instructions {
		have[in.Opcode] = true
	}
	for _, in := range extra.Instructions {
		if have[in.Opcode] {
			continue
		}
		i := sort.Search(len(core.Instructions), func(i int) bool { return core.Instructions[i].Opcode > in.Opcode })
		core.Instructions = append(core.Instructions[:i], append([]instruction{in}, core.Instructions[i:]...)...)
	}
	for _, k := range extra.OperandKinds {
		j := -1
		for i := range core.OperandKinds {
			if core.OperandKinds[i].Kind == k.Kind {
				j = i
			}
		}
		if j < 0 {
			core.OperandKinds = append(core.OperandKinds, k)
			continue
		}
		values := map[uint32]bool{}
		for _, e := range core.OperandKinds[j].Enumerants {
			values[e.value()] = true
		}
		for _, e := range k.Enumerants {
			if !values[e.value()] {
				core.OperandKinds[j].Enumerants = append(core.OperandKinds[j].Enumerants, e)
			}
		}
	}
}

// newGen numbers the operand kinds: the core grammar's, then each set's.
func newGen(core *grammar, sets []loadedSet) *gen {
	g := &gen{core: map[string]*kindRef{}, setKinds: map[string]map[string]*kindRef{}, consts: map[string]string{}}
	for i := range core.OperandKinds {
		k := &core.OperandKinds[i]
		r := &kindRef{goConst: "Kind" + k.Kind, k: k}
		g.core[k.Kind] = r
		g.kinds = append(g.kinds, r)
	}
	for _, s := range sets {
		if len(s.g.OperandKinds) > 0 && s.kindPrefix == "" {
			log.Fatalf("%s defines operand kinds but has no kind prefix", s.file)
		}
		m := map[string]*kindRef{}
		for i := range s.g.OperandKinds {
			k := &s.g.OperandKinds[i]
			r := &kindRef{goConst: "Kind" + s.kindPrefix + k.Kind, k: k, set: s.name}
			m[k.Kind] = r
			g.kinds = append(g.kinds, r)
		}
		g.setKinds[s.name] = m
	}
	if len(g.kinds) >= 250 {
		log.Fatalf("%d operand kinds do not fit OperandKind (uint8) below KindUnknownWord", len(g.kinds))
	}

	return g
}

// header writes the file's header and the grammar's version.
func (g *gen) header(core *grammar, pkg string) {
	g.p("// Code generated by spirv/internal/gen; DO NOT EDIT.\n")
	g.p("// Source: spirv.core.grammar.json %d.%d revision %d and the extended instruction set grammars.\n\n", core.MajorVersion, core.MinorVersion, core.Revision)
	g.p("package %s\n\n", pkg)
	g.p("// GrammarVersion is the SPIR-V version of the grammar the tables come from (0x00MMmm00, as in a module header).\n")
	g.p("const GrammarVersion uint32 = 0x%08x\n\n", uint32(core.MajorVersion)<<16|uint32(core.MinorVersion)<<8)
	g.p("// GrammarRevision is the revision of the grammar the tables come from.\n")
	g.p("const GrammarRevision = %d\n\n", core.Revision)

}

// opcodes writes the opcode constants and the opcode table.
func (g *gen) opcodes(core *grammar) {
	g.p("// Opcode values, named as in the grammar. An alias (OpDecorateStringGOOGLE) is\n")
	g.p("// a constant equal to the opcode it aliases; the tables hold the first name only.\n")
	g.p("const (\n")
	firstOp := map[uint32]string{}
	maxOp := uint32(0)
	for _, in := range core.Instructions {
		g.define(in.Opname, "opcode")
		if f, ok := firstOp[in.Opcode]; ok {
			g.p("\t%s Opcode = %d // alias of %s\n", in.Opname, in.Opcode, f)
			continue
		}
		firstOp[in.Opcode] = in.Opname
		g.p("\t%s Opcode = %d\n", in.Opname, in.Opcode)
		if in.Opcode > maxOp {
			maxOp = in.Opcode
		}
	}
	g.p(")\n\n")
	// spirv-dis (SPIRV-Tools) sorts its opcode table by value, then name,
	// and so prints the alphabetically first of aliases; record where that
	// is not the first in the grammar.
	minName := map[uint32]string{}
	for _, in := range core.Instructions {
		if m, ok := minName[in.Opcode]; !ok || in.Opname < m {
			minName[in.Opcode] = in.Opname
		}
	}
	g.p("// disasmOpNames holds, for the aliased opcodes whose alphabetically first\n")
	g.p("// name (the one spirv-dis prints) is not the first in the grammar, that name.\n")
	g.p("var disasmOpNames = map[Opcode]string{\n")
	for _, in := range core.Instructions {
		if firstOp[in.Opcode] == in.Opname && minName[in.Opcode] != in.Opname {
			g.p("\t%s: %q,\n", in.Opname, minName[in.Opcode])
		}
	}
	g.p("}\n\n")
	g.p("// maxOpcode is the largest opcode in the tables.\n")
	g.p("const maxOpcode = %d\n\n", maxOp)
	g.p("// opInfos holds one entry per opcode value, in grammar order.\n")
	g.p("var opInfos = [...]OpInfo{\n")
	for _, in := range core.Instructions {
		if firstOp[in.Opcode] != in.Opname {
			continue
		}
		ops := in.Operands
		hasType, hasResult := false, false
		if len(ops) > 0 && ops[0].Kind == "IdResultType" {
			hasType = true
			ops = ops[1:]
		}
		if len(ops) > 0 && ops[0].Kind == "IdResult" {
			hasResult = true
			ops = ops[1:]
		}
		for _, o := range ops {
			if o.Kind == "IdResultType" || o.Kind == "IdResult" {
				log.Fatalf("%s: %s operand out of place", in.Opname, o.Kind)
			}
		}
		g.p("\t{Name: %q, Opcode: %s, Class: %q", in.Opname, in.Opname, in.Class)
		if hasType {
			g.p(", HasType: true")
		}
		if hasResult {
			g.p(", HasResult: true")
		}
		if len(ops) > 0 {
			g.p(", Operands: %s", g.operands(ops, ""))
		}
		g.p("},\n")
	}
	g.p("}\n\n")

}

// operandKinds writes the operand kind constants and their table.
func (g *gen) operandKinds() {
	g.p("// Operand kinds: one per kind of the core grammar, then those the extended\n")
	g.p("// instruction sets define, prefixed by the set (KindShaderDebugInfoDebugInfoFlags).\n")
	g.p("const (\n")
	for i, r := range g.kinds {
		g.define(r.goConst, "operand kind")
		doc := strings.TrimSpace(r.k.Doc)
		if r.set != "" {
			doc = fmt.Sprintf("%s: operand kind %s of the %s extended instruction set", r.goConst, r.k.Kind, strings.TrimSuffix(r.set, "."))
		} else if doc != "" {
			doc = r.goConst + ": " + strings.ReplaceAll(doc, "\n", " ")
		} else {
			doc = fmt.Sprintf("%s: operand kind %s (%s)", r.goConst, r.k.Kind, r.k.Category)
		}
		g.p("\t// %s.\n\t%s OperandKind = %d\n", strings.TrimSuffix(doc, "."), r.goConst, i+1)
	}
	g.p(")\n\n")
	g.p("// numKinds is one more than the largest generated OperandKind.\n")
	g.p("const numKinds = %d\n\n", len(g.kinds)+1)
	g.p("var kindInfos = [numKinds]KindInfo{\n")
	for _, r := range g.kinds {
		k := r.k
		g.p("\t%s: {Name: %q, Category: %s", r.goConst, k.Kind, category(k.Category))
		if r.set != "" {
			g.p(", Set: %q", r.set)
		}
		if len(k.Bases) > 0 {
			var bs []string
			for _, b := range k.Bases {
				bs = append(bs, g.kindConst(b, r.set))
			}
			g.p(", Bases: []OperandKind{%s}", strings.Join(bs, ", "))
		}
		if len(k.Enumerants) > 0 {
			hasParams := false
			g.p(", Enumerants: []EnumerantInfo{\n")
			for _, e := range sortedEnumerants(k.Enumerants) {
				g.p("\t\t{%q, 0x%x, %s},\n", e.Enumerant, e.value(), g.operands(e.Parameters, r.set))
				if len(e.Parameters) > 0 {
					hasParams = true
				}
			}
			g.p("\t}")
			if hasParams {
				g.p(", HasParams: true")
			}
		}
		g.p("},\n")
	}
	g.p("}\n\n")

}

// enumTypes writes a typed enum for each core enum kind.
func (g *gen) enumTypes() {
	for _, r := range g.kinds {
		k := r.k
		if r.set != "" || (k.Category != "ValueEnum" && k.Category != "BitEnum") {
			continue
		}
		g.define(k.Kind, "enum type")
		what := "value"
		if k.Category == "BitEnum" {
			what = "bit mask"
		}
		g.p("// %s is a %s of the %s operand kind; its constants are named %s<Enumerant>.\n", k.Kind, what, k.Kind, k.Kind)
		g.p("type %s uint32\n\n", k.Kind)
		g.p("// %s constants, as in the grammar (aliases included).\n", k.Kind)
		g.p("const (\n")
		for _, e := range k.Enumerants {
			name := k.Kind + goIdent(e.Enumerant)
			g.define(name, "enumerant")
			g.p("\t%s %s = 0x%x\n", name, k.Kind, e.value())
		}
		g.p(")\n\n")
		if k.Category == "BitEnum" {
			g.p("// String names the mask as the disassembler does (Bias|ConstOffset).\n")
			g.p("func (v %s) String() string { return %s.MaskName(uint32(v)) }\n\n", k.Kind, r.goConst)
		} else {
			g.p("// String returns the enumerant's name, or its number when unknown.\n")
			g.p("func (v %s) String() string { return %s.ValueName(uint32(v)) }\n\n", k.Kind, r.goConst)
		}
	}

}

// extInstSets writes the extended instruction sets' constants and tables.
func (g *gen) extInstSets(sets []loadedSet) {
	for _, s := range sets {
		if s.constPrefix == "" {
			continue
		}
		g.p("// Instruction numbers of the %s extended instruction set.\n", strings.TrimSuffix(s.name, "."))
		g.p("const (\n")
		for _, in := range s.g.Instructions {
			name := s.constPrefix + goIdent(in.Opname)
			g.define(name, "ext inst number")
			g.p("\t%s uint32 = %d\n", name, in.Opcode)
		}
		g.p(")\n\n")
	}
	for _, s := range sets {
		v := "ExtInstSet" + s.goName
		g.define(v, "ext inst set")
		g.p("// %s is the %s extended instruction set", v, s.name)
		if s.prefix {
			g.p(" (any version: its import name is %q followed by a version)", s.name)
		}
		g.p(".\n")
		g.p("var %s = &ExtInstSet{Name: %q", v, s.name)
		if s.prefix {
			g.p(", NamePrefix: true")
		}
		rev := s.g.Revision
		g.p(", Version: %d, Revision: %d", s.g.Version, rev)
		if strings.HasPrefix(s.name, "NonSemantic.") {
			g.p(", NonSemantic: true")
		}
		g.p(", Insts: []ExtInstInfo{\n")
		seen := map[uint32]bool{}
		insts := append([]instruction(nil), s.g.Instructions...)
		sort.SliceStable(insts, func(i, j int) bool { return insts[i].Opcode < insts[j].Opcode })
		for _, in := range insts {
			if seen[in.Opcode] {
				continue
			}
			seen[in.Opcode] = true
			g.p("\t%d: {Name: %q, Number: %d", in.Opcode, in.Opname, in.Opcode)
			if len(in.Operands) > 0 {
				g.p(", Operands: %s", g.operands(in.Operands, s.name))
			}
			g.p("},\n")
		}
		g.p("}}\n\n")
	}
	g.p("// ExtInstSets lists the extended instruction sets the tables know.\n")
	g.p("var ExtInstSets = []*ExtInstSet{")
	for i, s := range sets {
		if i > 0 {
			g.p(", ")
		}
		g.p("ExtInstSet%s", s.goName)
	}
	g.p("}\n")

}

// write puts the grammar digest after the generated-code marker, formats
// the output and writes it to out.
func (g *gen) write(out string) {
	// The digest goes in the second line, after the generated-code marker.
	out1 := g.buf.Bytes()
	nl := bytes.IndexByte(out1, '\n') + 1
	var full bytes.Buffer
	full.Write(out1[:nl])
	fmt.Fprintf(&full, "// Grammar digest: %x\n", inputs.Sum(nil))
	full.Write(out1[nl:])

	src, err := format.Source(full.Bytes())
	if err != nil {
		os.WriteFile(out+".broken", g.buf.Bytes(), 0o644)
		log.Fatalf("formatting output: %v (unformatted output in %s.broken)", err, out)
	}
	if err := os.WriteFile(out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// generators writes the table of generator (tool) names of the SPIR-V
// registry, named as spirv-dis names them: the vendor, then the tool.
func (g *gen) generators(path string) {
	b := readInput(path)
	var reg struct {
		IDs []struct {
			Type string `xml:"type,attr"`
			ID   []struct {
				Value  uint32 `xml:"value,attr"`
				Vendor string `xml:"vendor,attr"`
				Tool   string `xml:"tool,attr"`
			} `xml:"id"`
		} `xml:"ids"`
	}
	if err := xml.Unmarshal(b, &reg); err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	g.p("\n// generatorNames names the generators (tools) of the SPIR-V registry by their\n")
	g.p("// number, the high 16 bits of a module's generator word.\n")
	g.p("var generatorNames = map[uint32]string{\n")
	n := 0
	for _, ids := range reg.IDs {
		if ids.Type != "vendor" {
			continue
		}
		for _, id := range ids.ID {
			name := id.Vendor
			if id.Tool != "" {
				name += " " + id.Tool
			}
			g.p("\t%d: %q,\n", id.Value, name)
			n++
		}
	}
	g.p("}\n")
	if n == 0 {
		log.Fatalf("%s: no generator ids", path)
	}
}
