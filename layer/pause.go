package main

import (
	"os"
	"sync"

	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// Stopping at the first error (the stop_on_error setting,
// docs/decisions/stop-on-error.md): the app's thread that reads back the
// first submission with records (goSubmitDone, in the app's wait, submit
// or present) says Paused and waits until the launcher says Continue, once
// per process. Any other thread that reads back records meanwhile waits
// too. The app never waits without a launcher: not when none listens
// (a warning says the setting does nothing), and no longer once the
// connection ends.

// pause is the process's stop; gate.mu guards it (never held while
// waiting, and never with state.mu held by its waiters).
var pause struct {
	mu sync.Mutex
	// on: an instance asked for stop_on_error with a launcher listening;
	// done: the one stop happened (or was given up).
	on, done bool
	// waiting is closed when the stop ends; nil while there is none.
	waiting chan struct{}
}

// pauseSettingLocked notes an instance's stop_on_error: on with a
// launcher, else a warning that the app will not pause. Callers hold
// state.mu.
func pauseSettingLocked(s Settings) {
	if !options.StopOnError.Bool(&s.Values) {
		return
	}
	pause.mu.Lock()
	warned := pause.done
	if connectedLocked() {
		pause.on = true
	} else {
		pause.done = true // no launcher to continue it: never pause
	}
	pause.mu.Unlock()
	if !connectedLocked() && !warned {
		logLocked(levelWarning, options.StopOnError.Env+" (stop_on_error) is set, but gpuav-dbg is not listening: "+
			"the app does not pause at its first error")
	}
}

// waitWhilePaused holds a thread that reads back records while the app is
// paused, until the stop ends.
func waitWhilePaused() {
	pause.mu.Lock()
	ch := pause.waiting
	pause.mu.Unlock()
	if ch != nil {
		<-ch
	}
}

// stopAtFirstError pauses the app after the layer reported a submission's
// records (records of them, grouped), when it is the process's first stop:
// it says Paused and waits for the launcher's Continue or the end of the
// connection. Called without state.mu.
func stopAtFirstError(submit, queue uint64, records int) {
	pause.mu.Lock()
	if !pause.on || pause.done || records == 0 {
		pause.mu.Unlock()
		return
	}
	pause.done = true
	ch := make(chan struct{})
	pause.waiting = ch
	pause.mu.Unlock()
	defer func() {
		pause.mu.Lock()
		pause.waiting = nil
		pause.mu.Unlock()
		close(ch)
	}()
	var c *wire.Client
	withLock(func() {
		if !connectedLocked() {
			return
		}
		c = state.client
		c.DropContinues()
		c.Send(wire.KindPaused, wire.Paused{PID: os.Getpid(), Submit: submit, Queue: queue, Records: records})
	})
	if c != nil {
		c.WaitContinue(0)
	}
}
