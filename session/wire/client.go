package wire

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Client tuning.
const (
	// ClientQueue is how many frames a Client holds before it drops.
	ClientQueue = 4096
	// ClientWriteTimeout bounds one frame's write; a launcher that stops
	// reading for that long is treated as gone.
	ClientWriteTimeout = 5 * time.Second
	// ClientCloseTimeout bounds how long Close waits to flush the queue.
	ClientCloseTimeout = 2 * time.Second
)

// Client is the layer's end of the socket, used inside the app. Send never
// blocks for long: frames go into a buffered queue that one goroutine
// writes; when the socket is gone or the queue is full, the frame is
// dropped and counted. A Client is safe for concurrent use.
type Client struct {
	conn    net.Conn
	queue   chan []byte
	done    chan struct{}
	mu      sync.Mutex // guards closed and sends into queue against Close
	closed  bool
	alive   atomic.Bool
	dropped atomic.Uint64
	errMu   sync.Mutex
	err     error
	// dlMu orders the writer's "still alive? set deadline" against
	// Close's "dead; deadline now", so a timed-out Close cannot be
	// followed by a fresh 5 s write.
	dlMu sync.Mutex
}

// Dial connects to the launcher's socket at path.
func Dial(path string) (*Client, error) {
	conn, err := net.DialTimeout("unix", path, 2*time.Second)
	if err != nil {
		// The OpError repeats "dial unix PATH": keep its cause.
		var oe *net.OpError
		if errors.As(err, &oe) && oe.Err != nil {
			err = oe.Err
		}
		return nil, fmt.Errorf("dial launcher socket %s: %w", path, err)
	}
	return newClient(conn), nil
}

// newClient starts a Client over an open connection.
func newClient(conn net.Conn) *Client {
	c := &Client{conn: conn, queue: make(chan []byte, ClientQueue), done: make(chan struct{})}
	c.alive.Store(true)
	go c.writer()
	return c
}

// writer writes queued frames until the queue is closed; after a write
// error it only counts what it drops.
func (c *Client) writer() {
	defer close(c.done)
	for frame := range c.queue {
		c.dlMu.Lock()
		ok := c.alive.Load()
		if ok {
			_ = c.conn.SetWriteDeadline(time.Now().Add(ClientWriteTimeout))
		}
		c.dlMu.Unlock()
		if !ok {
			c.dropped.Add(1)
			continue
		}
		if _, err := c.conn.Write(frame); err != nil {
			c.fail(fmt.Errorf("write %v frame: %w", Kind(frame[2]), err))
			c.dropped.Add(1)
		}
	}
}

// fail marks the client dead, remembering the first error.
func (c *Client) fail(err error) {
	c.errMu.Lock()
	if c.err == nil {
		c.err = err
	}
	c.errMu.Unlock()
	c.alive.Store(false)
}

// Send queues msg as a frame of kind k. It encodes msg before it returns,
// so the caller may reuse msg at once. It never blocks on the socket: when
// the client is closed or dead, the queue is full or msg cannot be encoded,
// the frame is dropped and counted in Dropped.
func (c *Client) Send(k Kind, msg any) {
	frame, err := Encode(k, msg)
	if err != nil {
		c.errMu.Lock()
		if c.err == nil {
			c.err = err
		}
		c.errMu.Unlock()
		c.dropped.Add(1)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || !c.alive.Load() {
		c.dropped.Add(1)
		return
	}
	select {
	case c.queue <- frame:
	default:
		c.dropped.Add(1)
	}
}

// Alive reports whether the socket still works: false after a write
// failed or the client was closed.
func (c *Client) Alive() bool { return c.alive.Load() }

// Dropped counts the frames that were not delivered.
func (c *Client) Dropped() uint64 { return c.dropped.Load() }

// Err returns the first error the client met (a failed write, a message
// it could not encode), or nil.
func (c *Client) Err() error {
	c.errMu.Lock()
	defer c.errMu.Unlock()
	return c.err
}

// Close flushes the queue, waiting at most ClientCloseTimeout, and closes
// the socket. Frames still queued after the timeout are dropped. Close is
// idempotent.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	close(c.queue)
	c.mu.Unlock()

	timer := time.NewTimer(ClientCloseTimeout)
	defer timer.Stop()
	var timedOut bool
	select {
	case <-c.done:
	case <-timer.C:
		timedOut = true
		// Unblock a write in progress; the writer then drops the rest.
		c.dlMu.Lock()
		c.fail(fmt.Errorf("close: flush timed out after %v", ClientCloseTimeout))
		_ = c.conn.SetWriteDeadline(time.Now())
		c.dlMu.Unlock()
		<-c.done
	}
	c.alive.Store(false)
	err := c.conn.Close()
	if timedOut {
		return fmt.Errorf("close launcher socket: flush timed out, %d frames dropped", c.Dropped())
	}
	if err != nil {
		return fmt.Errorf("close launcher socket: %w", err)
	}
	return nil
}
