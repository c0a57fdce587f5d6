package session

import (
	"fmt"
	"strings"
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
	list := strings.Join(cn.subjects, ", ")
	if more := cn.n - len(cn.subjects); more > 0 && len(cn.subjects) > 0 {
		list += fmt.Sprintf(" and %d more", more)
	}
	// Snapshots copied the notices: changing this one in place is safe.
	c.s.Notices[cn.index].Text = text(cn.n, list)
}

// plural picks the singular or the plural form for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
