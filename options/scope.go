package options

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"strings"
)

// The scope: which pipelines the layer instruments, by the debug names of
// the pipeline and of its shader modules (docs/decisions/scope-by-name.md).
// A pattern is a glob over the whole name (* any run of characters, ? one,
// [abc] one of a class) or, after "re:", a Go regular expression matched
// anywhere in the name; patterns are separated by commas. "pipeline:" before
// a pattern matches only pipelines' names, "module:" only shader modules';
// a module also answers to "spirv:" and its code's hash (SPIRVName), so
// that a pipeline nothing names can still be scoped.

// ScopePattern is one pattern of scope_include or scope_exclude.
type ScopePattern struct {
	// Text is the pattern as written.
	Text   string
	target scopeTarget
	re     *regexp.Regexp
}

// scopeTarget is which names a pattern matches.
type scopeTarget int

const (
	anyName scopeTarget = iota
	pipelineName
	moduleName
)

// Match reports whether name matches the pattern.
func (p ScopePattern) Match(name string) bool { return p.re.MatchString(name) }

// ScopeNames are the names a pipeline answers to: its own debug name (""
// when it has none, or none yet), and its shader modules' debug names and
// SPIRVNames.
type ScopeNames struct {
	Pipeline string
	Modules  []string
}

// matches returns the first name of n that p matches.
func (p ScopePattern) matches(n ScopeNames) (string, bool) {
	if p.target != moduleName && n.Pipeline != "" && p.Match(n.Pipeline) {
		return n.Pipeline, true
	}
	if p.target != pipelineName {
		for _, m := range n.Modules {
			if m != "" && p.Match(m) {
				return m, true
			}
		}
	}
	return "", false
}

// PipelineScope is the run's scope: a pipeline is instrumented when one of its
// names matches Include (or Include is empty) and none matches Exclude.
type PipelineScope struct {
	Include, Exclude []ScopePattern
	// IncludeText and ExcludeText are the settings as written.
	IncludeText, ExcludeText string
}

// ParseScopePatterns reads comma-separated patterns.
func ParseScopePatterns(s string) ([]ScopePattern, error) {
	var out []ScopePattern
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		var expr string
		target, body := anyName, p
		if rest, ok := strings.CutPrefix(body, "pipeline:"); ok {
			target, body = pipelineName, rest
		} else if rest, ok := strings.CutPrefix(body, "module:"); ok {
			target, body = moduleName, rest
		} else if strings.HasPrefix(body, "spirv:") {
			target = moduleName
		}
		if re, ok := strings.CutPrefix(body, "re:"); ok {
			expr = re
		} else {
			expr = "^" + globRegexp(body) + "$"
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", p, err)
		}
		out = append(out, ScopePattern{Text: p, target: target, re: re})
	}
	return out, nil
}

// globRegexp is a glob as a regular expression: * and ? match any
// character (a debug name has no path separators), [...] is a class
// ([!...] negated), everything else literal.
func globRegexp(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		switch c := g[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			end := strings.IndexByte(g[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := g[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// parseScope checks a row's patterns; the text is kept as written
// (trimmed).
func parseScope(s string) (string, error) {
	if _, err := ParseScopePatterns(s); err != nil {
		return "", err
	}
	return strings.TrimSpace(s), nil
}

// ScopeOf is the scope the values set; patterns that do not parse are left
// out (the reader warned about them).
func ScopeOf(v *Values) PipelineScope {
	sc := PipelineScope{IncludeText: ScopeInclude.Text(v), ExcludeText: ScopeExclude.Text(v)}
	sc.Include, _ = ParseScopePatterns(sc.IncludeText)
	sc.Exclude, _ = ParseScopePatterns(sc.ExcludeText)
	return sc
}

// Empty reports whether the scope instruments everything.
func (s PipelineScope) Empty() bool { return len(s.Include) == 0 && len(s.Exclude) == 0 }

// Decide says whether a pipeline with these names is in the scope, and
// when it is not, why, in words that do not name the pipeline (one cause
// for many pipelines). excluded says scope_exclude left it out.
func (s PipelineScope) Decide(n ScopeNames) (in, excluded bool, why string) {
	for _, p := range s.Exclude {
		if name, ok := p.matches(n); ok {
			return false, true, fmt.Sprintf("left out of the scope: scope_exclude %q matches %q", p.Text, name)
		}
	}
	if len(s.Include) == 0 {
		return true, false, ""
	}
	for _, p := range s.Include {
		if _, ok := p.matches(n); ok {
			return true, false, ""
		}
	}
	return false, false, fmt.Sprintf("left out of the scope: scope_include %q matches none of its names", s.IncludeText)
}

// Final says whether a decision made without the pipeline's own name
// (at its creation: Vulkan names a pipeline only after) holds whatever
// name it gets: it was excluded by a module, or no pattern can match a
// pipeline's name.
func (s PipelineScope) Final(excluded bool) bool {
	if excluded {
		return true
	}
	for _, p := range append(slices.Clone(s.Include), s.Exclude...) {
		if p.target != moduleName {
			return false
		}
	}
	return true
}

// SPIRVName is the name a module's code answers to in a scope:
// "spirv:" and the FNV-1a hash of its words (little-endian bytes), 16 hex
// digits. The same code has it in every run.
func SPIRVName(words []uint32) string {
	h := fnv.New64a()
	var b [4]byte
	for _, w := range words {
		binary.LittleEndian.PutUint32(b[:], w)
		h.Write(b[:])
	}
	return fmt.Sprintf("spirv:%016x", h.Sum64())
}

// SPIRVNameOfBytes is SPIRVName of a module given as little-endian bytes.
func SPIRVNameOfBytes(code []byte) string {
	h := fnv.New64a()
	h.Write(code[:len(code)/4*4])
	return fmt.Sprintf("spirv:%016x", h.Sum64())
}

// ScopeQuote writes a name as a glob that matches only itself: its *, ?
// and [ as classes, and a leading "re:", "pipeline:", "module:" or
// "spirv:" escaped. A name with a comma cannot be written in a
// comma-separated list: ok is false.
func ScopeQuote(name string) (glob string, ok bool) {
	if strings.Contains(name, ",") {
		return "", false
	}
	var b strings.Builder
	for _, p := range []string{"re:", "pipeline:", "module:", "spirv:"} {
		if strings.HasPrefix(name, p) {
			b.WriteString("[" + name[:1] + "]")
			name = name[1:]
			break
		}
	}
	for _, c := range name {
		switch c {
		case '*', '?', '[':
			b.WriteString("[" + string(c) + "]")
		default:
			b.WriteRune(c)
		}
	}
	return b.String(), true
}
