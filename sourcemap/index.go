package sourcemap

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// index is the one-time per-module index: the line state before each
// instruction, and the text of each source file with its #line mapping.
type index struct {
	err error
	// at[i] is the position in locs of the line state that applies to
	// instruction i, or -1 when no line applies.
	at    []int32
	locs  []rawLoc
	files map[string]*file
	// order lists file names in declaration order; the first is the
	// main file.
	order    []string
	language string
}

// rawLoc is a line state: a file and a line/column in it.
type rawLoc struct {
	file   string
	line   int
	column int
}

// file is one source file's text, and where each of its lines is in the
// text of the OpSource (or DebugSource) that carries it.
type file struct {
	name  string
	text  strings.Builder
	lines []string // text split into lines
	// mapped[line] is the index in lines of the file's line "line", as the
	// #line directives in the text say; nil when the text has none.
	mapped map[fileLine]int
	// hasDirectives is true when the text contains #line directives.
	hasDirectives bool
}

type fileLine struct {
	file string
	line int
}

func buildIndex(words []uint32) (ix *index) {
	ix = &index{files: map[string]*file{}}
	defer func() {
		if r := recover(); r != nil {
			ix = &index{err: fmt.Errorf("index debug info: %v", r), files: map[string]*file{}}
		}
	}()
	_, insts, err := spirv.ParseInstructions(words)
	if err != nil {
		ix.err = err
		return ix
	}
	strs := map[uint32]string{}        // OpString
	consts := map[uint32]uint32{}      // 32-bit OpConstant values
	debugSets := map[uint32]bool{}     // NonSemantic.Shader.DebugInfo.100 imports
	debugSource := map[uint32]string{} // DebugSource result -> file name
	var lastText *file                 // for OpSourceContinued / DebugSourceContinued
	cur := int32(-1)
	ix.at = make([]int32, len(insts))
	locIndex := map[rawLoc]int32{}
	setLoc := func(l rawLoc) {
		if p, ok := locIndex[l]; ok {
			cur = p
			return
		}
		cur = int32(len(ix.locs))
		locIndex[l] = cur
		ix.locs = append(ix.locs, l)
	}
	for i, in := range insts {
		w := in.Words
		switch in.Opcode() {
		case spirv.OpString:
			if len(w) > 2 {
				strs[w[1]], _ = spirv.DecodeString(w[2:])
			}
		case spirv.OpConstant:
			if len(w) == 4 {
				consts[w[2]] = w[3]
			}
		case spirv.OpExtInstImport:
			if len(w) > 2 {
				if s, _ := spirv.DecodeString(w[2:]); s == "NonSemantic.Shader.DebugInfo.100" {
					debugSets[w[1]] = true
				}
			}
		case spirv.OpSource:
			if len(w) > 1 && ix.language == "" {
				ix.language = languageName(spirv.SourceLanguage(w[1]))
			}
			name := ""
			if len(w) > 3 {
				name = strs[w[3]]
			}
			f := ix.file(name)
			if len(w) > 4 {
				s, _ := spirv.DecodeString(w[4:])
				f.text.WriteString(s)
			}
			lastText = f
		case spirv.OpSourceContinued:
			if lastText != nil && len(w) > 1 {
				s, _ := spirv.DecodeString(w[1:])
				lastText.text.WriteString(s)
			}
		case spirv.OpLine:
			if len(w) >= 4 {
				setLoc(rawLoc{file: strs[w[1]], line: int(w[2]), column: int(w[3])})
			}
		case spirv.OpNoLine, spirv.OpFunction, spirv.OpFunctionEnd:
			cur = -1
		case spirv.OpExtInst:
			if len(w) < 5 || !debugSets[w[3]] {
				break
			}
			switch w[4] {
			case spirv.ShaderDebugInfoDebugSource:
				if len(w) > 5 {
					name := strs[w[5]]
					debugSource[w[2]] = name
					f := ix.file(name)
					if len(w) > 6 && f.text.Len() == 0 {
						f.text.WriteString(strs[w[6]])
						lastText = f
					} else {
						lastText = nil
					}
				}
			case spirv.ShaderDebugInfoDebugSourceContinued:
				if lastText != nil && len(w) > 5 {
					lastText.text.WriteString(strs[w[5]])
				}
			case spirv.ShaderDebugInfoDebugLine:
				// Source, LineStart, LineEnd, ColumnStart, ColumnEnd.
				if len(w) >= 10 {
					setLoc(rawLoc{file: debugSource[w[5]], line: int(consts[w[6]]), column: int(consts[w[8]])})
				}
			case spirv.ShaderDebugInfoDebugNoLine:
				cur = -1
			}
		}
		ix.at[i] = cur
	}
	for _, f := range ix.files {
		f.finish()
	}
	return ix
}

func (ix *index) file(name string) *file {
	f := ix.files[name]
	if f == nil {
		f = &file{name: name}
		ix.files[name] = f
		ix.order = append(ix.order, name)
	}
	return f
}

// finish splits the text and reads its #line directives: after
// `#line N "name"` (or `#line N`), the next line of the text is line N of
// that file (or of the file in effect).
func (f *file) finish() {
	text := f.text.String()
	if text == "" {
		return
	}
	text = strings.TrimSuffix(text, "\n")
	f.lines = strings.Split(text, "\n")
	for i := range f.lines {
		f.lines[i] = strings.TrimSuffix(f.lines[i], "\r")
	}
	curFile, next := f.name, 1
	for i, l := range f.lines {
		if n, name, ok := lineDirective(l); ok {
			if !f.hasDirectives {
				f.hasDirectives = true
				f.mapped = map[fileLine]int{}
			}
			if name != "" {
				curFile = name
			}
			next = n
			continue
		}
		if f.hasDirectives {
			k := fileLine{curFile, next}
			if _, dup := f.mapped[k]; !dup {
				f.mapped[k] = i
			}
		}
		next++
	}
}

// lineDirective parses `#line N` and `#line N "file"` (spaces allowed
// after '#').
func lineDirective(l string) (int, string, bool) {
	s := strings.TrimSpace(l)
	if !strings.HasPrefix(s, "#") {
		return 0, "", false
	}
	s = strings.TrimSpace(s[1:])
	if !strings.HasPrefix(s, "line") {
		return 0, "", false
	}
	fields := strings.Fields(s[4:])
	if len(fields) == 0 {
		return 0, "", false
	}
	n, err := strconv.Atoi(fields[0])
	if err != nil {
		return 0, "", false
	}
	name := ""
	if len(fields) > 1 {
		name = strings.Trim(strings.Join(fields[1:], " "), "\"")
	}
	return n, name, true
}

// textLine returns the text of line n of the named file, looking in every
// text the module carries (a #line directive in the main file's text can
// name an included file).
func (ix *index) textLine(name string, n int) (string, bool) {
	if f := ix.files[name]; f != nil && !f.hasDirectives && n >= 1 && n <= len(f.lines) {
		return f.lines[n-1], true
	}
	for _, fn := range ix.order {
		f := ix.files[fn]
		if f.hasDirectives {
			if i, ok := f.mapped[fileLine{name, n}]; ok {
				return f.lines[i], true
			}
			// A directive without a file name inherits the text's own
			// name, which OpLine may spell as the OpString does.
		}
	}
	return "", false
}

func (ix *index) lookup(instruction int) Location {
	if ix.err != nil {
		return Location{Note: "cannot read the module: " + ix.err.Error()}
	}
	if instruction < 0 || instruction >= len(ix.at) {
		return Location{Note: fmt.Sprintf("instruction %d is not in the module (%d instructions)", instruction, len(ix.at))}
	}
	p := ix.at[instruction]
	if p < 0 {
		return Location{Language: ix.language, Note: "no line information for this instruction (compile the shader with -g)"}
	}
	l := ix.locs[p]
	loc := Location{File: l.file, Line: l.line, Column: l.column, Language: ix.language}
	if loc.Language == "" {
		loc.Language = languageFromName(l.file)
	}
	if t, ok := ix.textLine(l.file, l.line); ok {
		loc.Text = t
	} else {
		loc.Note = "the module carries no source text for this line"
	}
	return loc
}

func (ix *index) fileLines(name string) []string {
	f := ix.files[name]
	if f == nil || len(f.lines) == 0 {
		// An included file whose text sits in another file's #line
		// sections.
		var out []string
		for _, fn := range ix.order {
			g := ix.files[fn]
			if !g.hasDirectives {
				continue
			}
			var nums []int
			for k := range g.mapped {
				if k.file == name {
					nums = append(nums, k.line)
				}
			}
			sort.Ints(nums)
			for _, n := range nums {
				for len(out) < n-1 {
					out = append(out, "")
				}
				out = append(out, g.lines[g.mapped[fileLine{name, n}]])
			}
			if len(out) > 0 {
				return out
			}
		}
		return nil
	}
	if !f.hasDirectives {
		return f.lines
	}
	return ix.fileLinesMapped(f, name)
}

func (ix *index) fileLinesMapped(f *file, name string) []string {
	var nums []int
	for k := range f.mapped {
		if k.file == name {
			nums = append(nums, k.line)
		}
	}
	sort.Ints(nums)
	var out []string
	for _, n := range nums {
		for len(out) < n-1 {
			out = append(out, "")
		}
		out = append(out, f.lines[f.mapped[fileLine{name, n}]])
	}
	return out
}

func languageName(l spirv.SourceLanguage) string {
	switch l {
	case spirv.SourceLanguageGLSL, spirv.SourceLanguageESSL:
		return "glsl"
	case spirv.SourceLanguageHLSL:
		return "hlsl"
	case spirv.SourceLanguageOpenCL_C:
		return "opencl"
	case spirv.SourceLanguageOpenCL_CPP, spirv.SourceLanguageCPP_for_OpenCL, spirv.SourceLanguageSYCL:
		return "cpp"
	}
	if strings.Contains(spirv.KindSourceLanguage.ValueName(uint32(l)), "Slang") {
		return "slang"
	}
	return ""
}

func languageFromName(name string) string {
	switch {
	case strings.HasSuffix(name, ".hlsl"):
		return "hlsl"
	case strings.HasSuffix(name, ".slang"):
		return "slang"
	case name != "":
		return "glsl"
	}
	return ""
}
