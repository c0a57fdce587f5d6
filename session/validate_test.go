package session

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// TestValidate: every impossible value a forged frame can carry is
// refused with what is wrong; the values the layer sends pass.
func TestValidate(t *testing.T) {
	rec := func(f func(*wire.Record)) *wire.Errors {
		r := computeRecord(0)
		f(&r)
		return &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: []wire.Record{r}}
	}
	long := strings.Repeat("x", maxString+1)
	for _, c := range []struct {
		name string
		msg  any
		err  string
	}{
		{"a record", rec(func(*wire.Record) {}), ""},
		{"count -1", rec(func(r *wire.Record) { r.Count = -1 }), "record 0: count -1"},
		{"count 2^31", rec(func(r *wire.Record) { r.Count = 1 << 31 }), "record 0: count 2147483648"},
		{"count 0 (older files)", rec(func(r *wire.Record) { r.Count = 0 }), ""},
		{"submit 2^64-1", &wire.Errors{Submit: 1<<64 - 1}, "submit 18446744073709551615 (max 281474976710656)"},
		{"first submit after the last", &wire.Errors{Submit: 3, FirstSubmit: 4}, "first submit 4 after the last, 3"},
		{"unknown check code", rec(func(r *wire.Record) { r.Code, r.Check = 99, "" }), "record 0: check code 99"},
		{"check of another code", rec(func(r *wire.Record) { r.Check = "bda_oob" }),
			`record 0: check "bda_oob" for code 1 (descriptor_index_oob)`},
		{"unknown stage", rec(func(r *wire.Record) { r.Stage = 77 }), "record 0: stage 77"},
		{"too many params", rec(func(r *wire.Record) { r.Params = make([]uint32, 20) }), "record 0: 20 parameters"},
		{"not a command", rec(func(r *wire.Record) { r.Action = "rm -rf /" }), `record 0: action "rm -rf /"`},
		{"a label too long", rec(func(r *wire.Record) { r.Labels = []string{long} }), "record 0: label of 65537 bytes"},
		{"log level", &wire.Log{Level: "\x1b[2J"}, `level "\x1b[2J"`},
		{"name too long", &wire.Name{Handle: 1, Name: long}, "name of 65537 bytes"},
		{"shader id 0", &wire.Shader{}, "shader id 0"},
		{"slot past the sets", &wire.Device{Instrumenting: true, MaxBoundDescriptorSets: 8, DescriptorSlot: 8}, "descriptor slot 8 of 8 sets"},
		{"label op", &wire.Label{Op: "pop"}, `label operation "pop"`},
		{"bye submits", &wire.Bye{Submits: 1<<64 - 1}, "18446744073709551615 submits"},
		{"lost group over the total", &wire.Lost{Records: 3, Groups: []wire.LostGroup{{Code: 1, Check: "descriptor_index_oob", Count: 4}}},
			"lost group count 4 of 3 records"},
		{"lost", &wire.Lost{Records: 5, Groups: []wire.LostGroup{{Code: 1, Check: "descriptor_index_oob", Count: 4}}}, ""},
		{"app state", &wire.AppExited{State: "zombie"}, `app state "zombie"`},
		{"on_error unknown", &wire.Hello{Settings: wire.Settings{OnError: "explode"}}, `"explode" is not a failed-access behaviour`},
		{"on_error clamp", &wire.Hello{Settings: wire.Settings{OnError: "clamp"}}, ""},
		{"on_error absent (older files)", &wire.Hello{}, ""},
		{"launcher's on_error", &wire.AppStarted{Settings: wire.Settings{OnError: "\x1b[2J"}}, `"\x1b[2J" is not a failed-access behaviour`},
		{"printf", &wire.Printf{Submit: 1, Sites: []wire.PrintfSite{{Action: "vkCmdDispatch", Stage: 5, Args: 1, Lines: make([]byte, 32)}}}, ""},
		{"printf lines not whole", &wire.Printf{Sites: []wire.PrintfSite{{Stage: 5, Args: 1, Lines: make([]byte, 17)}}},
			"site 0: printf site: 17 bytes of lines of 16 bytes each"},
		{"printf args", &wire.Printf{Sites: []wire.PrintfSite{{Stage: 5, Args: wire.MaxPrintfArgs + 1}}}, "site 0: printf site: 1025 argument words"},
		{"printf stage", &wire.Printf{Sites: []wire.PrintfSite{{Stage: 77}}}, "site 0: stage 77"},
		{"printf action", &wire.Printf{Sites: []wire.PrintfSite{{Stage: 5, Action: "x"}}}, `site 0: action "x"`},
		{"printf submit", &wire.Printf{Submit: 1 << 60}, "submit 1152921504606846976"},
	} {
		err := validate(c.msg)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v, want %q", c.name, err, c.err)
		}
	}
}

// TestServerRejectsForgedFrames: a frame with an impossible value is
// rejected with a notice naming the connection, the byte and the value;
// the connection goes on, and its next frame counts.
func TestServerRejectsForgedFrames(t *testing.T) {
	srv, c := startServer(t)
	bad := computeRecord(0)
	bad.Count = -1
	h := frame(t, wire.KindHello, hello(1))
	forged := frame(t, wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: []wire.Record{bad}})
	conn := rawConn(t, srv, h, forged,
		frame(t, wire.KindErrors, &wire.Errors{Submit: 1<<64 - 1, CommandBuffer: 0x55, Records: []wire.Record{computeRecord(1)}}),
		frame(t, wire.KindErrors, &wire.Errors{Submit: 2, CommandBuffer: 0x55, Records: []wire.Record{computeRecord(2)}}))
	defer conn.Close()
	n := waitNotice(t, c, "rejected the errors frame at byte "+itoa(len(h)))
	if n.Level != "error" || !strings.Contains(n.Text, "count -1") || strings.Contains(n.Text, "connection closed") {
		t.Fatalf("notice %+v", n)
	}
	waitNotice(t, c, "rejected the errors frame at byte "+itoa(len(h)+len(forged))+": invalid value: submit 18446744073709551615")
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		s := c.Snapshot()
		if len(s.Groups) == 1 {
			if g := s.Groups[0]; g.Count != 1 || g.Submit != 2 {
				t.Fatalf("group %+v", g)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the valid frame after the forged ones never counted: %d groups", len(s.Groups))
		}
	}
}
