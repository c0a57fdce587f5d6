package wire

import (
	"testing"
	"time"
)

// TestWaitContinue: a Continue from the launcher ends the wait (true); a
// Continue that came before DropContinues does not; a launcher that goes
// away ends it (false), as does the limit.
func TestWaitContinue(t *testing.T) {
	c, conn := pair(t)
	defer c.Close()
	if err := WriteFrame(conn, KindContinue, &Continue{}); err != nil {
		t.Fatal(err)
	}
	// Read by the client's reader: the buffered one is dropped.
	deadline := time.Now().Add(5 * time.Second)
	for len(c.cont) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	c.DropContinues()
	if c.WaitContinue(100 * time.Millisecond) {
		t.Fatal("a Continue dropped before the wait ended it")
	}
	done := make(chan bool)
	go func() { done <- c.WaitContinue(0) }()
	select {
	case got := <-done:
		t.Fatalf("the wait ended with nothing sent: %v", got)
	case <-time.After(200 * time.Millisecond):
	}
	// Another kind is ignored.
	if err := WriteFrame(conn, KindNotice, &Notice{Text: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := WriteFrame(conn, KindContinue, &Continue{}); err != nil {
		t.Fatal(err)
	}
	if got := <-done; !got {
		t.Fatal("WaitContinue = false after a Continue")
	}
	go func() { done <- c.WaitContinue(0) }()
	conn.Close()
	select {
	case got := <-done:
		if got {
			t.Fatal("WaitContinue = true when the launcher went away")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the wait did not end when the launcher went away")
	}
}

// TestToLayer: Continue is the one kind the launcher writes to the layer,
// and a layer that sends it is refused (it is the launcher's).
func TestToLayer(t *testing.T) {
	for _, k := range Kinds() {
		if k.ToLayer() != (k == KindContinue) {
			t.Errorf("%v.ToLayer() = %v", k, k.ToLayer())
		}
	}
	if !KindContinue.LauncherOnly() || KindPaused.LauncherOnly() {
		t.Fatal("continue must be the launcher's, paused the layer's")
	}
}
