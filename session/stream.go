package session

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// This file is what the session learns about the stream itself: records
// the layer could not deliver (wire.Lost), records it coalesced while the
// launcher was behind, connections that ended without their bye, and a
// session whose app's end was never recorded.

// LostGroup is the count of error records of one check at one
// instruction of one shader that the layer could not deliver.
type LostGroup struct {
	Check       string `json:"check"`
	ShaderID    uint32 `json:"shader_id"`
	Instruction uint32 `json:"instruction"`
	// Location is the instruction's file:line, when the shader's debug
	// information has it.
	Location string `json:"location,omitempty"`
	Count    uint64 `json:"count"`
}

// String is one line: "12 descriptor_index_oob records at oob.comp:9
// (shader 2, instruction 79)".
func (g LostGroup) String() string {
	where := fmt.Sprintf("shader %d, instruction %d", g.ShaderID, g.Instruction)
	if g.Location != "" {
		where = g.Location + " (" + where + ")"
	}
	return fmt.Sprintf("%d %s %s at %s", g.Count, g.Check, plural(int(min(g.Count, 2)), "record", "records"), where)
}

// applyLost adds what the layer could not deliver. Called with c.mu held.
func (c *Collector) applyLost(m *wire.Lost) {
	s := c.s
	s.LostRecords += m.Records
	for _, lg := range m.Groups {
		i := slices.IndexFunc(s.LostGroups, func(g LostGroup) bool {
			return g.Check == lg.Check && g.ShaderID == lg.ShaderID && g.Instruction == lg.Instruction
		})
		if i < 0 {
			g := LostGroup{Check: lg.Check, ShaderID: lg.ShaderID, Instruction: lg.Instruction}
			if _, ok := s.Shaders[lg.ShaderID]; ok {
				g.Location = c.source(lg.ShaderID, lg.Instruction).Location()
			}
			i = len(s.LostGroups)
			s.LostGroups = append(s.LostGroups, g)
		}
		s.LostGroups[i].Count += lg.Count
	}
	for _, n := range m.Messages {
		s.LostMessages += n
	}
	if m.PrintfLines > 0 {
		s.PrintfLost += m.PrintfLines
		c.printfUndelivered += m.PrintfLines
		c.noticeCause("warning", "printf lines not delivered", "", func(int, string) string {
			return fmt.Sprintf("printf: the layer could not deliver %d lines; printf_lines_lost counts them with those the printf buffer had no room for (%d in all)",
				c.printfUndelivered, s.PrintfLost)
		})
	}
	if m.Records > 0 {
		c.noticeCause("error", "lost records", "", func(int, string) string {
			return fmt.Sprintf("the layer could not deliver %d error %s: %s", s.LostRecords,
				plural(int(min(s.LostRecords, 2)), "record", "records"), lostWhere(s))
		})
	}
	if len(m.Messages) > 0 {
		kinds := make([]string, 0, len(m.Messages))
		for k, n := range m.Messages {
			kinds = append(kinds, fmt.Sprintf("%d %s", n, k))
		}
		slices.Sort(kinds)
		c.addNotice("error", fmt.Sprintf("the layer could not deliver %s %s", strings.Join(kinds, ", "),
			plural(len(kinds)+1, "message", "messages")))
	}
}

// lostWhere says where the lost records were: the groups the layer kept,
// and how many it could not attribute.
func lostWhere(s *Session) string {
	var parts []string
	var attributed uint64
	for i, g := range s.LostGroups {
		attributed += g.Count
		if i < maxNoticeSubjects {
			parts = append(parts, g.String())
		}
	}
	if more := len(s.LostGroups) - maxNoticeSubjects; more > 0 {
		parts = append(parts, fmt.Sprintf("%d more groups", more))
	}
	if rest := s.LostRecords - min(attributed, s.LostRecords); rest > 0 {
		parts = append(parts, fmt.Sprintf("%d of unknown groups", rest))
	}
	return strings.Join(parts, "; ")
}

// firstSubmit is the submit a message's new groups start in: its
// FirstSubmit when the layer coalesced it.
func firstSubmit(e *wire.Errors) uint64 {
	if e.FirstSubmit != 0 {
		return e.FirstSubmit
	}
	return e.Submit
}

// noteCoalesced says, once, that the layer coalesced records while the
// launcher was behind. Called with c.mu held.
func (c *Collector) noteCoalesced(e *wire.Errors) {
	if e.FirstSubmit == 0 {
		return
	}
	c.noticeCause("info", "coalesced", "", func(n int, _ string) string {
		return fmt.Sprintf("gpuav-dbg fell behind the app: the layer coalesced records of submits it could not send at once "+
			"(%d %s; counts are exact, samples are the first of each group, and the timeline shows them at the last submit of each stretch)",
			n, plural(n, "message", "messages"))
	})
}

// ConnectionEnded records that a layer connection ended; bye says whether
// it had sent its bye. A connection that ended without one may have had
// records still on their way: the session says so.
func (c *Collector) ConnectionEnded(connection int, bye bool) {
	if bye {
		return
	}
	// A frame of its own, so that open says what the live run said.
	_ = c.Record(wire.KindStreamCut, &wire.StreamCut{Connection: connection})
}

// applyStreamCut counts a connection that ended without its bye. Called
// with c.mu held.
func (c *Collector) applyStreamCut() {
	c.s.StreamsCut++
	c.noticeCause("warning", "stream cut", "", func(n int, _ string) string {
		return fmt.Sprintf("%d %s of the layer ended without its last message (the app crashed or was killed?): "+
			"records it had not sent yet are missing", n, plural(n, "connection", "connections"))
	})
}

// finishReplay ends the replay of a session file: an app still starting
// or running at the end of the file has an end nobody recorded (the
// launcher was killed, or the file is cut short). Called without c.mu.
func (c *Collector) finishReplay() {
	c.mu.Lock()
	if st := c.s.App.State; st == AppStarting || st == AppRunning {
		c.s.App.State = AppUnknown
		c.addNotice("warning", c.s.endNotRecorded())
	}
	c.mu.Unlock()
}

// EndNotRecorded is what a session says when the app's end is not in it.
const EndNotRecorded = "the app's end was not recorded (gpuav-dbg was stopped before the app ended, or the session file is cut short)"

// endNotRecorded says that the app's end is unknown, and where its output
// went on.
func (s *Session) endNotRecorded() string {
	if len(s.App.OutputFiles) == 0 {
		return EndNotRecorded
	}
	return EndNotRecorded + "; the app wrote its output on to " + strings.Join(s.App.OutputFiles, " and ")
}
