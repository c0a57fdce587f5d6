package wire

import (
	"bufio"
	"time"
)

// Stopping at the first error (the stop_on_error setting): the layer
// pauses the app when it reads back the first submission with records,
// says so (Paused) and waits until the launcher sends Continue on the same
// socket, the one message that travels from the launcher to the layer, or
// until the connection ends (docs/decisions/stop-on-error.md).
const (
	// KindPaused is the layer's: it paused the app (Paused).
	KindPaused Kind = 40
	// KindContinue is the launcher's: the paused app continues (Continue).
	// The launcher writes it on the socket to the layers it paused, and
	// into the session file.
	KindContinue Kind = 90
)

// Paused says that the layer paused the app at its first error: the
// thread that read back submit (of queue) waits for Continue. Records is
// how many records (failed accesses: the records' counts added up) the
// submit had. The Errors of the submit come before it.
type Paused struct {
	PID     int    `json:"pid"`
	Submit  uint64 `json:"submit"`
	Queue   uint64 `json:"queue"`
	Records int    `json:"records"`
}

// Continue lets the paused app continue. Stopped, written only into the
// session file (never sent), says that the launcher ended the app there
// instead (a headless run stops at the first error).
type Continue struct {
	Stopped bool `json:"stopped,omitempty"`
}

// ToLayer reports whether the launcher writes kind k on the socket, to the
// layer: KindContinue only.
func (k Kind) ToLayer() bool { return k == KindContinue }

// read reads the launcher's frames until the connection ends: a Continue
// wakes WaitContinue; any other frame is ignored. It closes c.gone when
// the launcher's direction ends (the launcher went away, or Close).
func (c *Client) read() {
	defer close(c.gone)
	r := bufio.NewReaderSize(c.conn, 256)
	for {
		k, _, err := ReadFrame(r)
		if err != nil {
			return
		}
		if k == KindContinue {
			select {
			case c.cont <- struct{}{}:
			default:
			}
		}
	}
}

// DropContinues forgets a Continue that arrived while nothing waited: call
// it before saying Paused, so that only an answer to it ends the wait.
func (c *Client) DropContinues() {
	select {
	case <-c.cont:
	default:
	}
}

// WaitContinue waits until the launcher sends Continue or the connection
// ends (the launcher went away, the client was closed), at most limit (0:
// no limit), and reports whether a Continue came.
func (c *Client) WaitContinue(limit time.Duration) bool {
	var timeout <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-c.cont:
		return true
	case <-c.gone:
		return false
	case <-timeout:
		return false
	}
}
