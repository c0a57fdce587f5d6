package tui

import (
	"fmt"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// Shape of the streamed run: 1,300,000 records in messages of 4,000 (the
// layer's buffer holds 4,096 per command buffer), spread over the groups
// of 100 command buffers.
const (
	streamRecords    = 1_300_000
	streamPerMessage = 4000
	streamCmdBufs    = 100
)

// collectorSource is the launcher's live Source over a real collector:
// snapshots on demand, one coalesced notice per burst of changes.
type collectorSource struct {
	col     *session.Collector
	updates chan struct{}
}

func (s collectorSource) Snapshot() *session.Session { return s.col.Snapshot() }
func (s collectorSource) Updates() <-chan struct{}   { return s.updates }

func newCollectorSource() collectorSource {
	src := collectorSource{col: session.NewCollector(), updates: make(chan struct{}, 1)}
	src.col.OnChange = func() {
		select {
		case src.updates <- struct{}{}:
		default:
		}
	}
	return src
}

// streamFrames encodes the run's errors messages (payloads, as the layer's
// socket delivers them) over groups distinct groups: groups/100 in each
// command buffer, as many dispatches as fit in. The messages are of kind
// k: wire.KindErrorsPacked as the layer sends them since wire protocol 2,
// or wire.KindErrors (JSON, as before), which costs the collector far more
// to decode.
func streamFrames(tb testing.TB, groups int, k wire.Kind) [][]byte {
	tb.Helper()
	var frames [][]byte
	for m := range streamRecords / streamPerMessage {
		cb := m % streamCmdBufs
		e := wire.Errors{Submit: uint64(m/streamCmdBufs + 1), CommandBuffer: 0x3000 + uint64(cb), Records: make([]wire.Record, streamPerMessage)}
		per := max(groups/streamCmdBufs, 1) // each command buffer's groups
		for j := range e.Records {
			g := (m/streamCmdBufs*streamPerMessage + j) % per
			e.Records[j] = wire.Record{Check: "descriptor_index_oob", Code: 1, ShaderID: 1 + uint32(g%7), Instruction: 100 + uint32(g/7%50),
				Stage: 5, StageWords: [3]uint32{uint32(j), 0, 0}, ActionIndex: uint32(g / 350), Action: "vkCmdDispatch",
				Pipeline: 0x2000 + uint64(g%7), Params: []uint32{0, 0, 8, 8, 0, 0, 0}, Count: 1}
		}
		if k == wire.KindErrorsPacked {
			frames = append(frames, wire.AppendPackedErrors(nil, &e))
			continue
		}
		f, err := wire.Encode(k, &e)
		if err != nil {
			tb.Fatal(err)
		}
		frames = append(frames, f[wire.HeaderSize:])
	}
	return frames
}

// keyAt is a key press stamped with the time it was sent.
type keyAt struct {
	msg tea.KeyPressMsg
	at  time.Time
}

// timed wraps the model: it measures, for every keyAt, the time from its
// sending to the end of the View that shows its effect — what the user
// waits for, queueing behind updates included.
type timed struct {
	*Model
	mu      sync.Mutex
	pending []time.Time
	lat     []time.Duration
}

func (t *timed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(keyAt); ok {
		t.mu.Lock()
		t.pending = append(t.pending, k.at)
		t.mu.Unlock()
		msg = k.msg
	}
	_, cmd := t.Model.Update(msg)
	return t, cmd
}

func (t *timed) View() tea.View {
	v := t.Model.View()
	t.mu.Lock()
	for _, at := range t.pending {
		t.lat = append(t.lat, time.Since(at))
	}
	t.pending = t.pending[:0]
	t.mu.Unlock()
	return v
}

// BenchmarkKeyLatencyStreaming runs the real program (Bubble Tea's event
// loop, output discarded) on a live collector while 1.3M records stream
// into it as fast as it takes them (packed, as the layer sends them, or
// JSON), and presses j or k every 20 ms. It reports the key latency
// (sending to drawn) at the median, the 95th percentile and the worst, and
// how long the stream took. The target is under 50 ms.
func BenchmarkKeyLatencyStreaming(b *testing.B) {
	for _, c := range []struct {
		groups int
		kind   wire.Kind
		name   string
	}{{1000, wire.KindErrorsPacked, "packed"}, {250_000, wire.KindErrorsPacked, "packed"}, {1000, wire.KindErrors, "json"},
		{250_000, wire.KindErrors, "json"}} {
		b.Run(fmt.Sprintf("groups=%d/frames=%s", c.groups, c.name), func(b *testing.B) {
			frames := streamFrames(b, c.groups, c.kind)
			for range b.N {
				lat, took := streamOnce(b, frames, c.kind)
				slices.Sort(lat)
				q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
				b.ReportMetric(q(0.5), "p50-ms")
				b.ReportMetric(q(0.95), "p95-ms")
				b.ReportMetric(q(1), "max-ms")
				b.ReportMetric(float64(len(lat)), "keys")
				b.ReportMetric(took.Seconds(), "stream-s")
			}
		})
	}
}

// streamOnce runs one stream and returns the key latencies and how long
// the stream took.
func streamOnce(b *testing.B, frames [][]byte, k wire.Kind) ([]time.Duration, time.Duration) {
	src := newCollectorSource()
	_ = src.col.Record(wire.KindAppStarted, &wire.AppStarted{Path: "/bin/app", PID: 7, Time: time.Now(),
		Settings: wire.Settings{Checks: map[string]bool{"descriptor_index_oob": true}}})
	t := &timed{Model: New(src, Options{Theme: "dark", NoColor: true})}
	p := tea.NewProgram(t, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(200, 50),
		tea.WithoutSignalHandler(), tea.WithColorProfile(colorprofile.ASCII))
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := p.Run(); err != nil {
			b.Error(err)
		}
	}()
	start := time.Now()
	fed := make(chan struct{})
	go func() {
		defer close(fed)
		for _, f := range frames {
			if err := src.col.RecordFrame(k, f); err != nil {
				b.Error(err)
				return
			}
		}
	}()
	keys := []tea.KeyPressMsg{{Code: 'j', Text: "j"}, {Code: 'k', Text: "k"}}
	tick := time.NewTicker(20 * time.Millisecond)
	for i := 0; ; i++ {
		select {
		case <-fed:
		case <-tick.C:
			p.Send(keyAt{msg: keys[i%2], at: time.Now()})
			continue
		}
		break
	}
	took := time.Since(start)
	tick.Stop()
	time.Sleep(100 * time.Millisecond) // the last keys drawn
	p.Quit()
	<-done
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.lat) == 0 {
		b.Fatal("no key was drawn")
	}
	return t.lat, took
}

// Snapshots of a live run come no faster than the pace: at least
// MinSnapshotInterval apart, and twice what the last one cost.
func TestSnapshotPace(t *testing.T) {
	if got := pace(10*time.Millisecond, 5*time.Millisecond); got != MinSnapshotInterval {
		t.Errorf("pace(10ms, 5ms) = %v", got)
	}
	if got := pace(80*time.Millisecond, 20*time.Millisecond); got != 200*time.Millisecond {
		t.Errorf("pace(80ms, 20ms) = %v", got)
	}
	src := newCollectorSource()
	m := New(src, Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	_, cmd := m.Update(snapshotMsg{run: 0, s: src.Snapshot(), took: 150 * time.Millisecond})
	if wait := time.Until(m.runs[0].next); wait < 250*time.Millisecond {
		t.Fatalf("next snapshot in %v, want ≥ 300ms less the time since", wait)
	}
	start := time.Now()
	_ = src.col.Record(wire.KindAppExited, &wire.AppExited{State: "exited", Time: time.Now()})
	got := cmd() // the listener alone: the app is not live, no spinner
	if sm, ok := got.(snapshotMsg); !ok || sm.s.App.State != session.AppExited {
		t.Fatalf("listener gave %T %+v", got, got)
	}
	if el := time.Since(start); el < 250*time.Millisecond {
		t.Fatalf("the snapshot came after %v, before the pace", el)
	}
}

// The records of a snapshot are counted from the last one's: groups it
// shares add nothing, groups copied again add their growth, new groups
// their count, and a session with fewer groups (another run) subtracts.
func TestRecount(t *testing.T) {
	g := func(n int) *session.ErrorGroup { return &session.ErrorGroup{Count: n} }
	a, b, c := g(1), g(2), g(4)
	s1 := &session.Session{Groups: []*session.ErrorGroup{a, b}}
	for _, tt := range []struct {
		name string
		prev *session.Session
		s    *session.Session
		want int
	}{
		{"first", nil, s1, 3},
		{"same", s1, s1, 3},
		{"grown and new", s1, &session.Session{Groups: []*session.ErrorGroup{a, g(7), c}}, 12},
		{"fewer", s1, &session.Session{Groups: []*session.ErrorGroup{g(5)}}, 5},
		{"empty", s1, &session.Session{}, 0},
	} {
		before := 0
		if tt.prev != nil {
			for _, g := range tt.prev.Groups {
				before += g.Count
			}
		}
		if got := recount(before, tt.prev, tt.s); got != tt.want {
			t.Errorf("%s: %d records, want %d", tt.name, got, tt.want)
		}
	}
}
