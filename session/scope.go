package session

import (
	"maps"
	"slices"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/options"
)

// ErrorScope is the scope (options.ScopeInclude's value) that instruments
// only the pipelines that reported errors in s, in the order of their
// first group: each by its debug name ("pipeline:NAME"), one without a
// name by its shader's code ("spirv:HASH", options.SPIRVName: the same
// code in the next run; docs/decisions/scope-by-name.md). unnamed counts
// the groups it cannot name: a command check's (no shader) of an unnamed
// pipeline, or a name with a comma.
func (s *Session) ErrorScope() (include string, unnamed int) {
	var pats []string
	add := func(p string) {
		if !slices.Contains(pats, p) {
			pats = append(pats, p)
		}
	}
	for i := range s.Groups {
		g := s.Groups[i]
		if g.Pipeline.Name != "" {
			if q, ok := options.ScopeQuote(g.Pipeline.Name); ok {
				add("pipeline:" + q)
				continue
			}
		}
		if sh := s.Shaders[g.Shader.ID]; g.Shader.ID != 0 && sh != nil && len(sh.SPIRV) > 0 {
			add(options.SPIRVName(sh.SPIRV))
			continue
		}
		unnamed++
	}
	return strings.Join(pats, ","), unnamed
}

// WithScope returns settings that instrument only what include names
// (scope_include; scope_exclude cleared), the others as set has them.
func WithScope(set Settings, include string) Settings {
	v := options.Values{Settings: set}
	v.Options = maps.Clone(set.Options)
	delete(v.Options, options.ScopeExclude.Key)
	options.ScopeInclude.Set(&v, include)
	return v.Settings
}
