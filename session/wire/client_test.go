package wire

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// listen opens a unix socket in a temp dir.
func listen(t *testing.T) (net.Listener, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln, path
}

// pair dials a client and accepts its connection.
func pair(t *testing.T) (*Client, net.Conn) {
	t.Helper()
	ln, path := listen(t)
	c, err := Dial(path)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return c, conn
}

// received is what a reader of the launcher's side got.
type received struct {
	records  int               // sum of record counts
	messages int               // Errors messages
	coalesce int               // Errors messages with FirstSubmit
	groups   map[string]int    // records per "shader/instruction/action"
	samples  map[string]int    // distinct stage words per group key
	lost     Lost              // the Lost messages, added up
	lines    uint64            // printf lines delivered
	kinds    map[Kind]int      // frames per kind
	err      error             // how the stream ended (nil: EOF)
	bad      []string          // what did not decode
	firsts   map[string]uint64 // the group's first submit
}

// readAll reads frames until EOF, adding up what an Errors or Lost carries.
func readAll(r io.Reader) received {
	got := received{groups: map[string]int{}, samples: map[string]int{}, kinds: map[Kind]int{},
		firsts: map[string]uint64{}, lost: Lost{Messages: map[string]uint64{}}}
	seen := map[string]map[[3]uint32]bool{}
	br := bufio.NewReaderSize(r, 1<<16)
	for {
		k, p, err := ReadFrame(br)
		if err != nil {
			if err != io.EOF {
				got.err = err
			}
			return got
		}
		got.kinds[k]++
		m, err := Decode(k, p)
		if err != nil {
			got.bad = append(got.bad, err.Error())
			continue
		}
		switch m := m.(type) {
		case *Errors:
			got.messages++
			if m.FirstSubmit != 0 {
				got.coalesce++
			}
			for _, rec := range m.Records {
				key := groupName(rec)
				got.records += rec.Count
				got.groups[key] += rec.Count
				if seen[key] == nil {
					seen[key] = map[[3]uint32]bool{}
					first := m.Submit
					if m.FirstSubmit != 0 {
						first = m.FirstSubmit
					}
					got.firsts[key] = first
				}
				if !seen[key][rec.StageWords] {
					seen[key][rec.StageWords] = true
					got.samples[key]++
				}
			}
		case *Printf:
			for i := range m.Sites {
				got.lines += uint64(m.Sites[i].Count())
			}
		case *Lost:
			got.lost.PrintfLines += m.PrintfLines
			got.lost.Records += m.Records
			got.lost.Groups = append(got.lost.Groups, m.Groups...)
			for k, n := range m.Messages {
				got.lost.Messages[k] += n
			}
		}
	}
}

func groupName(r Record) string {
	return strings.Join([]string{itoa(r.ShaderID), itoa(r.Instruction), itoa(r.ActionIndex)}, "/")
}

func itoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }

// errorsMsg is one submit's records: per action a, n invocations with
// distinct stage words, of one group (shader 1, instruction 100+a).
func errorsMsg(submit uint64, actions, n int) *Errors {
	e := &Errors{Submit: submit, Queue: 0x10, CommandBuffer: 0x20}
	for a := 0; a < actions; a++ {
		for i := 0; i < n; i++ {
			e.Records = append(e.Records, Record{Check: "descriptor_index_oob", Code: 1, ShaderID: 1,
				Instruction: uint32(100 + a), Stage: 5, StageWords: [3]uint32{uint32(i), uint32(submit), 0},
				ActionIndex: uint32(a), Action: "vkCmdDispatch", Pipeline: 0x30, Labels: []string{"frame"},
				Params: []uint32{0, 0, uint32(2 + a), 2, 0, 0, 0}, Count: 1})
		}
	}
	return e
}

func TestClientDeliversInOrder(t *testing.T) {
	c, conn := pair(t)
	const n = 500
	c.Send(KindHello, &Hello{Protocol: ProtocolVersion, PID: 1})
	for i := 0; i < n; i++ {
		c.Send(KindLog, &Log{Level: "info", Text: strings.Repeat("x", i)})
	}
	c.Send(KindBye, &Bye{Submits: 3})
	if !c.Alive() {
		t.Fatal("not alive")
	}
	done := make(chan error, 1)
	go func() { done <- c.Close() }()
	r := bufio.NewReader(conn)
	k, p, err := ReadFrame(r)
	if err != nil || k != KindHello {
		t.Fatalf("first frame %v %v", k, err)
	}
	if _, err := Decode(k, p); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		k, p, err := ReadFrame(r)
		if err != nil || k != KindLog {
			t.Fatalf("frame %d: %v %v", i, k, err)
		}
		m, err := Decode(k, p)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(m.(*Log).Text); got != i {
			t.Fatalf("frame %d has text of %d bytes", i, got)
		}
	}
	if k, _, err := ReadFrame(r); err != nil || k != KindBye {
		t.Fatalf("last frame %v %v", k, err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadFrame(r); err == nil {
		t.Fatal("stream goes on after Close")
	}
	if l := c.Lost(); l.Records != 0 || len(l.Messages) != 0 || c.Alive() {
		t.Fatalf("lost %+v alive %v", l, c.Alive())
	}
	c.Send(KindLog, &Log{})
	c.SendErrors(errorsMsg(1, 1, 3))
	if l := c.Lost(); l.Messages["log"] != 1 || l.Records != 3 {
		t.Fatalf("sends after close: lost %+v, want 1 log message and 3 records", l)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
}

// TestClientWritesBeforeSendReturns: with a launcher that keeps up, the
// frames are in the kernel when Send returns (an app that crashes right
// after its wait loses nothing): the reader's socket holds every byte
// sent so far, each time.
func TestClientWritesBeforeSendReturns(t *testing.T) {
	c, conn := pair(t)
	defer c.Close()
	raw, err := conn.(*net.UnixConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	readable := func() int {
		var n int32
		raw.Control(func(fd uintptr) {
			const fionread = 0x541B // bytes waiting to be read (SIOCINQ)
			syscall.Syscall(syscall.SYS_IOCTL, fd, fionread, uintptr(unsafe.Pointer(&n)))
		})
		return int(n)
	}
	total := 0
	buf := make([]byte, 1<<16)
	for i := 0; i < 300; i++ {
		e := errorsMsg(uint64(i+1), 1, 4)
		frame, err := Encode(KindErrorsPacked, e)
		if err != nil {
			t.Fatal(err)
		}
		c.SendErrors(e)
		total += len(frame)
		if got := readable(); got != total {
			t.Fatalf("send %d: %d bytes readable when SendErrors returned, want %d", i, got, total)
		}
		if i%50 == 49 { // drain now and then, so the socket never fills
			for total > 0 {
				n, err := conn.Read(buf[:min(len(buf), total)])
				if err != nil {
					t.Fatal(err)
				}
				total -= n
			}
		}
	}
}

// TestClientBackPressure: a launcher that stops reading while the app
// makes records loses none: the client coalesces what does not fit (exact
// counts, the first samples), memory stays bounded, and everything arrives
// once the launcher reads again. Sends never block.
func TestClientBackPressure(t *testing.T) {
	c, conn := pair(t)
	const submits, actions, perAction = 20000, 4, 4
	var slowest time.Duration
	for s := 1; s <= submits; s++ {
		start := time.Now()
		c.SendErrors(errorsMsg(uint64(s), actions, perAction))
		slowest = max(slowest, time.Since(start))
	}
	if slowest > 500*time.Millisecond {
		t.Errorf("SendErrors blocked %v with a launcher that does not read", slowest)
	}
	c.mu.Lock()
	buffered, groups := c.bufferedLocked(), c.backlog.size()
	c.mu.Unlock()
	if buffered > ClientBuffer+64<<10 || groups != actions {
		t.Errorf("buffered %d bytes (max %d) and %d coalesced entries, want %d", buffered, ClientBuffer, groups, actions)
	}
	if c.Coalesced() == 0 {
		t.Fatal("nothing coalesced with a launcher that does not read")
	}
	c.Send(KindBye, &Bye{Submits: submits})
	done := make(chan error, 1)
	go func() { done <- c.Close() }()
	got := readAll(conn)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got.err != nil || len(got.bad) > 0 {
		t.Fatalf("stream: %v %v", got.err, got.bad)
	}
	if want := submits * actions * perAction; got.records != want || got.lost.Records != 0 {
		t.Fatalf("received %d records (lost %d), want %d", got.records, got.lost.Records, want)
	}
	for a := 0; a < actions; a++ {
		key := "1/" + itoa(uint32(100+a)) + "/" + itoa(uint32(a))
		if got.groups[key] != submits*perAction || got.firsts[key] != 1 {
			t.Errorf("group %s: %d records from submit %d, want %d from 1", key, got.groups[key], got.firsts[key], submits*perAction)
		}
	}
	if got.coalesce == 0 || got.kinds[KindBye] != 1 {
		t.Errorf("%d coalesced messages, %d byes", got.coalesce, got.kinds[KindBye])
	}
}

// TestClientLostPastMaxGroups: past ClientMaxGroups distinct records in
// the backlog, a record is lost, and counted exactly, per check, shader
// and instruction: delivered + lost = made.
func TestClientLostPastMaxGroups(t *testing.T) {
	c, conn := pair(t)
	// Fill the buffer, then make every record a group of its own.
	made := 0
	for s := 1; c.Coalesced() == 0; s++ {
		e := errorsMsg(uint64(s), 1, 8)
		c.SendErrors(e)
		made += 8
	}
	const extra = 5000
	for i := 0; i < ClientMaxGroups+extra; i++ {
		e := &Errors{Submit: 99999, Queue: 0x10, CommandBuffer: 0x20, Records: []Record{{Check: "bda_oob", Code: 3,
			ShaderID: 2, Instruction: 7, Stage: 5, ActionIndex: uint32(i), Action: "vkCmdDispatch", Params: []uint32{1}, Count: 2}}}
		c.SendErrors(e)
		made += 2
	}
	done := make(chan error, 1)
	go func() { done <- c.Close() }()
	got := readAll(conn)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if uint64(got.records)+got.lost.Records != uint64(made) {
		t.Fatalf("received %d + lost %d records, made %d", got.records, got.lost.Records, made)
	}
	if got.lost.Records < 2*extra || len(got.lost.Groups) != 1 {
		t.Fatalf("lost %+v, want at least %d records of one group", got.lost, 2*extra)
	}
	if g := got.lost.Groups[0]; g.Check != "bda_oob" || g.ShaderID != 2 || g.Instruction != 7 || g.Count != got.lost.Records {
		t.Errorf("lost group %+v, want bda_oob shader 2 instruction 7 count %d", g, got.lost.Records)
	}
	if l := c.Lost(); l.Records != got.lost.Records {
		t.Errorf("client counts %d lost records, the launcher got %d", l.Records, got.lost.Records)
	}
}

func TestClientSocketGone(t *testing.T) {
	c, conn := pair(t)
	conn.Close()
	big := &Log{Text: strings.Repeat("y", 1<<16)}
	deadline := time.Now().Add(5 * time.Second)
	for c.Alive() && time.Now().Before(deadline) {
		c.Send(KindLog, big)
		time.Sleep(time.Millisecond)
	}
	if c.Alive() {
		t.Fatal("still alive after the launcher went away")
	}
	before := c.Lost()
	start := time.Now()
	for i := 0; i < 100; i++ {
		c.Send(KindLog, big)
		c.SendErrors(errorsMsg(1, 1, 2))
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("Send blocked %v on a dead socket", d)
	}
	after := c.Lost()
	if after.Messages["log"] != before.Messages["log"]+100 || after.Records != before.Records+200 {
		t.Fatalf("lost before %+v, after %+v: want 100 more logs and 200 more records", before, after)
	}
	if c.Err() == nil {
		t.Fatal("no error recorded")
	}
	err := c.Close()
	if err == nil || !strings.Contains(err.Error(), "lost in all: 200 error records") {
		t.Fatalf("Close = %v, want the lost counts", err)
	}
}

// TestClientCloseTimeout: a launcher that never reads holds Close for
// closeTimeout, then Close says what was lost.
func TestClientCloseTimeout(t *testing.T) {
	old := closeTimeout
	closeTimeout = 300 * time.Millisecond
	defer func() { closeTimeout = old }()
	c, _ := pair(t) // never read
	made := 0
	for s := 1; c.Coalesced() == 0; s++ {
		c.SendErrors(errorsMsg(uint64(s), 1, 8))
		made += 8
	}
	start := time.Now()
	err := c.Close()
	d := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "the launcher read nothing for 300ms") {
		t.Fatalf("Close = %v, want a timeout", err)
	}
	if d < closeTimeout-50*time.Millisecond || d > closeTimeout+2*time.Second {
		t.Fatalf("Close took %v, want about %v", d, closeTimeout)
	}
	// Some frames are in the kernel; the rest is lost, and counted.
	if l := c.Lost(); l.Records == 0 || l.Records > uint64(made) {
		t.Fatalf("lost %d records of %d", l.Records, made)
	}
}

func TestDialMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope")
	_, err := Dial(path)
	if want := "dial launcher socket " + path + ": connect: no such file or directory"; err == nil || err.Error() != want {
		t.Fatalf("Dial = %v, want %s", err, want)
	}
}

func TestClientBadMessageCounted(t *testing.T) {
	c, _ := pair(t)
	defer c.Close()
	c.Send(KindLog, &Bye{})
	if l := c.Lost(); l.Messages["log"] != 1 || c.Err() == nil {
		t.Fatalf("mismatched message: lost %+v err %v", l, c.Err())
	}
	if !c.Alive() {
		t.Fatal("an unencodable message killed the client")
	}
}

// printfMsg is a printf message of n lines of one argument.
func printfMsg(submit uint64, n int) *Printf {
	site := PrintfSite{ActionIndex: 0, Action: "vkCmdDispatch", Pipeline: 0x30, ShaderID: 1, Instruction: 7, Stage: 5, Args: 1}
	for i := 0; i < n; i++ {
		site.AppendLine([3]uint32{uint32(i), 0, 0}, []uint32{uint32(i)})
	}
	return &Printf{Submit: submit, Queue: 0x10, CommandBuffer: 0x20, Sites: []PrintfSite{site}}
}

// TestClientLostFileAfterStall: a launcher that reads nothing for the
// close timeout (stopped for more than 10 s) still learns exactly what
// its stream misses: Close leaves the counts it could not deliver in a
// file of the socket's directory, and records delivered + records counted
// lost in the stream + records in the file = records made; printf lines
// are counted as lines (a lost printf message was one "message", whatever
// its lines), and the Lost frames that were cut count again.
func TestClientLostFileAfterStall(t *testing.T) {
	old := closeTimeout
	closeTimeout = 300 * time.Millisecond
	defer func() { closeTimeout = old }()
	ln, path := listen(t)
	c, err := Dial(path)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	made, lines := 0, 0
	for s := 1; c.Coalesced() == 0 || s < 200; s++ {
		c.SendErrors(errorsMsg(uint64(s), 1, 8))
		made += 8
		c.Send(KindPrintf, printfMsg(uint64(s), 50))
		lines += 50
	}
	err = c.Close()
	if err == nil || !strings.Contains(err.Error(), "the counts are in "+filepath.Dir(path)+"/lost-") {
		t.Fatalf("Close = %v, want a timeout naming the file of the counts", err)
	}
	got := readAll(conn)
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(path), LostFilePattern))
	if len(files) != 1 {
		t.Fatalf("lost files %q", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var left Lost
	if err := json.Unmarshal(b, &left); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(files[0]); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	if n := uint64(got.records) + got.lost.Records + left.Records; n != uint64(made) || left.Records == 0 {
		t.Errorf("records: %d delivered + %d counted lost in the stream + %d in the file = %d, want %d made",
			got.records, got.lost.Records, left.Records, n, made)
	}
	if n := got.lines + got.lost.PrintfLines + left.PrintfLines; n != uint64(lines) || left.PrintfLines == 0 {
		t.Errorf("printf lines: %d delivered + %d counted lost in the stream + %d in the file = %d, want %d made",
			got.lines, got.lost.PrintfLines, left.PrintfLines, n, lines)
	}
	if left.Messages["printf"] != 0 || got.lost.Messages["printf"] != 0 {
		t.Errorf("printf messages counted as messages: %v %v", left.Messages, got.lost.Messages)
	}
	if total := c.Lost(); total.Records != got.lost.Records+left.Records || total.PrintfLines != got.lost.PrintfLines+left.PrintfLines {
		t.Errorf("the client's totals %+v, want the stream's and the file's", total)
	}
}

// TestBacklogKeepsSerials: records coalesced while the launcher is behind
// keep their command buffer's, primary's and pipeline's serials, and two
// command buffers that share a handle (one freed, one allocated in its
// place) stay apart.
func TestBacklogKeepsSerials(t *testing.T) {
	var b backlog
	rec := Record{Check: "descriptor_index_oob", Code: 1, ShaderID: 2, Instruction: 3, Action: "vkCmdDispatch",
		Pipeline: 0x77, PipelineSerial: 5, Params: []uint32{0, 0, 3, 2}, Count: 1}
	for s, serial := range []uint64{7, 7, 8} {
		b.add(&Errors{Submit: uint64(s + 1), CommandBuffer: 0x55, CommandBufferSerial: serial, Primary: 0x44, PrimarySerial: 3,
			Records: []Record{rec}}, 16, func(*Record) { t.Fatal("lost") })
	}
	msgs := b.messages()
	if len(msgs) != 2 {
		t.Fatalf("%d messages, want one per command buffer serial: %+v", len(msgs), msgs)
	}
	for i, want := range []struct {
		serial uint64
		count  int
	}{{7, 2}, {8, 1}} {
		m := msgs[i]
		if m.CommandBufferSerial != want.serial || m.PrimarySerial != 3 || len(m.Records) != 1 ||
			m.Records[0].PipelineSerial != 5 || m.Records[0].Count != want.count {
			t.Errorf("message %d: %+v, want command buffer serial %d, primary serial 3, pipeline serial 5, count %d",
				i, m, want.serial, want.count)
		}
	}
}
