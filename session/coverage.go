package session

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// Coverage says what a run looked at: the submits, the shaders and
// pipelines the app created and how many of each the layer instrumented
// (and why it left the others out), and for each check how many shaders,
// accesses and pipelines it was built into. It tells a clean run from one
// that looked at nothing (docs/REPORT.md, "coverage").
type Coverage struct {
	// Submits are the queue submissions the layer saw.
	Submits uint64 `json:"submits"`
	// CommandBuffers and Actions are the command buffers submitted (a
	// secondary once per primary that executed it) and the actions
	// (draws, dispatches, trace rays) they recorded; ActionsInstrumented
	// those whose pipeline (or shader objects) ran instrumented, and
	// ActionsPrecise those of them whose pipeline has a fast variant but
	// ran its precise one. nil: not counted (a layer before the counts, or
	// an app that ended without the layer's last message).
	CommandBuffers      *uint64 `json:"command_buffers"`
	Actions             *uint64 `json:"actions"`
	ActionsInstrumented *uint64 `json:"actions_instrumented"`
	ActionsPrecise      *uint64 `json:"actions_precise"`
	// Shaders and Pipelines are what the app created.
	Shaders   CoverageCount `json:"shaders"`
	Pipelines CoverageCount `json:"pipelines"`
	// Checks is every check of the registry, in its order, then any other
	// the settings name.
	Checks []CheckCoverage `json:"checks"`
	// ChecksCounted says the layer said which checks each shader got
	// (wire.Shader.Sites); without it (older layers) the checks' counts
	// are 0 and mean nothing.
	ChecksCounted bool `json:"checks_counted"`
}

// CoverageCount counts shaders or pipelines: how many the app created,
// how many the layer instrumented, how many had nothing to check (a
// shader with no access any check guards; a pipeline none of whose
// shaders has one), and the rest, left out, by reason. Partly counts the
// instrumented ones that left some accesses out, by reason.
type CoverageCount struct {
	Seen           int         `json:"seen"`
	Instrumented   int         `json:"instrumented"`
	NothingToCheck int         `json:"nothing_to_check"`
	LeftOut        []CountedBy `json:"left_out,omitempty"`
	Partly         []CountedBy `json:"partly,omitempty"`
}

// CountedBy is how many shaders or pipelines share a reason.
type CountedBy struct {
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// CheckCoverage is one check's share of the run.
type CheckCoverage struct {
	Check string `json:"check"`
	// State is "on", "off", or "unavailable" (on, but the device cannot
	// run it: Reason says why).
	State  string `json:"state"`
	Reason string `json:"reason,omitempty"`
	// Command: the layer checks the commands itself (index_buffer_oob,
	// vertex_fetch_oob, indirect_command); its count of shaders covers
	// only its shader part (vertex_fetch_oob's vertex shader fetches).
	Command bool `json:"command,omitempty"`
	// Shaders and Sites are the shaders it was built into and their
	// accesses it guards; Pipelines the instrumented pipelines with at
	// least one such shader.
	Shaders   int `json:"shaders"`
	Sites     int `json:"sites"`
	Pipelines int `json:"pipelines"`
}

// Check states.
const (
	CheckOn          = "on"
	CheckOff         = "off"
	CheckUnavailable = "unavailable"
)

// createdPipeline is one Pipeline message, kept for the coverage (the
// pipelines map is by handle, which the driver may reuse).
type createdPipeline struct {
	serial       uint64
	instrumented bool
	warning      string
	shaders      []uint32
}

// handleWords are the handles and ids in a reason, which coverage counts
// by reason without them.
var handleWords = regexp.MustCompile(`\b0x[0-9a-fA-F]+\b|\b(shader|pipeline|module|layout) \d+\b`)

// reasonOf is a warning as a coverage reason: handles and ids out, so
// that one cause of many shaders or pipelines is counted once.
func reasonOf(warning string) string {
	r := handleWords.ReplaceAllStringFunc(warning, func(w string) string {
		if strings.HasPrefix(w, "0x") {
			return "…"
		}
		return strings.Fields(w)[0]
	})
	return strings.TrimSpace(r)
}

// addReason counts one more of reason in list.
func addReason(list []CountedBy, reason string) []CountedBy {
	for i := range list {
		if list[i].Reason == reason {
			list[i].Count++
			return list
		}
	}
	return append(list, CountedBy{Reason: reason, Count: 1})
}

// Coverage is the run's coverage: from the report it was read from, or
// from the shaders and pipelines the layer sent.
func (s *Session) Coverage() Coverage {
	if s.CoverageReport != nil {
		return *s.CoverageReport
	}
	cv := Coverage{Submits: s.Submits}
	if n := s.Counts; n != nil {
		cbs, acts, instr, precise := n.CommandBuffers, n.Actions, n.Instrumented, n.Precise
		cv.CommandBuffers, cv.Actions, cv.ActionsInstrumented, cv.ActionsPrecise = &cbs, &acts, &instr, &precise
	}
	ids := make([]uint32, 0, len(s.Shaders))
	for id := range s.Shaders {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	sites := map[string]map[uint32]int{} // check -> shader -> sites
	for _, id := range ids {
		sh := s.Shaders[id]
		cv.Shaders.Seen++
		switch {
		case sh.Instrumented && sh.Warning != "":
			cv.Shaders.Instrumented++
			cv.Shaders.Partly = addReason(cv.Shaders.Partly, reasonOf(sh.Warning))
		case sh.Instrumented:
			cv.Shaders.Instrumented++
		case sh.Warning == "":
			cv.Shaders.NothingToCheck++
		default:
			cv.Shaders.LeftOut = addReason(cv.Shaders.LeftOut, reasonOf(sh.Warning))
		}
		if sh.Sites != nil {
			cv.ChecksCounted = true
		}
		for check, n := range sh.Sites {
			if n > 0 && sh.Instrumented {
				if sites[check] == nil {
					sites[check] = map[uint32]int{}
				}
				sites[check][id] = n
			}
		}
	}
	pipelines := map[string]int{}
	for _, p := range s.createdPipelines {
		cv.Pipelines.Seen++
		touches := false
		for _, id := range p.shaders {
			if sh := s.Shaders[id]; sh != nil && sh.Instrumented {
				touches = true
			}
		}
		switch {
		case p.instrumented && p.warning != "":
			cv.Pipelines.Instrumented++
			cv.Pipelines.Partly = addReason(cv.Pipelines.Partly, reasonOf(p.warning))
		case p.instrumented:
			cv.Pipelines.Instrumented++
		case p.warning == "" && !touches:
			cv.Pipelines.NothingToCheck++
		default:
			why := p.warning
			if why == "" {
				why = "runs its shaders uninstrumented"
			}
			cv.Pipelines.LeftOut = addReason(cv.Pipelines.LeftOut, reasonOf(why))
		}
		if !p.instrumented {
			continue
		}
		seen := map[string]bool{}
		for _, id := range p.shaders {
			for check, byShader := range sites {
				if byShader[id] > 0 && !seen[check] {
					seen[check] = true
					pipelines[check]++
				}
			}
		}
	}
	ids2 := slices.Clone(gpuav.AllChecks)
	for id := range s.Settings.Checks {
		if !slices.Contains(ids2, id) {
			ids2 = append(ids2, id)
		}
	}
	for _, id := range ids2 {
		c := CheckCoverage{Check: id, State: CheckOff}
		if reg := gpuav.CheckByID(id); reg != nil {
			c.Command = reg.Command
		}
		if s.Settings.Checks[id] {
			c.State = CheckOn
			if sup, ok := s.Capabilities.Check(id); ok && !sup.Available {
				c.State, c.Reason = CheckUnavailable, sup.Reason
			}
		}
		for _, n := range sites[id] {
			c.Shaders++
			c.Sites += n
		}
		c.Pipelines = pipelines[id]
		cv.Checks = append(cv.Checks, c)
	}
	slices.SortStableFunc(cv.Shaders.LeftOut, byCount)
	slices.SortStableFunc(cv.Pipelines.LeftOut, byCount)
	return cv
}

func byCount(a, b CountedBy) int { return cmp.Compare(b.Count, a.Count) }

// Summary is the coverage in one line: "3 submits · 3 shaders: 2
// instrumented, 1 with nothing to check · 2 pipelines: 2 instrumented".
func (cv Coverage) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s", cv.Submits, plural(int(cv.Submits), "submit", "submits"))
	if cv.CommandBuffers != nil {
		fmt.Fprintf(&b, " · %d %s", *cv.CommandBuffers, plural(int(*cv.CommandBuffers), "command buffer", "command buffers"))
	}
	if cv.Actions != nil {
		fmt.Fprintf(&b, " · %d %s", *cv.Actions, plural(int(*cv.Actions), "action", "actions"))
		if cv.ActionsInstrumented != nil && *cv.Actions > 0 {
			fmt.Fprintf(&b, ": %d instrumented", *cv.ActionsInstrumented)
			if cv.ActionsPrecise != nil && *cv.ActionsPrecise > 0 {
				fmt.Fprintf(&b, " (%d precise)", *cv.ActionsPrecise)
			}
		}
	}
	count := func(what string, c CoverageCount) {
		fmt.Fprintf(&b, " · %d %s", c.Seen, what)
		if c.Seen == 0 {
			return
		}
		fmt.Fprintf(&b, ": %d instrumented", c.Instrumented)
		if c.NothingToCheck > 0 {
			fmt.Fprintf(&b, ", %d with nothing to check", c.NothingToCheck)
		}
		if n := countOf(c.LeftOut); n > 0 {
			fmt.Fprintf(&b, ", %d left out", n)
		}
		if n := countOf(c.Partly); n > 0 {
			fmt.Fprintf(&b, " (%d in part)", n)
		}
	}
	count(plural(cv.Shaders.Seen, "shader", "shaders"), cv.Shaders)
	count(plural(cv.Pipelines.Seen, "pipeline", "pipelines"), cv.Pipelines)
	return b.String()
}

func countOf(list []CountedBy) int {
	n := 0
	for _, c := range list {
		n += c.Count
	}
	return n
}

// Line is one check's share in a few words: "descriptor_index_oob: 3
// accesses in 2 shaders, 2 pipelines", "bda_oob: off", "ray_query: on, but
// cannot run: ...", "index_buffer_oob: by the layer on its commands";
// counted says the layer counted the checks' accesses, leftOut how many
// shaders it left out whole.
func (c CheckCoverage) Line(counted bool, leftOut int) string {
	switch c.State {
	case CheckOff:
		return c.Check + ": off"
	case CheckUnavailable:
		return c.Check + ": on, but cannot run: " + c.Reason
	}
	layer := ""
	if c.Command {
		layer = "by the layer on its commands"
	}
	if !counted {
		if layer != "" {
			return c.Check + ": " + layer
		}
		return c.Check + ": on"
	}
	shaders := fmt.Sprintf("%d %s in %d %s, %d %s", c.Sites, plural(c.Sites, "access", "accesses"), c.Shaders,
		plural(c.Shaders, "shader", "shaders"), c.Pipelines, plural(c.Pipelines, "pipeline", "pipelines"))
	switch {
	case layer != "" && c.Shaders > 0:
		return c.Check + ": " + layer + "; " + shaders
	case layer != "":
		return c.Check + ": " + layer
	case c.Shaders == 0 && leftOut > 0:
		return fmt.Sprintf("%s: on, in no instrumented shader (%d %s left out)", c.Check, leftOut, plural(leftOut, "shader", "shaders"))
	case c.Shaders == 0:
		return c.Check + ": on, in no shader (nothing of its kind to check)"
	}
	return c.Check + ": " + shaders
}

// Lines are the coverage as the headless output and the TUI show it: the
// summary, why shaders and pipelines were left out, and one line per
// check.
func (cv Coverage) Lines() []string {
	out := []string{"checked: " + cv.Summary()}
	for _, r := range cv.Shaders.LeftOut {
		out = append(out, fmt.Sprintf("  %d %s left out: %s", r.Count, plural(r.Count, "shader", "shaders"), r.Reason))
	}
	for _, r := range cv.Shaders.Partly {
		out = append(out, fmt.Sprintf("  %d %s in part: %s", r.Count, plural(r.Count, "shader", "shaders"), r.Reason))
	}
	for _, r := range cv.Pipelines.LeftOut {
		out = append(out, fmt.Sprintf("  %d %s left out: %s", r.Count, plural(r.Count, "pipeline", "pipelines"), r.Reason))
	}
	for _, r := range cv.Pipelines.Partly {
		out = append(out, fmt.Sprintf("  %d %s in part: %s", r.Count, plural(r.Count, "pipeline", "pipelines"), r.Reason))
	}
	var off []string
	for _, c := range cv.Checks {
		if c.State == CheckOff {
			off = append(off, c.Check)
			continue
		}
		out = append(out, "  "+c.Line(cv.ChecksCounted, countOf(cv.Shaders.LeftOut)))
	}
	// The checks that were off, a few to a line.
	line := "  off:"
	for i, id := range off {
		if len(line)+len(id) > 70 && line != "  off:" {
			out = append(out, line+",")
			line = "      "
		} else if i > 0 {
			line += ","
		}
		line += " " + id
	}
	if len(off) > 0 {
		out = append(out, line)
	}
	return out
}
