package session

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// maxNoticeSubjects is how many subjects (shaders, pipelines) a notice
// names; it counts the others.
const maxNoticeSubjects = 4

// causeNotice is the notice that stands for every subject of one cause.
type causeNotice struct {
	// index is the notice's place in Session.Notices.
	index    int
	n        int
	subjects []string
	// pipelines are the subjects that are pipelines (index in subjects),
	// which a debug name given later renames; text builds the notice.
	pipelines map[int]objRef
	text      func(n int, subjects string) string
}

// noticeCause adds a notice for one subject of a cause (a shader left
// unchecked for a reason, a pipeline...), or, when the cause has a notice
// already, counts the subject there: one notice per cause, saying how many
// subjects it covers and naming the first few. text builds the notice from
// the number of subjects and their list ("shader 2 (module 0xab), shader 5
// and 3 more"). Called with c.mu held.
func (c *Collector) noticeCause(level, cause, subject string, text func(n int, subjects string) string) {
	cn, ok := c.causes[cause]
	if !ok {
		cn = &causeNotice{index: len(c.s.Notices)}
		c.causes[cause] = cn
		c.addNotice(level, "")
	}
	cn.n++
	if subject != "" && len(cn.subjects) < maxNoticeSubjects {
		cn.subjects = append(cn.subjects, subject)
	}
	cn.text = text
	c.renderCause(cn)
}

// noticePipelineCause is noticeCause for a pipeline subject: the notice
// names it with its debug name, given now or later (renameNotices).
func (c *Collector) noticePipelineCause(level, cause string, p objRef, text func(n int, subjects string) string) {
	subject := "pipeline " + c.objHandle(objPipeline, p).String()
	c.noticeCause(level, cause, subject, text)
	cn := c.causes[cause]
	if i := len(cn.subjects) - 1; i >= 0 && cn.subjects[i] == subject && cn.n == len(cn.subjects) {
		if cn.pipelines == nil {
			cn.pipelines = map[int]objRef{}
		}
		cn.pipelines[i] = p
	}
}

// renameNotices renames a pipeline named after its notice was made (apps
// name a pipeline once it exists). Called with c.mu held.
func (c *Collector) renameNotices(h uint64, serial uint64) {
	for _, cn := range c.causes {
		changed := false
		for i, p := range cn.pipelines {
			if p.named(h, serial) {
				cn.subjects[i] = "pipeline " + c.objHandle(objPipeline, p).String()
				changed = true
			}
		}
		if changed {
			c.renderCause(cn)
		}
	}
}

// renderCause sets a cause's notice text from its subjects and count.
// Called with c.mu held.
func (c *Collector) renderCause(cn *causeNotice) {
	list := strings.Join(cn.subjects, ", ")
	if more := cn.n - len(cn.subjects); more > 0 && len(cn.subjects) > 0 {
		list += fmt.Sprintf(" and %d more", more)
	}
	// Snapshots copied the notices: changing this one in place is safe.
	c.s.Notices[cn.index].Text = cn.text(cn.n, list)
}

// plural picks the singular or the plural form for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// uncheck counts one subject of an unchecked cause in Session.Unchecked.
// Called with c.mu held.
func (c *Collector) uncheck(kind, reason string) { c.uncheckN(kind, reason, 1) }

// uncheckN is uncheck for n of what the reason covers.
func (c *Collector) uncheckN(kind, reason string, n int) {
	key := kind + "\x00" + reason
	if i, ok := c.uncheckedIndex[key]; ok {
		c.s.Unchecked[i].Count += n
		return
	}
	c.uncheckedIndex[key] = len(c.s.Unchecked)
	c.s.Unchecked = append(c.s.Unchecked, Unchecked{Kind: kind, Reason: reason, Count: n})
}

// applyDevice records the app's device and says when the layer cannot
// instrument there. Called with c.mu held.
func (c *Collector) applyDevice(m *wire.Device) {
	c.s.Device = Device{Name: m.Name, APIVersion: m.APIVersion, DescriptorSlot: m.DescriptorSlot, MaxBoundSets: m.MaxBoundDescriptorSets}
	c.deviceCapabilities(m.Name)
	if m.Instrumenting {
		return
	}
	reason := m.Reason
	if reason == "" {
		reason = "the layer gave no reason"
	}
	text := fmt.Sprintf("device %s (%s): instrumentation disabled: %s", hexHandle(m.Handle), m.Name, reason)
	c.addNotice("warning", text)
	c.uncheck(UncheckedDevice, text)
}

// noticeShader says why a shader is not checked, or what in it is not:
// one notice per reason, counting the shaders. A module left alone without
// a warning had nothing to check: no notice. Called with c.mu held.
func (c *Collector) noticeShader(m *wire.Shader) {
	if m.Warning == "" {
		return
	}
	what := fmt.Sprintf("shader %d (module %s)", m.ID, c.handle(m.Module))
	if m.Object != 0 {
		what = fmt.Sprintf("shader %d (shader object %s)", m.ID, c.handle(m.Object))
	}
	w := m.Warning
	c.uncheck(UncheckedShader, w)
	if !m.Instrumented {
		c.noticeCause("warning", "shader not checked: "+w, what, func(n int, list string) string {
			if n == 1 {
				return fmt.Sprintf("%s is not checked: %s", list, w)
			}
			return fmt.Sprintf("%d shaders are not checked: %s (%s)", n, w, list)
		})
		return
	}
	c.noticeCause("warning", "shader partly checked: "+w, what, func(n int, list string) string {
		if n == 1 {
			return fmt.Sprintf("%s: %s", list, w)
		}
		return fmt.Sprintf("%d shaders: %s (%s)", n, w, list)
	})
}

// noticePipeline says why a pipeline runs its original shaders: one notice
// per reason, counting the pipelines. A pipeline whose shaders had nothing
// to check (or are not checked for their own reasons, which their notices
// give) gets none. Called with c.mu held.
func (c *Collector) noticePipeline(m *wire.Pipeline) {
	if m.Warning == "" {
		return
	}
	w, p := m.Warning, objRef{m.Handle, m.Serial}
	if m.Instrumented {
		// Instrumented with checks left out (descriptor buffers the layer
		// does not read): partly unchecked, so the run is not clean.
		c.uncheck(UncheckedPipeline, w)
		c.noticePipelineCause("warning", "pipeline: "+w, p, func(n int, list string) string {
			if n == 1 {
				return fmt.Sprintf("%s: %s", list, w)
			}
			return fmt.Sprintf("%d pipelines: %s (%s)", n, w, list)
		})
		return
	}
	c.uncheck(UncheckedPipeline, w)
	c.noticePipelineCause("warning", "pipeline not checked: "+w, p, func(n int, list string) string {
		if n == 1 {
			return fmt.Sprintf("%s runs its original, unchecked shaders: %s", list, w)
		}
		return fmt.Sprintf("%d pipelines run their original, unchecked shaders: %s (%s)", n, w, list)
	})
}

// scopeOut counts a pipeline the scope left out (a wire.Log of kind
// wire.LogUncheckedPipeline): in the coverage as left out for the Log's
// reason, in the unchecked list with its handle and name (named when its
// name comes later), in one notice per reason. Called with c.mu held.
func (c *Collector) scopeOut(m *wire.Log) {
	for i := len(c.s.createdPipelines) - 1; i >= 0; i-- {
		if cp := &c.s.createdPipelines[i]; cp.serial == m.Pipeline && m.Pipeline != 0 {
			cp.instrumented, cp.warning = false, m.Text
			break
		}
	}
	subject := m.Subject
	if name := c.serialNames[serialKey{"pipeline", m.Pipeline}]; name != "" && m.Pipeline != 0 {
		subject += fmt.Sprintf(" %q", name)
	}
	c.uncheck(UncheckedPipeline, m.Text)
	if m.Pipeline != 0 {
		c.scopeSubjects[m.Pipeline] = scopeSubject{index: -1}
	}
	i := c.uncheckedIndex[UncheckedPipeline+"\x00"+m.Text]
	if u := &c.s.Unchecked[i]; subject != "" && len(u.Subjects) < maxSubjects {
		// A copy: snapshots share the old slice.
		u.Subjects = append(slices.Clip(u.Subjects), subject)
		if m.Pipeline != 0 {
			c.scopeSubjects[m.Pipeline] = scopeSubject{unchecked: i, index: len(u.Subjects) - 1}
		}
	}
	if m.Pipeline != 0 {
		ss := c.scopeSubjects[m.Pipeline]
		ss.cause, ss.handle, ss.subject = "pipeline scope: "+m.Text, m.Subject, subject
		c.scopeSubjects[m.Pipeline] = ss
	}
	c.noticeCause("warning", "pipeline scope: "+m.Text, subject, func(n int, list string) string {
		if n == 1 {
			return fmt.Sprintf("%s is not checked: %s", list, m.Text)
		}
		return fmt.Sprintf("%d pipelines are not checked: %s (%s)", n, m.Text, list)
	})
}

// scopeSubject is where a pipeline left out of the scope is named in
// Session.Unchecked, to add its name when it comes.
type scopeSubject struct {
	// unchecked and index place it in Session.Unchecked (index -1: not
	// named there).
	unchecked, index int
	// cause is its notice's cause, handle its subject without a name,
	// subject as the notice names it now.
	cause, handle, subject string
}

// scopeNamed names a pipeline left out of the scope in the unchecked
// list. Called with c.mu held.
func (c *Collector) scopeNamed(serial uint64, name string) {
	ss, ok := c.scopeSubjects[serial]
	if !ok {
		return
	}
	named := ss.handle
	if name != "" {
		named += fmt.Sprintf(" %q", name)
	}
	if ss.unchecked < len(c.s.Unchecked) && ss.index >= 0 && ss.index < len(c.s.Unchecked[ss.unchecked].Subjects) {
		u := &c.s.Unchecked[ss.unchecked]
		subs := slices.Clone(u.Subjects)
		subs[ss.index] = named
		u.Subjects = subs
	}
	if cn := c.causes[ss.cause]; cn != nil {
		if i := slices.Index(cn.subjects, ss.subject); i >= 0 {
			cn.subjects[i] = named
			c.renderCause(cn)
		}
	}
	ss.subject = named
	c.scopeSubjects[serial] = ss
}
