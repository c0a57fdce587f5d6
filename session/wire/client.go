package wire

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Client tuning.
const (
	// ClientBuffer is how many bytes of encoded frames a Client holds
	// before it coalesces error records instead of encoding each message.
	ClientBuffer = 1 << 20
	// ClientMaxBuffer bounds the encoded frames a Client holds: a message
	// other than error records that does not fit is lost (and counted).
	ClientMaxBuffer = 64 << 20
	// ClientMaxGroups bounds the coalesced records a Client keeps (one
	// entry per record that differs in more than its coordinates and
	// submit); a record of a new entry past it is lost, and counted per
	// check, shader and instruction.
	ClientMaxGroups = 16384
	// ClientMaxLostGroups bounds the per check, shader and instruction
	// counts of lost records; past it only the total grows.
	ClientMaxLostGroups = 4096
	// ClientCloseTimeout is how long Close waits for the launcher to read
	// more: the wait goes on as long as the launcher keeps reading.
	ClientCloseTimeout = 10 * time.Second
)

// closeTimeout is ClientCloseTimeout; tests shorten it.
var closeTimeout = ClientCloseTimeout

// Client is the layer's end of the socket, used inside the app. It never
// blocks the app and never drops a record silently:
//
//   - Send encodes a message into the client's buffer and writes what the
//     socket takes at once, without waiting; a goroutine writes the rest.
//     Records the launcher keeps up with are in the kernel before Send
//     returns, so an app that crashes right after loses none of them.
//   - When the launcher falls behind (more than ClientBuffer bytes wait),
//     error records are coalesced instead of encoded: records that differ
//     only in coordinates and submit add to one count (with up to 8
//     sample coordinates), so memory grows with the number of distinct
//     records, not records. The coalesced records are sent, as Errors
//     with FirstSubmit set, once the launcher catches up.
//   - What still cannot be kept (past ClientMaxGroups, ClientMaxBuffer,
//     or a socket that failed) is counted exactly, per check, shader and
//     instruction where known, and sent in a Lost message.
//
// A Client is safe for concurrent use.
type Client struct {
	conn *net.UnixConn
	// dir is the socket's directory (the launcher's private one): when
	// the socket failed, Close leaves what could not be delivered there,
	// in a file the launcher reads after the app exited (LostFilePattern).
	dir      string
	raw      syscall.RawConn
	kick     chan struct{} // wakes the writer
	progress chan struct{} // the writer wrote, or gave up
	done     chan struct{} // the writer returned
	alive    atomic.Bool
	// cont receives the launcher's Continue (a buffer of one); gone is
	// closed when the launcher's direction ended (pause.go).
	cont chan struct{}
	gone chan struct{}

	mu sync.Mutex
	// out[outOff:] is being written by the goroutine that set writing;
	// pend is appended to meanwhile and becomes out when out is done.
	out, pend []byte
	outOff    int
	writing   bool
	// appended and written are stream offsets; marks are the frames not
	// yet wholly written, in order (from marksHead), for the lost counts.
	appended, written uint64
	marks             []frameMark
	marksHead         int
	closed, dead      bool
	finished          bool // Close returned: the socket is closed
	err               error
	backlog           backlog
	coalesced         uint64
	lost              lostCounts
}

// frameMark is a frame in the client's buffers: where it ends in the
// stream, its kind, and how many records it carries.
type frameMark struct {
	end     uint64
	kind    Kind
	records uint64
	// lines are a printf frame's lines (and those it counts as lost); lost
	// is a Lost frame's counts, which go back to the counts when the
	// frame is not delivered.
	lines uint64
	lost  *Lost
}

// LostFilePattern names the files a Client whose socket failed leaves in
// the socket's directory at Close (os.CreateTemp's pattern): the JSON of a
// Lost message with everything it could not deliver, which the launcher
// reads once the app has exited.
const LostFilePattern = "lost-*.json"

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
	c, err := newClient(conn.(*net.UnixConn))
	if c != nil {
		c.dir = filepath.Dir(path)
	}
	return c, err
}

// newClient starts a Client over an open connection.
func newClient(conn *net.UnixConn) (*Client, error) {
	raw, err := conn.SyscallConn()
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("launcher socket: %w", err)
	}
	c := &Client{conn: conn, raw: raw, kick: make(chan struct{}, 1), progress: make(chan struct{}, 1),
		done: make(chan struct{}), cont: make(chan struct{}, 1), gone: make(chan struct{})}
	c.alive.Store(true)
	go c.writer()
	go c.read()
	return c, nil
}

// Fd returns the socket's descriptor, or -1: the layer's fork handler
// closes a forked child's copy of it without Go.
func (c *Client) Fd() int {
	fd := -1
	if c.raw.Control(func(f uintptr) { fd = int(f) }) != nil {
		return -1
	}
	return fd
}

// Send queues msg as a frame of kind k and writes what the socket takes
// without waiting. Errors messages (KindErrors or KindErrorsPacked) go
// through SendErrors. A bye is preceded by everything coalesced and the
// lost counts. A message that cannot be encoded or kept is counted in
// Lost.
func (c *Client) Send(k Kind, msg any) {
	if k == KindErrors || k == KindErrorsPacked {
		switch e := msg.(type) {
		case *Errors:
			c.SendErrors(e)
			return
		case Errors:
			c.SendErrors(&e)
			return
		}
	}
	frame, err := Encode(k, msg)
	lines := printfLines(msg)
	c.mu.Lock()
	switch {
	case err != nil:
		if c.err == nil {
			c.err = err
		}
		c.lost.messageOf(k, lines)
	case c.closed || c.dead || c.bufferedLocked()+len(frame) > ClientMaxBuffer:
		c.lost.messageOf(k, lines)
	default:
		if k == KindBye {
			c.flushBacklogLocked()
			c.appendLostLocked()
		}
		c.appendLocked(k, frame, 0)
		c.marks[len(c.marks)-1].lines = lines
	}
	buf := c.takeLocked()
	c.mu.Unlock()
	c.writeTaken(buf)
}

// SendErrors queues an Errors message, packed (KindErrorsPacked), or
// coalesces its records while the launcher is behind, and writes what the
// socket takes without waiting.
func (c *Client) SendErrors(e *Errors) {
	c.mu.Lock()
	switch {
	case c.closed || c.dead:
		c.loseLocked(e)
	case c.backlog.empty() && c.bufferedLocked() < ClientBuffer:
		start := len(c.pend)
		c.pend = append(c.pend, Magic[0], Magic[1], byte(KindErrorsPacked), 0, 0, 0, 0, 0)
		c.pend = AppendPackedErrors(c.pend, e)
		size := len(c.pend) - start - HeaderSize
		if size > MaxPayload {
			c.pend = c.pend[:start]
			if c.err == nil {
				c.err = fmt.Errorf("encode errors: payload of %d bytes (max %d): %w", size, MaxPayload, ErrTooLarge)
			}
			c.loseLocked(e)
			break
		}
		binary.LittleEndian.PutUint32(c.pend[start+4:], uint32(size))
		c.appended += uint64(len(c.pend) - start)
		c.marks = append(c.marks, frameMark{end: c.appended, kind: KindErrorsPacked, records: recordsOf(e)})
	default:
		c.backlog.add(e, ClientMaxGroups, c.lost.record)
	}
	buf := c.takeLocked()
	c.mu.Unlock()
	c.writeTaken(buf)
}

// printfLines is the number of lines a Printf message stands for: those it
// carries and those it counts as lost in the printf buffer (0 for another
// message).
func printfLines(msg any) uint64 {
	var p *Printf
	switch m := msg.(type) {
	case *Printf:
		p = m
	case Printf:
		p = &m
	default:
		return 0
	}
	n := p.Lost
	for i := range p.Sites {
		n += uint64(p.Sites[i].Count())
	}
	return n
}

// recordsOf is the number of records an Errors message stands for.
func recordsOf(e *Errors) uint64 {
	var n uint64
	for i := range e.Records {
		n += uint64(max(e.Records[i].Count, 1))
	}
	return n
}

// loseLocked counts e's records as lost.
func (c *Client) loseLocked(e *Errors) {
	for i := range e.Records {
		c.lost.record(&e.Records[i])
	}
}

// appendLocked adds an encoded frame of kind k carrying records records.
func (c *Client) appendLocked(k Kind, frame []byte, records uint64) {
	c.pend = append(c.pend, frame...)
	c.appended += uint64(len(frame))
	c.marks = append(c.marks, frameMark{end: c.appended, kind: k, records: records})
}

// bufferedLocked is how many encoded bytes wait.
func (c *Client) bufferedLocked() int { return len(c.out) - c.outOff + len(c.pend) }

// flushBacklogLocked encodes the coalesced records into frames.
func (c *Client) flushBacklogLocked() {
	if c.backlog.empty() || c.dead {
		return
	}
	c.coalesced += c.backlog.records
	for _, e := range c.backlog.messages() {
		start := len(c.pend)
		c.pend = append(c.pend, Magic[0], Magic[1], byte(KindErrorsPacked), 0, 0, 0, 0, 0)
		c.pend = AppendPackedErrors(c.pend, e)
		binary.LittleEndian.PutUint32(c.pend[start+4:], uint32(len(c.pend)-start-HeaderSize))
		c.appended += uint64(len(c.pend) - start)
		c.marks = append(c.marks, frameMark{end: c.appended, kind: KindErrorsPacked, records: recordsOf(e)})
	}
}

// appendLostLocked queues a Lost message when anything was lost since
// the last one.
func (c *Client) appendLostLocked() {
	if c.dead || !c.lost.pending() {
		return
	}
	l := c.lost.take()
	frame, err := Encode(KindLost, l)
	if err == nil {
		c.appendLocked(KindLost, frame, 0)
		c.marks[len(c.marks)-1].lost = l
	}
}

// takeLocked gives the caller the socket and the bytes to write, or nil
// when another goroutine writes, the socket failed or nothing waits. It
// encodes the coalesced records once the launcher has caught up (less than
// half of ClientBuffer waits), and the lost counts.
func (c *Client) takeLocked() []byte {
	if c.writing || c.dead || c.finished {
		return nil
	}
	if !c.backlog.empty() && c.bufferedLocked() < ClientBuffer/2 {
		c.flushBacklogLocked()
	}
	c.appendLostLocked()
	if c.outOff == len(c.out) {
		c.out, c.pend = c.pend, c.out[:0]
		c.outOff = 0
	}
	if c.outOff == len(c.out) {
		return nil
	}
	c.writing = true
	return c.out[c.outOff:]
}

// wroteLocked records that n bytes of what takeLocked gave were written
// (err: the socket failed) and gives the socket back. It reports whether
// anything is left to write.
func (c *Client) wroteLocked(n int, err error) bool {
	c.writing = false
	if c.dead {
		return false
	}
	c.outOff += n
	c.written += uint64(n)
	for c.marksHead < len(c.marks) && c.marks[c.marksHead].end <= c.written {
		c.marksHead++
	}
	if c.marksHead > 1024 && c.marksHead*2 > len(c.marks) {
		c.marks = append(c.marks[:0], c.marks[c.marksHead:]...)
		c.marksHead = 0
	}
	if c.outOff == len(c.out) {
		c.out, c.outOff = c.out[:0], 0
	}
	if err != nil {
		c.failLocked(err)
		return false
	}
	return c.bufferedLocked() > 0 || !c.backlog.empty() || c.lost.pending()
}

// failLocked marks the socket failed and counts everything not yet
// written as lost: a frame cut in the middle is lost whole.
func (c *Client) failLocked(err error) {
	if c.dead {
		return
	}
	c.dead = true
	c.alive.Store(false)
	if c.err == nil {
		c.err = err
	}
	for _, m := range c.marks[c.marksHead:] {
		switch {
		case m.records > 0:
			c.lost.unattributed(m.records)
		case m.lost != nil:
			c.lost.restore(m.lost) // its counts are still to deliver
		default:
			c.lost.messageOf(m.kind, m.lines)
		}
	}
	for _, e := range c.backlog.messages() {
		c.loseLocked(e)
	}
	c.out, c.pend, c.outOff, c.marks, c.marksHead = nil, nil, 0, nil, 0
}

// writeTaken writes what the socket takes now, from the sender's
// goroutine, of what takeLocked gave it (nil: nothing, or the writer holds
// the socket), and leaves the rest to the writer. A sender takes in the
// same critical section as it appends: were the writer to take the frame
// in between, it would not be in the kernel when Send returns.
func (c *Client) writeTaken(buf []byte) {
	if buf == nil {
		return
	}
	n, err := c.write(buf, false)
	c.mu.Lock()
	more := c.wroteLocked(n, err) || c.closed
	c.mu.Unlock()
	if more {
		c.wake()
	}
}

// wake wakes the writer without blocking.
func (c *Client) wake() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// writer writes what the senders left until the client is closed and
// everything is written, or the socket fails.
func (c *Client) writer() {
	defer close(c.done)
	for {
		c.mu.Lock()
		buf := c.takeLocked()
		finished := c.dead || (buf == nil && c.closed && !c.writing)
		c.mu.Unlock()
		if finished {
			return
		}
		if buf == nil {
			<-c.kick
			continue
		}
		n, err := c.write(buf, true)
		c.mu.Lock()
		c.wroteLocked(n, err)
		c.mu.Unlock()
		select {
		case c.progress <- struct{}{}:
		default:
		}
	}
}

// write sends buf on the socket (MSG_NOSIGNAL: a launcher that went away
// is an error, never a SIGPIPE to the app). Without block it writes what
// the socket takes now and returns; with block it waits until the socket
// takes something (the write deadline, set by Close, ends the wait) and
// returns after one send.
func (c *Client) write(buf []byte, block bool) (int, error) {
	total := 0
	for total < len(buf) {
		var n int
		var werr error
		err := c.raw.Write(func(fd uintptr) bool {
			n, werr = syscall.SendmsgN(int(fd), buf[total:], nil, nil, syscall.MSG_NOSIGNAL|syscall.MSG_DONTWAIT)
			return !(block && werr == syscall.EAGAIN)
		})
		switch {
		case err != nil:
			return total, fmt.Errorf("write to the launcher: %w", err)
		case werr == syscall.EINTR:
			continue
		case werr == syscall.EAGAIN:
			return total, nil
		case werr != nil:
			return total, fmt.Errorf("write to the launcher: %w", werr)
		}
		total += n
		if block {
			return total, nil
		}
	}
	return total, nil
}

// Alive reports whether the socket still works: false after a write
// failed or the client was closed.
func (c *Client) Alive() bool { return c.alive.Load() }

// Lost returns the totals of what the client could not deliver so far:
// records and other messages (by kind name).
func (c *Client) Lost() Lost {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lost.totals()
}

// Coalesced is how many records were coalesced while the launcher was
// behind (they are delivered, merged with others).
func (c *Client) Coalesced() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.coalesced + c.backlog.records
}

// Err returns the first error the client met (a failed write, a message
// it could not encode), or nil.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close sends what is buffered and coalesced, waiting as long as the
// launcher keeps reading (it gives up after ClientCloseTimeout without
// progress), and closes the socket. When the socket failed, its error says
// so and what was lost in all. Close is idempotent.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.flushBacklogLocked()
	c.appendLostLocked()
	c.mu.Unlock()
	c.wake()
	timer := time.NewTimer(closeTimeout)
	defer timer.Stop()
wait:
	for {
		select {
		case <-c.done:
			break wait
		case <-c.progress:
			timer.Reset(closeTimeout)
		case <-timer.C:
			c.mu.Lock()
			c.failLocked(fmt.Errorf("the launcher read nothing for %v", closeTimeout))
			c.mu.Unlock()
			_ = c.conn.SetWriteDeadline(time.Now()) // ends a blocked write
			c.wake()
			<-c.done
			break wait
		}
	}
	c.alive.Store(false)
	cerr := c.conn.Close()
	c.mu.Lock()
	c.finished = true
	failed, err := c.dead, c.err
	var undelivered *Lost
	if failed && c.lost.pending() {
		undelivered = c.lost.take()
	}
	c.mu.Unlock()
	if lost := c.Lost(); failed {
		where := ""
		if undelivered != nil && c.dir != "" {
			if p, werr := writeLostFile(c.dir, undelivered); werr == nil {
				where = "; the counts are in " + p + " for gpuav-dbg"
			} else {
				where = "; " + werr.Error()
			}
		}
		return fmt.Errorf("close launcher socket: %v; lost in all: %s%s", err, lost.Summary(), where)
	}
	if cerr != nil {
		return fmt.Errorf("close launcher socket: %w", cerr)
	}
	return nil
}

// writeLostFile leaves l in a new file of dir (mode 0600, O_EXCL), for the
// launcher to read once the app has exited: a launcher that read nothing
// for ClientCloseTimeout (stopped, or on a starved core) still learns the
// exact count of what its report misses.
func writeLostFile(dir string, l *Lost) (string, error) {
	b, err := json.Marshal(l)
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, LostFilePattern)
	if err != nil {
		return "", fmt.Errorf("leave the lost counts for gpuav-dbg: %w", err)
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("leave the lost counts for gpuav-dbg: %w", err)
	}
	return f.Name(), nil
}

// lostCounts is what a Client lost: counts not yet sent in a Lost message
// (records, groups, messages, printf lines) and totals.
type lostCounts struct {
	records     uint64
	groups      map[lostKey]uint64
	order       []lostKey
	messages    map[Kind]uint64
	printfLines uint64

	totalRecords     uint64
	totalMessages    map[Kind]uint64
	totalPrintfLines uint64
}

type lostKey struct {
	code, shader, instruction uint32
	check                     string
}

// record counts a lost record, per check, shader and instruction while
// there is room.
func (l *lostCounts) record(r *Record) {
	n := uint64(max(r.Count, 1))
	l.unattributed(n)
	k := lostKey{r.Code, r.ShaderID, r.Instruction, r.Check}
	if l.groups == nil {
		l.groups = map[lostKey]uint64{}
	}
	if _, ok := l.groups[k]; !ok {
		if len(l.groups) >= ClientMaxLostGroups {
			return
		}
		l.order = append(l.order, k)
	}
	l.groups[k] += n
}

// unattributed counts n lost records of unknown groups.
func (l *lostCounts) unattributed(n uint64) {
	l.records += n
	l.totalRecords += n
}

// message counts a lost message of kind k.
func (l *lostCounts) message(k Kind) {
	if l.messages == nil {
		l.messages = map[Kind]uint64{}
	}
	if l.totalMessages == nil {
		l.totalMessages = map[Kind]uint64{}
	}
	l.messages[k]++
	l.totalMessages[k]++
}

// messageOf counts a lost message of kind k: a printf message as its
// lines, any other as one message.
func (l *lostCounts) messageOf(k Kind, lines uint64) {
	if k == KindPrintf {
		l.printfLines += lines
		l.totalPrintfLines += lines
		return
	}
	l.message(k)
}

// restore puts back the counts of a Lost message that was not delivered:
// they are pending again (the totals already hold them).
func (l *lostCounts) restore(m *Lost) {
	l.records += m.Records
	l.printfLines += m.PrintfLines
	for _, g := range m.Groups {
		k := lostKey{g.Code, g.ShaderID, g.Instruction, g.Check}
		if l.groups == nil {
			l.groups = map[lostKey]uint64{}
		}
		if _, ok := l.groups[k]; !ok {
			l.order = append(l.order, k)
		}
		l.groups[k] += g.Count
	}
	for name, n := range m.Messages {
		if k, ok := KindByName(name); ok {
			if l.messages == nil {
				l.messages = map[Kind]uint64{}
			}
			l.messages[k] += n
		}
	}
}

// pending reports whether anything was lost since the last take.
func (l *lostCounts) pending() bool { return l.records > 0 || len(l.messages) > 0 || l.printfLines > 0 }

// take returns the Lost message of the counts since the last take.
func (l *lostCounts) take() *Lost {
	m := &Lost{Records: l.records, Messages: kindCounts(l.messages), PrintfLines: l.printfLines}
	for _, k := range l.order {
		m.Groups = append(m.Groups, LostGroup{Code: k.code, Check: k.check, ShaderID: k.shader, Instruction: k.instruction,
			Count: l.groups[k]})
	}
	l.records, l.groups, l.order, l.messages, l.printfLines = 0, nil, nil, nil, 0
	return m
}

// totals returns the counts since the client started.
func (l *lostCounts) totals() Lost {
	return Lost{Records: l.totalRecords, Messages: kindCounts(l.totalMessages), PrintfLines: l.totalPrintfLines}
}

func kindCounts(m map[Kind]uint64) map[string]uint64 {
	if len(m) == 0 {
		return nil
	}
	out := map[string]uint64{}
	for k, n := range m {
		out[k.String()] += n
	}
	return out
}

// Summary is one line: "12 error records, 1 shader message".
func (l Lost) Summary() string {
	var parts []string
	if l.Records > 0 {
		parts = append(parts, fmt.Sprintf("%d error %s", l.Records, pluralWord(l.Records, "record", "records")))
	}
	if l.PrintfLines > 0 {
		parts = append(parts, fmt.Sprintf("%d printf %s", l.PrintfLines, pluralWord(l.PrintfLines, "line", "lines")))
	}
	kinds := make([]string, 0, len(l.Messages))
	for k := range l.Messages {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%d %s %s", l.Messages[k], k, pluralWord(l.Messages[k], "message", "messages")))
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

func pluralWord(n uint64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
