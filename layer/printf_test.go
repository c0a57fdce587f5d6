package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/options"
)

// oneSetting reads the settings with one option given as value, from "X".
func oneSetting(o *options.Option, value string) (Settings, []string) {
	return loadSettings(func(env string) (string, string) {
		if env == o.Env {
			return value, "X"
		}
		return "", env
	})
}

// TestPrintfBufferBytes: the setting's values, bounds and warnings.
func TestPrintfBufferBytes(t *testing.T) {
	tests := []struct {
		in   string
		want uint32
		warn string
	}{
		{"", gpuav.DefaultPrintfBufferBytes, ""},
		{"4096", 4096, ""},
		{"0x10000", 65536, ""},
		{" 2048 ", 2048, ""},
		{"12", gpuav.MinPrintfBufferBytes, "X=12 is below 1024 bytes; using 1024"},
		{"4294967296", gpuav.MaxPrintfBufferBytes, "is above"},
		{"big", gpuav.DefaultPrintfBufferBytes, "is not a number"},
	}
	for _, tc := range tests {
		s, w := oneSetting(options.PrintfBufferBytes, tc.in)
		got, warn := s.PrintfBufferBytes, strings.Join(w, "\n")
		if got != tc.want || (tc.warn == "") != (warn == "") || !strings.Contains(warn, tc.warn) {
			t.Errorf("%q: %d %q, want %d %q", tc.in, got, warn, tc.want, tc.warn)
		}
	}
}

// TestPrintfAtSetting: the filter's text is read in its canonical form; one
// that does not parse prints everything, with a warning that says why.
func TestPrintfAtSetting(t *testing.T) {
	tests := []struct{ in, want, warn string }{
		{"", "", ""},
		{"pixel=(12,7)", "pixel=12,7", ""},
		{"invocation=3,0,0; vertex=5", "invocation=3,0,0 vertex=5", ""},
		{"pixel=12", "", `X: printf filter "pixel=12": pixel takes 2 values; printing every invocation's lines`},
		{"texel=1", "", `unknown name "texel"`},
	}
	for _, tc := range tests {
		s, w := oneSetting(options.PrintfAt, tc.in)
		got, warn := s.PrintfAt, strings.Join(w, "\n")
		if got != tc.want || (tc.warn == "") != (warn == "") || !strings.Contains(warn, tc.warn) {
			t.Errorf("%q: %q %q, want %q %q", tc.in, got, warn, tc.want, tc.warn)
		}
	}
	s, w := LoadSettings(func(k string) string {
		if k == options.PrintfAt.Env {
			return "pixel=4,5"
		}
		return ""
	})
	if s.PrintfAt != "pixel=4,5" || len(w) != 0 {
		t.Errorf("%s=pixel=4,5: settings %q, warnings %q", options.PrintfAt.Env, s.PrintfAt, w)
	}
}

// TestPrintfMessage: a printf line's messenger message is the Khronos
// layer's (1.3.239, as TestPrintfMessengersAsKhronos compares on a device):
// info, validation, its id name and number, the device (with its debug
// name when it has one) and the text after the header.
func TestPrintfMessage(t *testing.T) {
	var m, named outMsg
	withLock(func() {
		m = printfMessageLocked(0xd0, "x = 1.500000")
		state.names[0xd1] = "my gpu"
		named = printfMessageLocked(0xd1, "y")
		delete(state.names, 0xd1)
	})
	want := "Validation Information: [ UNASSIGNED-DEBUG-PRINTF ] Object 0: handle = 0xd0, type = VK_OBJECT_TYPE_DEVICE; " +
		"| MessageID = 0x92394c89 | x = 1.500000"
	if m.severity != sevInfo || m.typ != typeValidation || m.idName != "UNASSIGNED-DEBUG-PRINTF" || m.text != want ||
		len(m.objects) != 1 || m.objects[0] != (object{0xd0, 3, ""}) {
		t.Errorf("message %+v, want text %q", m, want)
	}
	if id := uint32(messengerID(m.idName)); id != 0x92394c89 {
		t.Errorf("id number 0x%x, want 0x92394c89", id)
	}
	if want := "Object 0: handle = 0xd1, name = my gpu, type = VK_OBJECT_TYPE_DEVICE; | MessageID = 0x92394c89 | y"; !strings.HasSuffix(named.text, want) {
		t.Errorf("named device: %q, want it to end %q", named.text, want)
	}
}

// printfBuf builds a printf buffer from lines (shader, site, action, args).
func printfBuf(lost uint32, lines ...[]uint32) []uint32 {
	var data []uint32
	for _, l := range lines {
		data = append(data, uint32(gpuav.PrintfLineHeaderWords+len(l)-3), l[0], l[1], l[2], 5, 1, 2, 3)
		data = append(data, l[3:]...)
	}
	return append([]uint32{uint32(len(data)), lost}, data...)
}

// TestBuildPrintf: lines grouped by action and call site in the order
// they came, attributed to their action, with the call's instruction; the
// lost count travels; lines of unknown sites or wrong lengths are counted.
func TestBuildPrintf(t *testing.T) {
	sites := map[uint32][]gpuav.PrintfSite{
		4: {{ID: 0, Instruction: 40, Words: 1}, {ID: 1, Instruction: 50, Words: 0}},
	}
	cb := SubmittedCB{Handle: 0xc0, Actions: []Action{{Index: 0, Command: "vkCmdDispatch", Pipeline: 0x99}, {Index: 1,
		Command: "vkCmdDraw", Pipeline: 0x98, Labels: []string{"pass"}}},
		PrintfWords: printfBuf(3, []uint32{4, 0, 1, 7}, []uint32{4, 1, 0}, []uint32{4, 0, 1, 8}, []uint32{4, 0, 0, 9},
			[]uint32{5, 0, 0, 1}, []uint32{4, 2, 0}, []uint32{4, 1, 0, 6})}
	msgs, bad := BuildPrintf(11, 22, cb, func(id uint32) []gpuav.PrintfSite { return sites[id] })
	if bad != 3 || len(msgs) != 1 {
		t.Fatalf("%d messages, %d bad; want 1, 3", len(msgs), bad)
	}
	m := msgs[0]
	if m.Submit != 11 || m.Queue != 22 || m.CommandBuffer != 0xc0 || m.Lost != 3 {
		t.Errorf("message %+v", m)
	}
	type site struct {
		action, instruction uint32
		cmd                 string
		args                [][]uint32
	}
	var got []site
	for _, s := range m.Sites {
		if err := s.Check(); err != nil || s.ShaderID != 4 || s.Stage != 5 {
			t.Errorf("site %+v: %v", s, err)
		}
		g := site{action: s.ActionIndex, instruction: s.Instruction, cmd: s.Action}
		for i := range s.Count() {
			args := make([]uint32, s.Args)
			if st := s.Line(i, args); st != [3]uint32{1, 2, 3} {
				t.Errorf("stage words %v", st)
			}
			g.args = append(g.args, args)
		}
		got = append(got, g)
	}
	want := []site{{1, 40, "vkCmdDraw", [][]uint32{{7}, {8}}}, {0, 50, "vkCmdDispatch", [][]uint32{{}}},
		{0, 40, "vkCmdDispatch", [][]uint32{{9}}}}
	if !slices.EqualFunc(got, want, func(a, b site) bool {
		return a.action == b.action && a.instruction == b.instruction && a.cmd == b.cmd &&
			slices.EqualFunc(a.args, b.args, slices.Equal)
	}) {
		t.Errorf("sites %+v\nwant %+v", got, want)
	}
	if m.Sites[0].Pipeline != 0x98 || !slices.Equal(m.Sites[0].Labels, []string{"pass"}) {
		t.Errorf("first site's action: %+v", m.Sites[0])
	}
}

// TestBuildPrintfSplits: a command buffer with more lines than one message
// carries comes in several, every line once, the lost count in the first.
func TestBuildPrintfSplits(t *testing.T) {
	n := printfLinesPerMessage + 10
	lines := make([][]uint32, n)
	for i := range lines {
		lines[i] = []uint32{1, 0, 0, uint32(i)}
	}
	cb := SubmittedCB{PrintfWords: printfBuf(2, lines...)}
	msgs, bad := BuildPrintf(1, 1, cb, func(uint32) []gpuav.PrintfSite { return []gpuav.PrintfSite{{Words: 1}} })
	if bad != 0 || len(msgs) != 2 || msgs[0].Lost != 2 || msgs[1].Lost != 0 ||
		msgs[0].Sites[0].Count() != printfLinesPerMessage || msgs[1].Sites[0].Count() != 10 {
		t.Fatalf("%d messages, bad %d", len(msgs), bad)
	}
	args := []uint32{0}
	msgs[1].Sites[0].Line(9, args)
	if args[0] != uint32(n-1) {
		t.Errorf("last line's word %d, want %d", args[0], n-1)
	}
}

// BenchmarkBuildPrintfMillionLines: the layer's side of printing from
// every invocation of a 1M-invocation dispatch: a printf buffer of
// 1,048,576 lines of two argument words decoded, grouped and packed into
// messages; lines per second.
func BenchmarkBuildPrintfMillionLines(b *testing.B) {
	const n = 1 << 20
	data := make([]uint32, 0, n*(gpuav.PrintfLineHeaderWords+2))
	for i := range uint32(n) {
		data = append(data, gpuav.PrintfLineHeaderWords+2, 1, 0, 0, 5, i%1024, i/1024, 0, i, 4)
	}
	cb := SubmittedCB{Actions: []Action{{Command: "vkCmdDispatch"}},
		PrintfWords: append([]uint32{uint32(len(data)), 0}, data...)}
	sites := []gpuav.PrintfSite{{Words: 2, Instruction: 30}}
	for b.Loop() {
		msgs, bad := BuildPrintf(1, 1, cb, func(uint32) []gpuav.PrintfSite { return sites })
		if bad != 0 || len(msgs) != n/printfLinesPerMessage {
			b.Fatalf("%d messages, %d bad", len(msgs), bad)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/line")
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// TestBuildPrintfSplitsBytes: lines of 1024 argument words fill a message
// by its bytes first: 16 MiB holds 4084 of them.
func TestBuildPrintfSplitsBytes(t *testing.T) {
	const words, n = 1024, 5000
	line := make([]uint32, 3+words)
	line[0] = 1
	lines := make([][]uint32, n)
	for i := range lines {
		lines[i] = line
	}
	cb := SubmittedCB{PrintfWords: printfBuf(0, lines...)}
	msgs, bad := BuildPrintf(1, 1, cb, func(uint32) []gpuav.PrintfSite { return []gpuav.PrintfSite{{Words: words}} })
	per := printfBytesPerMessage / (4 * (3 + words))
	if bad != 0 || len(msgs) != 2 || msgs[0].Sites[0].Count() != per || msgs[1].Sites[0].Count() != n-per {
		t.Fatalf("%d messages, bad %d", len(msgs), bad)
	}
}
