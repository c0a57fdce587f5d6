package session

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// hangMessage is a watchdog's hang of one command buffer of 5 actions:
// 0-1 completed, 2 running, 3-4 not started.
func hangMessage() *wire.Hang {
	return &wire.Hang{Reason: wire.HangWatchdog, WatchdogSeconds: 2, Submits: []wire.HangSubmit{{
		Queue: 0x10, Submit: 7, PendingSeconds: 2.5,
		CommandBuffers: []wire.HangCB{{Handle: 0xc0, Actions: 5, Markers: true, Completed: 2, RunningFrom: 2, RunningTo: 3,
			Begun: 3, Ended: 2, Records: 4, Shown: []wire.HangAction{
				{Index: 1, Command: "vkCmdDispatch", Pipeline: 0x99, Labels: []string{"setup"}, State: wire.ActionCompleted},
				{Index: 2, Command: "vkCmdDispatch", Pipeline: 0x99, Labels: []string{"frame", "spin"}, State: wire.ActionRunning},
				{Index: 3, Command: "vkCmdDispatch", State: wire.ActionNotStarted},
			}}},
	}}}
}

// TestCollectorHang: a hang group is kept with the command buffer's name,
// what its breadcrumbs say in a line, and an error notice; its lines
// name each action with its state and label path; Short is the status
// bar's.
func TestCollectorHang(t *testing.T) {
	c := newTestCollector()
	if err := c.Record(wire.KindName, &wire.Name{Handle: 0xc0, ObjectType: "command_buffer", Name: "frame-cb"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Record(wire.KindHang, hangMessage()); err != nil {
		t.Fatal(err)
	}
	s := c.Snapshot()
	if len(s.Hangs) != 1 {
		t.Fatalf("%d hangs", len(s.Hangs))
	}
	h := s.Hangs[0]
	want := []string{
		"GPU hang (no progress for the watchdog's 2 s)",
		"  submit 7 on queue 0x10, pending 2.5 s",
		`    command buffer 0xc0 ("frame-cb"): actions 0-1 completed, 2 running, 3-4 not started`,
		`      completed   #1 vkCmdDispatch in "setup" pipeline 0x99`,
		`      running     #2 vkCmdDispatch in "frame > spin" pipeline 0x99`,
		"      not started #3 vkCmdDispatch",
		"      4 records of its completed actions reached memory (in the errors)",
	}
	if got := h.Lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got, want := h.Short(), "GPU HANG: #2 vkCmdDispatch frame > spin running"; got != want {
		t.Errorf("Short %q, want %q", got, want)
	}
	n := s.Notices[len(s.Notices)-1]
	if n.Level != "error" || !strings.Contains(n.Text, `submit 7, command buffer 0xc0 ("frame-cb"): actions 0-1 completed, 2 running`) {
		t.Errorf("notice %+v", n)
	}
	if got := (Hang{Reason: wire.HangDeviceLost, Call: "vkQueueSubmit"}).Title(); got != "device lost (vkQueueSubmit returned VK_ERROR_DEVICE_LOST)" {
		t.Errorf("title %q", got)
	}
}

// TestCollectorHangRegion: with pass granularity a hang names the region
// running, not one action: its summary says one or more of its actions is
// running, its lines say how exact the breadcrumbs are and how to have
// each action marked, and Short names the region's range; an action
// granularity's render pass says it is marked as a whole.
func TestCollectorHangRegion(t *testing.T) {
	c := newTestCollector()
	m := &wire.Hang{Reason: wire.HangWatchdog, WatchdogSeconds: 2, Granularity: wire.BreadcrumbsPasses,
		Submits: []wire.HangSubmit{{Queue: 0x10, Submit: 7, PendingSeconds: 2.5, CommandBuffers: []wire.HangCB{{
			Handle: 0xc0, Actions: 1000, Markers: true, Completed: 3, RunningFrom: 3, RunningTo: 999, Region: true,
			Begun: 4 | 0x80000000, Ended: 3, Shown: []wire.HangAction{
				{Index: 2, Command: "vkCmdDispatch", State: wire.ActionCompleted},
				{Index: 3, Command: "vkCmdDispatch", State: wire.ActionRunning},
				{Index: 999, Command: "vkCmdDispatch", State: wire.ActionNotStarted},
			}}}}}}
	if err := c.Record(wire.KindHang, m); err != nil {
		t.Fatal(err)
	}
	h := c.Snapshot().Hangs[0]
	want := []string{
		"GPU hang (no progress for the watchdog's 2 s)",
		"  breadcrumbs per region, not per action (each render pass, and the actions between passes: the default on a " +
			"GPU, where a marker between two dispatches serializes them): a region's " +
			"actions not completed read as running, and one or more of them is; --breadcrumbs actions " +
			"(VK_LAYER_GPUAV_DBG_BREADCRUMBS=actions) marks each action, at a few microseconds per action on such a GPU",
		"  submit 7 on queue 0x10, pending 2.5 s",
		"    command buffer 0xc0: actions 0-2 completed, one or more of actions 3-998 running (one region, not marked " +
			"per action), 999 not started",
		"      completed   #2 vkCmdDispatch",
		"      in region   #3 vkCmdDispatch",
		"      not started #999 vkCmdDispatch",
	}
	if got := h.Lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if h.Granularity != "passes" || !h.Submits[0].CommandBuffers[0].Region {
		t.Errorf("granularity %q, region %v", h.Granularity, h.Submits[0].CommandBuffers[0].Region)
	}
	if got, want := h.Short(), "GPU HANG: region #3-#998 running"; got != want {
		t.Errorf("Short %q, want %q", got, want)
	}
	h.Granularity = wire.BreadcrumbsActions
	if got, want := h.Lines()[1], "  a render pass is marked as a whole: its actions not completed read as running, and "+
		"one or more of them is"; got != want {
		t.Errorf("actions' pass: line %q, want %q", got, want)
	}
	// A region of one action is that action.
	one := wire.HangCB{Actions: 3, Markers: true, Completed: 1, RunningFrom: 1, RunningTo: 2, Region: true}
	if got, want := wire.HangCBSummary(one), "actions 0 completed, 1 running, 2 not started"; got != want {
		t.Errorf("a region of one: %q, want %q", got, want)
	}
}

// faultHang is a lost device whose fault has a data address in a live
// buffer, one in a destroyed buffer, an instruction pointer, an address
// no buffer held, a vendor fault, and more addresses than it lists.
func faultHang() *wire.Hang {
	return &wire.Hang{Reason: wire.HangDeviceLost, Call: "vkWaitForFences", WatchdogSeconds: 10,
		Submits: []wire.HangSubmit{{Queue: 0x10, Submit: 2, Finished: true}},
		Fault: &wire.HangFault{Description: "page fault", AddressesTotal: 5, VendorsTotal: 1, VendorBinarySize: 512,
			Addresses: []wire.FaultAddress{
				{Type: "read_invalid", Address: 0x1018, Precision: 16, Low: 0x1010, High: 0x101f, BuffersTotal: 1,
					Buffers: []wire.FaultBuffer{{Handle: 0xb1, Name: "live", Address: 0x1000, Size: 4096, Live: true}}},
				{Type: "write_invalid", Address: 0x2040, Precision: 1, Low: 0x2040, High: 0x2040, BuffersTotal: 6,
					Buffers: []wire.FaultBuffer{{Handle: 0xb2, Name: "gone", Address: 0x2000, Size: 256, CreatedAfter: 1,
						DestroyedAfter: 3}}},
				{Type: "instruction_pointer_fault", Address: 0x5000, Precision: 4, Low: 0x5000, High: 0x5003},
				{Type: "read_invalid", Address: 0x8, Precision: 1, Low: 0x8, High: 0x8},
			},
			Vendors: []wire.FaultVendor{{Description: "mmu", Code: 0x12, Data: 0x34}}}}
}

// TestCollectorHangFault: a lost device's fault is kept with the hang
// (hex addresses, the buffers with their names, live or destroyed and
// when), its lines say each address, where it lay in which buffer, or why
// no buffer is named, the vendor fault and what was not read; the notice
// says it too.
func TestCollectorHangFault(t *testing.T) {
	c := newTestCollector()
	if err := c.Record(wire.KindHang, faultHang()); err != nil {
		t.Fatal(err)
	}
	s := c.Snapshot()
	h := s.Hangs[0]
	want := []string{
		"device lost (vkWaitForFences returned VK_ERROR_DEVICE_LOST)",
		"  submit 2 on queue 0x10, pending 0.0 s, its fence signalled",
		`  device fault (VK_EXT_device_fault, the driver's report): "page fault"`,
		`    read_invalid at 0x1018 (precision 16: 0x1010-0x101f): in buffer 0xb1 ("live") [0x1000, +4096) at offset ` +
			`0x10, live, created before the first submit`,
		`    write_invalid at 0x2040: in freed buffer 0xb2 ("gone") [0x2000, +256) at offset 0x40, created after ` +
			`submit 1, destroyed after submit 3; 5 more buffers`,
		"    instruction_pointer_fault at 0x5000 (precision 4: 0x5000-0x5003): an instruction pointer, not matched to a buffer",
		"    read_invalid at 0x8: no buffer whose device address the app obtained held it",
		"    1 more fault addresses not read",
		`    vendor fault code 0x12 data 0x34: "mmu"`,
		"    a vendor binary dump of 512 bytes, not read",
	}
	if got := h.Lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	b, err := json.Marshal(h.Fault)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"address":"0x1018"`, `"low":"0x1010"`, `"high":"0x101f"`,
		`"buffer":{"handle":"0xb2","name":"gone"}`, `"live":false`, `"destroyed_after_submit":3`, `"addresses_total":5`} {
		if !bytes.Contains(b, []byte(k)) {
			t.Errorf("the report's fault has no %s\n%s", k, b)
		}
	}
	if got, want := h.Short(), `DEVICE LOST: read_invalid in buffer 0xb1 ("live")`; got != want {
		t.Errorf("Short %q, want %q", got, want)
	}
	h.Fault.Addresses = h.Fault.Addresses[1:]
	if got, want := h.Short(), `DEVICE LOST: write_invalid in freed buffer 0xb2 ("gone")`; got != want {
		t.Errorf("Short %q, want %q", got, want)
	}
	if n := s.Notices[len(s.Notices)-1]; !strings.Contains(n.Text, `; read_invalid at 0x1018 (precision 16: 0x1010-0x101f): in buffer 0xb1 ("live")`) {
		t.Errorf("notice %q", n.Text)
	}
}

// TestValidateHang: a hang whose numbers do not add up, or whose reason
// or state is unknown, is rejected.
func TestValidateHang(t *testing.T) {
	if err := validate(hangMessage()); err != nil {
		t.Fatalf("valid hang: %v", err)
	}
	for name, edit := range map[string]func(h *wire.Hang){
		"reason":    func(h *wire.Hang) { h.Reason = "nap" },
		"completed": func(h *wire.Hang) { h.Submits[0].CommandBuffers[0].Completed = 6 },
		"running":   func(h *wire.Hang) { h.Submits[0].CommandBuffers[0].RunningFrom = 4 },
		"past":      func(h *wire.Hang) { h.Submits[0].CommandBuffers[0].RunningTo = 9 },
		"state":     func(h *wire.Hang) { h.Submits[0].CommandBuffers[0].Shown[0].State = "asleep" },
		"records":   func(h *wire.Hang) { h.Submits[0].CommandBuffers[0].Records = -1 },
		"submit":    func(h *wire.Hang) { h.Submits[0].Submit = MaxSubmit + 1 },
		"grain":     func(h *wire.Hang) { h.Granularity = "draws" },
		"fault":     func(h *wire.Hang) { h.Fault = faultHang().Fault }, // a watchdog's
	} {
		h := hangMessage()
		edit(h)
		if validate(h) == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := validate(faultHang()); err != nil {
		t.Fatalf("valid fault: %v", err)
	}
	unknown := faultHang()
	unknown.Fault.Addresses[3].Type = wire.FaultAddressUnknown // a newer driver's type
	if err := validate(unknown); err != nil {
		t.Fatalf("a fault address of an unknown type: %v", err)
	}
	lines := (Hang{Reason: wire.HangDeviceLost, Fault: hangFault(unknown.Fault)}).Lines()
	if want := "    unknown at 0x8: not a data address, not matched to a buffer"; !slices.Contains(lines, want) {
		t.Errorf("unknown type: %q, want %q in them", lines, want)
	}
	for name, edit := range map[string]func(f *wire.HangFault){
		"type":      func(f *wire.HangFault) { f.Addresses[0].Type = "bad" },
		"range":     func(f *wire.HangFault) { f.Addresses[0].Low = 0x1020 },
		"total":     func(f *wire.HangFault) { f.AddressesTotal = 3 },
		"vendors":   func(f *wire.HangFault) { f.VendorsTotal = 0 },
		"buffers":   func(f *wire.HangFault) { f.Addresses[0].BuffersTotal = 0 },
		"away":      func(f *wire.HangFault) { f.Addresses[0].Buffers[0].Address = 0x3000 },
		"empty":     func(f *wire.HangFault) { f.Addresses[0].Buffers[0].Size = 0 },
		"destroyed": func(f *wire.HangFault) { f.Addresses[1].Buffers[0].DestroyedAfter = 0 },
		"long":      func(f *wire.HangFault) { f.Description = strings.Repeat("x", maxString+1) },
	} {
		h := faultHang()
		edit(h.Fault)
		if validate(h) == nil {
			t.Errorf("fault %s: accepted", name)
		}
	}
}

// TestCollectorHangFinished: a watchdog's hang whose submission finishes
// after all becomes a slow submission: the hang marked finished with its
// time, its notice a warning that says "slow", its lines and status-bar
// text no "GPU hang", and the session no longer hung (exit 5 is for hangs
// that never finished). A snapshot taken before keeps the hang as it was.
// A lost device stays hung whatever its submissions did, and a finish no
// hang named is a notice.
func TestCollectorHangFinished(t *testing.T) {
	c := newTestCollector()
	if err := c.Record(wire.KindHang, hangMessage()); err != nil {
		t.Fatal(err)
	}
	before := c.Snapshot()
	if !before.Hung() || before.Hangs[0].Slow() {
		t.Fatalf("an unfinished hang: hung %v, slow %v", before.Hung(), before.Hangs[0].Slow())
	}
	// Another queue's submission of the same number is another one.
	if err := c.Record(wire.KindHangFinished, &wire.HangFinished{Queue: 0x11, Submit: 7, Seconds: 3}); err != nil {
		t.Fatal(err)
	}
	if err := c.Record(wire.KindHangFinished, &wire.HangFinished{Queue: 0x10, Submit: 7, Seconds: 11.25}); err != nil {
		t.Fatal(err)
	}
	s := c.Snapshot()
	h := s.Hangs[0]
	if s.Hung() || !h.Slow() || !h.Finished || h.Seconds != 11.25 || !h.Submits[0].Finished || h.Submits[0].Seconds != 11.25 {
		t.Fatalf("after the finish: hung %v, hang %+v", s.Hung(), h)
	}
	title := "slow: submission 7 on queue 0x10 made no progress for 2 s, then finished after 11.2 s"
	want := []string{
		title,
		"  submit 7 on queue 0x10, pending 2.5 s, finished after 11.2 s",
		"    command buffer 0xc0: actions 0-1 completed, 2 running, 3-4 not started",
		`      completed   #1 vkCmdDispatch in "setup" pipeline 0x99`,
		`      running     #2 vkCmdDispatch in "frame > spin" pipeline 0x99`,
		"      not started #3 vkCmdDispatch",
		"      4 records of its completed actions reached memory (in the errors)",
	}
	if got := h.Lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := h.Short(); got != "slow submit 7: 11.2 s" {
		t.Errorf("Short %q", got)
	}
	var notices []string
	for _, n := range s.Notices {
		notices = append(notices, n.Level+": "+n.Text)
	}
	wantNotices := []string{
		"warning: " + title + "; when reported, submit 7, command buffer 0xc0: actions 0-1 completed, 2 running, 3-4 not started",
		"warning: submit 7 on queue 0x11 finished after 3.0 s, but no hang named it",
	}
	if !slices.Equal(notices, wantNotices) {
		t.Errorf("notices\n%s\nwant\n%s", strings.Join(notices, "\n"), strings.Join(wantNotices, "\n"))
	}
	// The snapshot before is untouched.
	if b := before.Hangs[0]; b.Finished || b.Submits[0].Finished || before.Notices[0].Level != "error" ||
		!strings.HasPrefix(b.Title(), "GPU hang") {
		t.Errorf("the earlier snapshot changed: %+v, notice %+v", b, before.Notices[0])
	}
	// Told twice: once is enough.
	if err := c.Record(wire.KindHangFinished, &wire.HangFinished{Queue: 0x10, Submit: 7, Seconds: 12}); err != nil {
		t.Fatal(err)
	}
	if s := c.Snapshot(); s.Hangs[0].Seconds != 11.25 || len(s.Notices) != 2 {
		t.Errorf("a second finish: seconds %g, %d notices", s.Hangs[0].Seconds, len(s.Notices))
	}

	// A hang of two submissions is a hang until both finished.
	c = newTestCollector()
	m := hangMessage()
	m.Submits = append(m.Submits, wire.HangSubmit{Queue: 0x10, Submit: 8, PendingSeconds: 0.5})
	if err := c.Record(wire.KindHang, m); err != nil {
		t.Fatal(err)
	}
	if err := c.Record(wire.KindHangFinished, &wire.HangFinished{Queue: 0x10, Submit: 7, Seconds: 4}); err != nil {
		t.Fatal(err)
	}
	if s := c.Snapshot(); !s.Hung() || s.Notices[0].Level != "error" || !strings.HasPrefix(s.Hangs[0].Title(), "GPU hang") {
		t.Errorf("one of two finished: hung %v, notice %+v", s.Hung(), s.Notices[0])
	}
	if err := c.Record(wire.KindHangFinished, &wire.HangFinished{Queue: 0x10, Submit: 8, Seconds: 5.5}); err != nil {
		t.Fatal(err)
	}
	s = c.Snapshot()
	if want := "slow: 2 submissions made no progress for 2 s, then finished, the last after 5.5 s"; s.Hung() ||
		s.Hangs[0].Title() != want || s.Notices[0].Level != "warning" {
		t.Errorf("both finished: hung %v, title %q, notice %+v", s.Hung(), s.Hangs[0].Title(), s.Notices[0])
	}

	// A lost device is never slow.
	c = newTestCollector()
	m = hangMessage()
	m.Reason, m.Call = wire.HangDeviceLost, "vkWaitForFences"
	if err := c.Record(wire.KindHang, m); err != nil {
		t.Fatal(err)
	}
	if err := c.Record(wire.KindHangFinished, &wire.HangFinished{Queue: 0x10, Submit: 7, Seconds: 4}); err != nil {
		t.Fatal(err)
	}
	if s := c.Snapshot(); !s.Hung() || s.Hangs[0].Slow() || s.Hangs[0].Submits[0].Finished {
		t.Errorf("lost device: hung %v, hang %+v", s.Hung(), s.Hangs[0])
	}
}

// TestValidateHangFinished: a finish of an impossible submit or time is
// rejected.
func TestValidateHangFinished(t *testing.T) {
	if err := validate(&wire.HangFinished{Queue: 1, Submit: 7, Seconds: 11}); err != nil {
		t.Fatalf("valid: %v", err)
	}
	for _, m := range []*wire.HangFinished{
		{Submit: MaxSubmit + 1, Seconds: 1},
		{Submit: 1, Seconds: -1},
		{Submit: 1, Seconds: math.NaN()},
		{Submit: 1, Seconds: math.Inf(1)},
	} {
		if validate(m) == nil {
			t.Errorf("%+v accepted", m)
		}
	}
}

// TestReportsSlowHang: the JSON report marks a slow submission's hang
// finished with its time, and SARIF has its notice as a warning
// notification (no error one), the hang in the run's properties.
func TestReportsSlowHang(t *testing.T) {
	c := newTestCollector()
	if err := c.Record(wire.KindHang, hangMessage()); err != nil {
		t.Fatal(err)
	}
	if err := c.Record(wire.KindHangFinished, &wire.HangFinished{Queue: 0x10, Submit: 7, Seconds: 11.25}); err != nil {
		t.Fatal(err)
	}
	s := c.Snapshot()
	var rep bytes.Buffer
	if err := WriteReport(&rep, s); err != nil {
		t.Fatal(err)
	}
	var r struct {
		Hangs []struct {
			Reason   string  `json:"reason"`
			Finished bool    `json:"finished"`
			Seconds  float64 `json:"seconds"`
			Submits  []struct {
				Submit   uint64  `json:"submit"`
				Finished bool    `json:"finished"`
				Seconds  float64 `json:"seconds"`
			} `json:"submits"`
		} `json:"hangs"`
	}
	if err := json.Unmarshal(rep.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Hangs) != 1 || !r.Hangs[0].Finished || r.Hangs[0].Seconds != 11.25 || len(r.Hangs[0].Submits) != 1 ||
		!r.Hangs[0].Submits[0].Finished || r.Hangs[0].Submits[0].Seconds != 11.25 {
		t.Errorf("report hangs %+v", r.Hangs)
	}
	var sarif bytes.Buffer
	if err := WriteSARIF(&sarif, s); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Invocations []struct {
				Notifications []struct {
					Level   string `json:"level"`
					Message struct {
						Text string `json:"text"`
					} `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
			Properties struct {
				Hangs []struct {
					Finished bool `json:"finished"`
				} `json:"hangs"`
			} `json:"properties"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sarif.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	slow := 0
	for _, n := range log.Runs[0].Invocations[0].Notifications {
		if n.Level == "error" {
			t.Errorf("error notification %q", n.Message.Text)
		}
		if n.Level == "warning" && strings.HasPrefix(n.Message.Text, "slow: submission 7 on queue 0x10 made no progress for 2 s") {
			slow++
		}
	}
	if p := log.Runs[0].Properties.Hangs; slow != 1 || len(p) != 1 || !p[0].Finished {
		t.Errorf("%d slow warnings, properties' hangs %+v", slow, p)
	}
}

// TestCollectorBusy: a busy submission is counted down from when its
// clock started (the message's seconds before it arrived) to the
// watchdog's limit, the oldest of several; its finish, a hang naming it,
// or the app's exit ends the countdown; another queue's submission of the
// same number is another one.
func TestCollectorBusy(t *testing.T) {
	c := newTestCollector()
	rec := func(k wire.Kind, m any) {
		t.Helper()
		if err := c.Record(k, m); err != nil {
			t.Fatal(err)
		}
	}
	rec(wire.KindBusy, &wire.Busy{Queue: 0x10, Submit: 7, Seconds: 3.5, WatchdogSeconds: 10})
	rec(wire.KindBusy, &wire.Busy{Queue: 0x10, Submit: 8, Seconds: 3, WatchdogSeconds: 10})
	before := c.Snapshot()
	if got, want := before.BusyText(t0.Add(2500*time.Millisecond)), "GPU busy 6 s — hang reported at 10 s"; got != want {
		t.Errorf("BusyText %q, want %q", got, want)
	}
	rec(wire.KindBusy, &wire.Busy{Queue: 0x11, Submit: 7, Seconds: 4, Done: true})
	rec(wire.KindBusy, &wire.Busy{Queue: 0x10, Submit: 7, Seconds: 4, Done: true})
	if got, want := c.Snapshot().BusyText(t0.Add(2500*time.Millisecond)), "GPU busy 5 s — hang reported at 10 s"; got != want {
		t.Errorf("after submit 7 finished: %q, want %q", got, want)
	}
	if len(before.Busy) != 2 {
		t.Errorf("the earlier snapshot changed: %+v", before.Busy)
	}
	m := hangMessage()
	m.Submits[0].Submit = 8
	rec(wire.KindHang, m)
	if s := c.Snapshot(); len(s.Busy) != 0 || s.BusyText(t0) != "" {
		t.Errorf("after the hang of submit 8: %+v %q", s.Busy, s.BusyText(t0))
	}
	rec(wire.KindBusy, &wire.Busy{Queue: 0x10, Submit: 9, Seconds: 1, WatchdogSeconds: 2})
	rec(wire.KindAppExited, &wire.AppExited{Code: 0})
	if s := c.Snapshot(); len(s.Busy) != 0 {
		t.Errorf("after the app's exit: %+v", s.Busy)
	}
}
