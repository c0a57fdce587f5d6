package session

import (
	"fmt"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// Pause states.
const (
	// PausePaused: the app waits for continue.
	PausePaused = "paused"
	// PauseContinued: the launcher said continue.
	PauseContinued = "continued"
	// PauseStopped: the launcher ended the app there (a headless run).
	PauseStopped = "stopped"
	// PauseEnded: the app ended while it waited (killed, or the user
	// quit).
	PauseEnded = "ended"
)

// Pause is a stop at the first error: the layer of process PID paused
// the app when it read back Submit (of Queue), which held Records
// records; State says what happened then.
type Pause struct {
	PID     int       `json:"pid"`
	Submit  uint64    `json:"submit"`
	Queue   Handle    `json:"queue"`
	Records int       `json:"records"`
	Time    time.Time `json:"time"`
	State   string    `json:"state"`
}

// Paused returns the stop the app waits in, or nil when it waits in none.
func (s *Session) Paused() *Pause {
	for i := range s.Pauses {
		if s.Pauses[i].State == PausePaused {
			return &s.Pauses[i]
		}
	}
	return nil
}

// applyPaused records a stop. Called with c.mu held.
func (c *Collector) applyPaused(m *wire.Paused) {
	c.s.Pauses = append(c.s.Pauses, Pause{PID: m.PID, Submit: m.Submit, Queue: c.handle(m.Queue), Records: m.Records,
		Time: c.lastTime, State: PausePaused})
	c.addNotice("info", fmt.Sprintf("paused at the first error (submit %d): the app waits for continue", m.Submit))
}

// applyContinue ends the stops the app waits in: continued, or stopped
// when the launcher ended the app there. Called with c.mu held.
func (c *Collector) applyContinue(m *wire.Continue) {
	state := PauseContinued
	if m.Stopped {
		state, c.s.StoppedAtFirstError = PauseStopped, true
	}
	for i := range c.s.Pauses {
		if c.s.Pauses[i].State == PausePaused {
			c.s.Pauses[i].State = state
		}
	}
}

// endPauses marks the stops still waiting when the app ended. Called with
// c.mu held.
func (c *Collector) endPauses() {
	for i := range c.s.Pauses {
		if c.s.Pauses[i].State == PausePaused {
			c.s.Pauses[i].State = PauseEnded
		}
	}
}
