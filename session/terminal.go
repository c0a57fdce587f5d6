package session

import (
	"maps"
	"reflect"

	"github.com/gpuav-dbg/gpuav-dbg/internal/sanitize"
)

// ForTerminal returns the session with every string that came from the
// app, its modules or the layer's stream made safe to show in a terminal
// (package sanitize): names, labels, file names and paths as one line;
// messages, notices, source and output lines keeping their tabs and line
// ends. It shares what needs no change (a clean session costs a scan) and
// never modifies s. The TUI shows this; reports keep the exact strings.
func (s *Session) ForTerminal() *Session {
	if s == nil {
		return nil
	}
	var c scrub
	out := *s
	out.App = s.App.forTerminal(&c)
	out.Device.Name, out.Device.APIVersion = c.t(s.Device.Name), c.t(s.Device.APIVersion)
	out.Settings.Checks = textKeys(&c, s.Settings.Checks)
	out.Groups = cow(&c, s.Groups, func(g *ErrorGroup, c *scrub) *ErrorGroup { return g.forTerminal(c) })
	out.Notices = cow(&c, s.Notices, func(n Notice, c *scrub) Notice { n.Level, n.Text = c.t(n.Level), c.b(n.Text); return n })
	out.LostGroups = cow(&c, s.LostGroups, func(g LostGroup, c *scrub) LostGroup {
		g.Check, g.Location = c.t(g.Check), c.t(g.Location)
		return g
	})
	out.Unchecked = cow(&c, s.Unchecked, func(u Unchecked, c *scrub) Unchecked { u.Kind, u.Reason = c.t(u.Kind), c.t(u.Reason); return u })
	out.Capabilities = s.Capabilities.forTerminal()
	out.Pipelines = cowMap(&c, s.Pipelines, func(p *Pipeline, c *scrub) *Pipeline { return p.forTerminal(c) })
	out.Timeline = cow(&c, s.Timeline, func(n SubmitNode, c *scrub) SubmitNode {
		n.CommandBuffers = cow(c, n.CommandBuffers, func(cb CommandBufferNode, c *scrub) CommandBufferNode { return cb.forTerminal(c) })
		return n
	})
	out.Shaders = cowMapOf(&c, s.Shaders, func(sh *Shader, c *scrub) *Shader {
		w := c.t(sh.Warning)
		if !c.changed {
			return sh
		}
		cp := *sh
		cp.Warning = w
		return &cp
	})
	out.Sources = sourcesForTerminal(s.Sources)
	out.Output = cow(&c, s.Output, func(l OutputLine, c *scrub) OutputLine { l.Stream, l.Text = c.t(l.Stream), c.b(l.Text); return l })
	return &out
}

// scrub sanitizes strings and remembers whether any changed.
type scrub struct{ changed bool }

func (c *scrub) t(s string) string { return c.note(s, sanitize.Text(s)) }
func (c *scrub) b(s string) string { return c.note(s, sanitize.Block(s)) }

func (c *scrub) note(in, out string) string {
	if out != in {
		c.changed = true
	}
	return out
}

// ts sanitizes a list of one-line strings.
func (c *scrub) ts(list []string) []string {
	return cow(c, list, func(s string, c *scrub) string { return c.t(s) })
}

// lines sanitizes lines of text.
func (c *scrub) lines(list []string) []string {
	out := sanitize.Lines(list)
	if !sameSlice(out, list) {
		c.changed = true
	}
	return out
}

// cow maps f over in, copying the slice only when f changes an element
// (f says so through its own scrub), and returns in itself when f changed
// nothing; outer learns whether it copied.
func cow[T any](outer *scrub, in []T, f func(T, *scrub) T) []T {
	var out []T
	for i, v := range in {
		var c scrub
		nv := f(v, &c)
		if !c.changed {
			if out != nil {
				out[i] = v
			}
			continue
		}
		if out == nil {
			out = make([]T, len(in))
			copy(out, in[:i])
		}
		out[i] = nv
	}
	if out == nil {
		return in
	}
	outer.changed = true
	return out
}

// cowMap is cow for a map with string keys (the keys are sanitized too).
func cowMap[V any](outer *scrub, in map[string]V, f func(V, *scrub) V) map[string]V {
	var out map[string]V
	for k, v := range in {
		var c scrub
		nk, nv := c.t(k), f(v, &c)
		if !c.changed {
			continue
		}
		if out == nil {
			out = maps.Clone(in)
		}
		delete(out, k)
		out[nk] = nv
	}
	if out == nil {
		return in
	}
	outer.changed = true
	return out
}

// cowMapOf is cow for a map with other keys.
func cowMapOf[K comparable, V any](outer *scrub, in map[K]V, f func(V, *scrub) V) map[K]V {
	var out map[K]V
	for k, v := range in {
		var c scrub
		if nv := f(v, &c); c.changed {
			if out == nil {
				out = maps.Clone(in)
			}
			out[k] = nv
		}
	}
	if out == nil {
		return in
	}
	outer.changed = true
	return out
}

// textKeys sanitizes a map's keys.
func textKeys[V any](c *scrub, in map[string]V) map[string]V {
	return cowMap(c, in, func(v V, _ *scrub) V { return v })
}

func (a App) forTerminal(c *scrub) App {
	a.Path, a.Signal, a.State = c.t(a.Path), c.t(a.Signal), AppState(c.t(string(a.State)))
	a.Args, a.OutputFiles = c.ts(a.Args), c.ts(a.OutputFiles)
	return a
}

func (h Handle) forTerminal(c *scrub) Handle {
	h.Handle, h.Name = c.t(h.Handle), c.t(h.Name)
	return h
}

func (g *ErrorGroup) forTerminal(c *scrub) *ErrorGroup {
	cp := *g
	cp.Check, cp.Level, cp.VUID, cp.MessageText, cp.Stage = c.t(g.Check), c.t(g.Level), c.t(g.VUID), c.b(g.MessageText), c.t(g.Stage)
	cp.CommandBuffer, cp.Queue = g.CommandBuffer.forTerminal(c), g.Queue.forTerminal(c)
	cp.PrimaryCommandBuffer, cp.Pipeline = g.PrimaryCommandBuffer.forTerminal(c), g.Pipeline.forTerminal(c)
	cp.Action, cp.Labels = c.t(g.Action), c.ts(g.Labels)
	cp.Shader.Module, cp.Shader.Object, cp.Shader.Name = c.t(g.Shader.Module), c.t(g.Shader.Object), c.t(g.Shader.Name)
	cp.Coords, cp.LastCoords = coordsForTerminal(c, g.Coords), coordsForTerminal(c, g.LastCoords)
	cp.Samples = cow(c, g.Samples, func(s Coords, c *scrub) Coords { return coordsForTerminal(c, s) })
	if g.BDA != nil {
		bda := *g.BDA
		bda.Address = c.t(g.BDA.Address)
		if g.BDA.Nearest != nil {
			n := *g.BDA.Nearest
			n.Address = c.t(n.Address)
			bda.Nearest = &n
		}
		cp.BDA = &bda
	}
	if g.Buffer != nil {
		bu := *g.Buffer
		bu.Kind = c.t(bu.Kind)
		cp.Buffer = &bu
	}
	if g.Texel != nil {
		te := *g.Texel
		te.Kind = c.t(te.Kind)
		cp.Texel = &te
	}
	if g.Source != nil {
		var sc scrub
		src := g.Source.forTerminal(&sc)
		if sc.changed {
			cp.Source = &src
			c.changed = true
		}
	}
	if !c.changed {
		return g
	}
	return &cp
}

// coordsForTerminal sanitizes coordinate keys: the stages' own are safe;
// others (from a JSON report) are escaped.
func coordsForTerminal(c *scrub, in Coords) Coords {
	if in.wide == nil {
		return in
	}
	m := textKeys(c, in.wide)
	if len(m) > 0 && !sameMap(m, in.wide) {
		return CoordsOf(m)
	}
	return in
}

// sameMap reports whether two maps are the same map.
func sameMap[V any](a, b map[string]V) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// sameSlice reports whether two slices are the same slice.
func sameSlice(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func (s Source) forTerminal(c *scrub) Source {
	s.File, s.Path, s.Text, s.Language, s.Note = c.t(s.File), c.t(s.Path), c.b(s.Text), c.t(s.Language), c.b(s.Note)
	s.Function, s.Context = c.t(s.Function), c.lines(s.Context)
	s.InlinedAt = cow(c, s.InlinedAt, func(f SourceFrame, c *scrub) SourceFrame {
		f.Function, f.File, f.Text = c.t(f.Function), c.t(f.File), c.b(f.Text)
		return f
	})
	return s
}

func (p *Pipeline) forTerminal(c *scrub) *Pipeline {
	cp := *p
	cp.Handle, cp.Layout, cp.BindPoint, cp.Warning = p.Handle.forTerminal(c), c.t(p.Layout), c.t(p.BindPoint), c.t(p.Warning)
	cp.Stages = cow(c, p.Stages, func(st PipelineStage, c *scrub) PipelineStage {
		st.Stage, st.Module, st.Entry = c.t(st.Stage), c.t(st.Module), c.t(st.Entry)
		return st
	})
	if !c.changed {
		return p
	}
	return &cp
}

func (n CommandBufferNode) forTerminal(c *scrub) CommandBufferNode {
	n.CommandBuffer, n.Queue, n.PrimaryCommandBuffer = n.CommandBuffer.forTerminal(c), n.Queue.forTerminal(c),
		n.PrimaryCommandBuffer.forTerminal(c)
	n.Actions = cow(c, n.Actions, func(a ActionNode, c *scrub) ActionNode {
		a.Action, a.Labels, a.Pipeline = c.t(a.Action), c.ts(a.Labels), a.Pipeline.forTerminal(c)
		return a
	})
	return n
}

func (cp *Capabilities) forTerminal() *Capabilities {
	if cp == nil {
		return nil
	}
	var c scrub
	out := *cp
	out.Selected, out.Error = c.t(cp.Selected), c.t(cp.Error)
	out.DeviceCapabilities = deviceForTerminal(cp.DeviceCapabilities, &c)
	out.Devices = cow(&c, cp.Devices, deviceForTerminal)
	if !c.changed {
		return cp
	}
	return &out
}

func deviceForTerminal(d DeviceCapabilities, c *scrub) DeviceCapabilities {
	d.Device, d.Driver, d.APIVersion = c.t(d.Device), c.t(d.Driver), c.t(d.APIVersion)
	d.Checks = cowMap(c, d.Checks, func(s CheckSupport, c *scrub) CheckSupport {
		s.Reason, s.Note = c.t(s.Reason), c.t(s.Note)
		return s
	})
	return d
}

// sourcesForTerminal sanitizes the source lines and their files' names.
func sourcesForTerminal(in map[SourceKey][]string) map[SourceKey][]string {
	var out map[SourceKey][]string
	for k, lines := range in {
		var c scrub
		nk, nl := SourceKey{ShaderID: k.ShaderID, File: c.t(k.File)}, c.lines(lines)
		if !c.changed {
			continue
		}
		if out == nil {
			out = maps.Clone(in)
		}
		delete(out, k)
		out[nk] = nl
	}
	if out == nil {
		return in
	}
	return out
}
