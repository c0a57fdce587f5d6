package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The floors of the layer's C half (docs/layer-map.md). A file may call a
// function, or include a header, of its own floor or of a floor below,
// never above, and the files' calls make no cycle. Every .c and .h file of
// layer/ has its place here: a new file gets one before it builds.
var layerFloors = map[string]int{
	// 0, the ground: lookups, logging, the types everyone reads.
	"layer.h": 0, "state.h": 0, "dispatch_table.h": 0, "vk14.h": 0, "vk_shader_object.h": 0,
	"inputs_gen.h": 0, "prepass_gen.h": 0, "prepass_spv_gen.h": 0, "prepass_accel_spv_gen.h": 0, "shared_gen.h": 0,
	"hmap.h": 0, "hmap.c": 0, "ground.h": 0, "ground.c": 0,
	// 1, rooms that stand on the ground alone.
	"facts.h": 1, "crumbs_marks.h": 1, "crumbs_marks.c": 1, "prepass_pack.h": 1, "prepass_pack.c": 1,
	"resources.h": 1, "resources.c": 1, "addresses.h": 1, "addresses.c": 1, "memory.h": 1, "memory.c": 1,
	"cache.h": 1, "cache.c": 1, "messenger.h": 1, "messenger.c": 1, "modules.h": 1, "modules.c": 1,
	// 2, the state rooms.
	"descriptors.h": 2, "descriptors.c": 2, "prepass.h": 2, "prepass.c": 2, "fault.h": 2, "fault.c": 2,
	// 3, the rooms that decide per action.
	"variants.h": 3, "variants.c": 3, "cmdchecks.h": 3, "cmdchecks.c": 3, "crumbs.h": 3, "crumbs.c": 3,
	"accel.h": 3, "accel.c": 3, "depthcopy.h": 3, "depthcopy.c": 3,
	// 4, the rooms of objects and submits.
	"pipeline.h": 4, "pipeline.c": 4, "shaderobj.h": 4, "shaderobj.c": 4, "submit.h": 4, "submit.c": 4,
	// 5, the command-buffer owner: every vkCmd* command.
	"cmdbuf.h": 5, "cmdbuf.c": 5,
	// 6, the device owner: the one way rooms are set up and torn down.
	"device.h": 6, "device.c": 6,
	// 7, the loader face.
	"dispatch.c": 7,
}

// floorRules is what checkFloors checks a tree of C files against.
type floorRules struct {
	floors  map[string]int
	owner   string // the file that intercepts every vkCmd* command
	actions string // the header whose GPUAVDBG_CMDS lists the action commands
}

// TestFloors checks the layer's C files against their floors: no call or
// include runs up, the files' calls make no cycle, every vkCmd* command
// (every action) is intercepted by cmdbuf.c, each command by one file,
// CMD_PROLOGUE is defined once, intercepts are named icpt_<Command>.
func TestFloors(t *testing.T) {
	rules := floorRules{floors: layerFloors, owner: "cmdbuf.c", actions: "state.h"}
	problems, err := checkFloors(".", rules)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	for f := range layerFloors {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("the floor table names %s, which is gone: %v", f, err)
		}
	}
}

// TestBoundaryHeader holds layer.h to the boundary: the types Go's exports
// take and the constants both halves read. A C function (a helper Go
// calls, or one room's for another) is declared in the header of the room
// that defines it, and Go calls it from chelpers.go, whose preamble stays
// out of _cgo_export.h.
func TestBoundaryHeader(t *testing.T) {
	b, err := os.ReadFile("layer.h")
	if err != nil {
		t.Fatal(err)
	}
	proto := regexp.MustCompile(`(?m)^[A-Za-z_][\w \t\*]*\b(\w+)\s*\([^)]*\)?[^;{]*;`)
	for _, m := range proto.FindAllStringSubmatch(string(b), -1) {
		if !strings.HasPrefix(m[0], "typedef") {
			t.Errorf("layer.h declares %s: declare it in the header of the room that defines it", m[1])
		}
	}
	if n := strings.Count(string(b), "\n"); n >= 150 {
		t.Errorf("layer.h is %d lines: the boundary's types only, under 150", n)
	}
}

// TestFloorsCatch runs the checker on a small tree that breaks every rule
// (testdata/floors): it must find each break, and nothing else.
func TestFloorsCatch(t *testing.T) {
	rules := floorRules{
		floors: map[string]int{
			"ground.h": 0, "ground.c": 0, "room.h": 1, "room.c": 1, "other.h": 1, "other.c": 1,
			"owner.h": 2, "owner.c": 2,
		},
		owner:   "owner.c",
		actions: "ground.h",
	}
	problems, err := checkFloors("testdata/floors", rules)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"CMD_PROLOGUE is defined 2 times (owner.c, room.c): define it once, in owner.c",
		"action vkCmdDispatch is not intercepted by owner.c",
		"cycle: ground, other, room call each other",
		"ground.c (floor 0) calls room_hook of room.c (floor 1): a lower floor never calls up",
		"ground.c (floor 0) includes room.h (floor 1): a lower floor never includes an upper one",
		"ground.h (floor 0) includes room.h (floor 1): a lower floor never includes an upper one",
		"room.c intercepts vkCmdDrawIndirect: every vkCmd* command belongs to owner.c",
		"room.c: intercept gl_CmdDrawIndirect is not named icpt_CmdDrawIndirect",
		"stray.c is on no floor: give it one in the floor table",
		"vkCreateThing is intercepted by other.c and room.c: one owner per command",
	}
	got := strings.Join(problems, "\n")
	if got != strings.Join(want, "\n") {
		t.Errorf("problems found:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// cFile is what checkFloors reads of one C file.
type cFile struct {
	name      string
	src       string
	defs      map[string]bool // functions it defines that other files may call
	local     map[string]bool // static functions (only its own)
	calls     map[string]bool
	includes  []string
	icpts     []string // GPUAVDBG_ICPT(Command) entries: the commands it intercepts
	prologues int      // definitions of CMD_PROLOGUE
	badNames  []string // VKAPI_CALL functions not named icpt_<Command>
}

var cKeywords = map[string]bool{
	"if": true, "while": true, "for": true, "switch": true, "return": true, "sizeof": true, "defined": true,
	"__attribute__": true, "__typeof__": true, "_Alignof": true, "offsetof": true,
}

// checkFloors reads every .c and .h file of dir and returns the rules it
// breaks, sorted.
func checkFloors(dir string, rules floorRules) ([]string, error) {
	var names []string
	for _, pat := range []string{"*.c", "*.h"} {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			return nil, err
		}
		for _, f := range m {
			names = append(names, filepath.Base(f))
		}
	}
	sort.Strings(names)
	var problems []string
	files := map[string]*cFile{}
	for _, n := range names {
		if _, ok := rules.floors[n]; !ok {
			problems = append(problems, fmt.Sprintf("%s is on no floor: give it one in the floor table", n))
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		files[n] = parseC(n, string(b))
	}
	definedIn := map[string]string{}
	for _, n := range sortedKeys(files) {
		for d := range files[n].defs {
			definedIn[d] = n
		}
	}
	// A room is a .c file and its header: the calls between its rooms must
	// make no cycle.
	room := func(f string) string { return strings.TrimSuffix(strings.TrimSuffix(f, ".c"), ".h") }
	calls := map[string]map[string]bool{} // room -> rooms it calls
	for _, n := range sortedKeys(files) {
		f := files[n]
		for _, c := range sortedKeys(f.calls) {
			to, ok := definedIn[c]
			if !ok || to == n || f.local[c] {
				continue
			}
			if room(to) != room(n) {
				if calls[room(n)] == nil {
					calls[room(n)] = map[string]bool{}
				}
				calls[room(n)][room(to)] = true
			}
			if rules.floors[to] > rules.floors[n] {
				problems = append(problems, fmt.Sprintf("%s (floor %d) calls %s of %s (floor %d): a lower floor never calls up",
					n, rules.floors[n], c, to, rules.floors[to]))
			}
		}
		for _, inc := range f.includes {
			if fl, ok := rules.floors[inc]; ok && fl > rules.floors[n] {
				problems = append(problems, fmt.Sprintf("%s (floor %d) includes %s (floor %d): a lower floor never includes an upper one",
					n, rules.floors[n], inc, fl))
			}
		}
		for _, bad := range f.badNames {
			problems = append(problems, fmt.Sprintf("%s: intercept %s is not named icpt_%s", n, bad, strings.TrimPrefix(bad, "gl_")))
		}
	}
	problems = append(problems, cycles(calls)...)

	// One owner per command; every vkCmd* command, every action, in the owner.
	owners := map[string][]string{}
	prologues := []string{}
	for _, n := range sortedKeys(files) {
		for _, c := range files[n].icpts {
			owners[c] = append(owners[c], n)
		}
		for i := 0; i < files[n].prologues; i++ {
			prologues = append(prologues, n)
		}
	}
	for _, c := range sortedKeys(owners) {
		o := owners[c]
		if len(o) > 1 {
			problems = append(problems, fmt.Sprintf("vk%s is intercepted by %s: one owner per command", c, strings.Join(o, " and ")))
		}
		for _, f := range o {
			if strings.HasPrefix(c, "Cmd") && f != rules.owner {
				problems = append(problems, fmt.Sprintf("%s intercepts vk%s: every vkCmd* command belongs to %s", f, c, rules.owner))
			}
		}
	}
	if a, ok := files[rules.actions]; ok {
		for _, action := range actionCommands(a.src) {
			if !contains(owners[action], rules.owner) {
				problems = append(problems, fmt.Sprintf("action vk%s is not intercepted by %s", action, rules.owner))
			}
		}
	}
	if len(prologues) != 1 || prologues[0] != rules.owner {
		problems = append(problems, fmt.Sprintf("CMD_PROLOGUE is defined %d times (%s): define it once, in %s",
			len(prologues), strings.Join(prologues, ", "), rules.owner))
	}
	sort.Strings(problems)
	return problems, nil
}

// cycles returns the groups of rooms whose calls reach each other.
func cycles(calls map[string]map[string]bool) []string {
	reach := func(from string) map[string]bool {
		seen := map[string]bool{}
		stack := []string{from}
		for len(stack) > 0 {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for to := range calls[f] {
				if !seen[to] {
					seen[to] = true
					stack = append(stack, to)
				}
			}
		}
		return seen
	}
	var out []string
	done := map[string]bool{}
	for _, f := range sortedKeys(calls) {
		if done[f] {
			continue
		}
		r := reach(f)
		if !r[f] {
			continue
		}
		group := []string{f}
		for g := range r {
			if g != f && reach(g)[f] {
				group = append(group, g)
			}
		}
		sort.Strings(group)
		for _, g := range group {
			done[g] = true
		}
		out = append(out, fmt.Sprintf("cycle: %s call each other", strings.Join(group, ", ")))
	}
	return out
}

var (
	cmdsName = regexp.MustCompile(`X\(\w+, "vk(\w+)"\)`)
	icptRe   = regexp.MustCompile(`GPUAVDBG_ICPT\((\w+)\)`)
	includeR = regexp.MustCompile(`^\s*#\s*include\s+"([^"]+)"`)
)

// actionCommands returns the Vulkan names (without vk) of GPUAVDBG_CMDS.
func actionCommands(text string) []string {
	var out []string
	for _, m := range cmdsName.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// parseC reads a C file's definitions, calls, includes and intercept
// table entries. It knows as much C as the layer's files use: comments,
// strings, preprocessor lines (a macro's body counts as calls from the
// file that defines it), brace depth.
func parseC(name, src string) *cFile {
	f := &cFile{name: name, src: src, defs: map[string]bool{}, local: map[string]bool{}, calls: map[string]bool{}}
	src = stripComments(src)
	for _, line := range strings.Split(src, "\n") {
		if m := includeR.FindStringSubmatch(line); m != nil {
			f.includes = append(f.includes, m[1])
		}
	}
	header := strings.HasSuffix(name, ".h")
	toks := tokenize(src)
	depth, parens := 0, 0
	declStart := 0 // first token of the current declaration at depth 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.directive != "" {
			if strings.HasPrefix(t.directive, "define CMD_PROLOGUE") {
				f.prologues++
			}
			if !strings.HasPrefix(t.directive, "define GPUAVDBG_ICPT") {
				for _, m := range icptRe.FindAllStringSubmatch(t.directive, -1) {
					f.icpts = append(f.icpts, m[1])
				}
			}
			if strings.HasPrefix(t.directive, "define") {
				body := t.directive
				for _, c := range callsIn(tokenize(body)) {
					f.calls[c] = true
				}
			}
			declStart = i + 1
			continue
		}
		switch t.s {
		case "{":
			if depth == 0 && parens == 0 {
				if fn, static, vk := definedFunction(toks[declStart:i]); fn != "" {
					if static && !header {
						f.local[fn] = true
					} else {
						f.defs[fn] = true
					}
					if vk && !strings.HasPrefix(fn, "icpt_") && fn != "vkNegotiateLoaderLayerInterfaceVersion" &&
						strings.ToUpper(fn) != fn {
						f.badNames = append(f.badNames, fn)
					}
				}
			}
			depth++
		case "}":
			depth--
			if depth == 0 {
				declStart = i + 1
			}
		case "(":
			parens++
		case ")":
			parens--
		case ";":
			if depth == 0 {
				declStart = i + 1
			}
		}
		if depth > 0 && isIdent(t.s) && i+1 < len(toks) && toks[i+1].s == "(" && !cKeywords[t.s] {
			f.calls[t.s] = true
		}
		if t.s == "GPUAVDBG_ICPT" && i+2 < len(toks) && toks[i+1].s == "(" {
			f.icpts = append(f.icpts, toks[i+2].s)
		}
	}
	return f
}

// definedFunction reads a declaration that a '{' follows at depth 0: the
// function it defines (its name before the parameter list), whether it is
// static, and whether it is a VKAPI_CALL (an intercept); "" for anything
// else (a struct, an initializer).
func definedFunction(decl []token) (name string, static, vkapi bool) {
	for i := 0; i < len(decl); i++ {
		t := decl[i]
		if t.s == "__attribute__" { // skip its parenthesized list
			depth := 0
			for i++; i < len(decl); i++ {
				if decl[i].s == "(" {
					depth++
				} else if decl[i].s == ")" {
					if depth--; depth == 0 {
						break
					}
				}
			}
			continue
		}
		switch t.s {
		case "=", "struct", "union", "enum":
			if i == 0 || t.s == "=" {
				return "", false, false
			}
		case "static":
			static = true
		case "VKAPI_CALL":
			vkapi = true
		case "(":
			if i > 0 && isIdent(decl[i-1].s) {
				name = decl[i-1].s
				// the name may be pasted: icpt_##fn
				if i > 2 && decl[i-2].s == "##" {
					name = decl[i-3].s + "##" + decl[i-1].s
				}
				return name, static, vkapi
			}
		}
	}
	return "", false, false
}

// callsIn returns the identifiers followed by '(' in a macro body.
func callsIn(toks []token) []string {
	var out []string
	for i, t := range toks {
		if i > 0 && isIdent(t.s) && i+1 < len(toks) && toks[i+1].s == "(" && !cKeywords[t.s] {
			out = append(out, t.s)
		}
	}
	return out
}

type token struct {
	s         string
	directive string // a whole preprocessor line (continuations joined), without '#'
}

// tokenize splits C text (comments stripped) into identifiers, numbers
// and punctuation; a preprocessor line is one token.
func tokenize(src string) []token {
	var toks []token
	lineStart := true
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\\':
			i++
		case c == '#' && lineStart:
			j := i + 1
			var b strings.Builder
			for j < len(src) && src[j] != '\n' {
				if src[j] == '\\' && j+1 < len(src) && src[j+1] == '\n' {
					b.WriteByte(' ')
					j += 2
					continue
				}
				b.WriteByte(src[j])
				j++
			}
			toks = append(toks, token{directive: strings.TrimSpace(b.String())})
			i = j
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			toks = append(toks, token{s: `""`})
			i = j + 1
			lineStart = false
		case isIdentByte(c):
			j := i
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			toks = append(toks, token{s: src[i:j]})
			i = j
			lineStart = false
		case c == '#' && i+1 < len(src) && src[i+1] == '#':
			toks = append(toks, token{s: "##"})
			i += 2
		default:
			toks = append(toks, token{s: string(c)})
			i++
			lineStart = false
		}
	}
	return toks
}

// stripComments replaces comments with a space (newlines kept).
func stripComments(src string) string {
	var b strings.Builder
	for i := 0; i < len(src); {
		switch {
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			b.WriteString(strings.Repeat("\n", strings.Count(src[i:i+2+end+2], "\n")))
			b.WriteByte(' ')
			i += 2 + end + 2
		case strings.HasPrefix(src[i:], "//"):
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				return b.String()
			}
			i += end
		case src[i] == '"' || src[i] == '\'':
			q := src[i]
			j := i + 1
			for j < len(src) && src[j] != q {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			b.WriteString(src[i:min(j+1, len(src))])
			i = j + 1
		default:
			b.WriteByte(src[i])
			i++
		}
	}
	return b.String()
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isIdent(s string) bool {
	return s != "" && isIdentByte(s[0]) && !(s[0] >= '0' && s[0] <= '9')
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
