package wire

import (
	"bufio"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

func TestClientDeliversInOrder(t *testing.T) {
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
	if c.Dropped() != 0 || c.Alive() {
		t.Fatalf("dropped %d alive %v", c.Dropped(), c.Alive())
	}
	c.Send(KindLog, &Log{})
	if c.Dropped() != 1 {
		t.Fatalf("send after close: dropped %d", c.Dropped())
	}
	if err := c.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
}

func TestClientSocketGone(t *testing.T) {
	ln, path := listen(t)
	c, err := Dial(path)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	ln.Close()
	big := &Log{Text: strings.Repeat("y", 1<<16)}
	deadline := time.Now().Add(5 * time.Second)
	for c.Alive() && time.Now().Before(deadline) {
		c.Send(KindLog, big)
		time.Sleep(time.Millisecond)
	}
	if c.Alive() {
		t.Fatal("still alive after the launcher went away")
	}
	before := c.Dropped()
	start := time.Now()
	for i := 0; i < 100; i++ {
		c.Send(KindLog, big)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("Send blocked %v on a dead socket", d)
	}
	if c.Dropped() < before+100 {
		t.Fatalf("dropped %d, want at least %d", c.Dropped(), before+100)
	}
	if c.Err() == nil {
		t.Fatal("no error recorded")
	}
	c.Close()
}

func TestClientQueueFullAndCloseTimeout(t *testing.T) {
	ln, path := listen(t)
	c, err := Dial(path)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ln.Accept() // never read
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	big := &Log{Text: strings.Repeat("z", 4096)}
	var slowest time.Duration
	for i := 0; i < ClientQueue+200; i++ {
		start := time.Now()
		c.Send(KindLog, big)
		slowest = max(slowest, time.Since(start))
	}
	if slowest > 500*time.Millisecond {
		t.Fatalf("Send blocked %v with a full queue", slowest)
	}
	if c.Dropped() == 0 {
		t.Fatal("nothing dropped with a full queue and a reader that never reads")
	}
	start := time.Now()
	err = c.Close()
	d := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("Close = %v, want a flush timeout", err)
	}
	if d < ClientCloseTimeout-100*time.Millisecond || d > ClientCloseTimeout+time.Second {
		t.Fatalf("Close took %v, want about %v", d, ClientCloseTimeout)
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
	ln, path := listen(t)
	c, err := Dial(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	conn, _ := ln.Accept()
	defer conn.Close()
	c.Send(KindLog, &Bye{})
	if c.Dropped() != 1 || c.Err() == nil {
		t.Fatalf("mismatched message: dropped %d err %v", c.Dropped(), c.Err())
	}
	if !c.Alive() {
		t.Fatal("an unencodable message killed the client")
	}
}
