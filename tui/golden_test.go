package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/sourcemap"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

// Sizes every screen is pinned at: the ordinary terminal and a large one.
var goldenSizes = [][2]int{{80, 24}, {200, 50}}

// screenCase is one screen of the TUI, reached from a session by keys.
type screenCase struct {
	name string
	// session is the run shown (nil: the fixture).
	session func(t *testing.T) *session.Session
	// rerun, when set, makes re-runs possible; the second run is its next.
	rerun *rerunner
	// cont gives the UI a launcher that continues a paused app.
	cont bool
	keys []string
	// want are texts the screen must show at every size.
	want []string
}

// longOutput is the fixture with an output line wider than 80 columns.
func longOutput(*testing.T) *session.Session {
	s := withOutput()
	s.Output = append(s.Output, session.OutputLine{Stream: "stdout",
		Text: "demo: frame 7: dispatched 64 workgroups of 64 invocations over 4 buffers of 4096 bytes, 2 descriptor sets, 11 pipelines"})
	return s
}

// noLineInfo is the SPIR-V session whose compute group, instruction 97 (an
// OpAccessChain in main, line 148 of the disassembly), has no line
// information: the source map gave its SPIR-V instruction as the text.
func noLineInfo(t *testing.T) *session.Session {
	s := spirvSession(t)
	g := s.Groups[0]
	g.Instruction = 97
	g.Source = &session.Source{Text: "%38 = OpAccessChain %_ptr_Input_uint %gl_GlobalInvocationID %uint_0",
		Language: sourcemap.LanguageSPIRV, Note: "no line information for this instruction (compile the shader with -g or -gVS); showing the SPIR-V instruction"}
	return s
}

var screenCases = []screenCase{
	{name: "main", want: []string{"Errors by command buffer (2 groups)", "▶  9 │     outs[pc.idx].v[i] = i * 3u;", "2 groups · 68 records"}},
	{name: "main_detail", keys: []string{"tab"}, want: []string{"Descriptor  set 0, binding 0, index 3, array length 2"}},
	{name: "main_source_fragment", keys: []string{"n", "enter"}, want: []string{"Source oob_fragment.frag:9:13",
		"▶ 9 │     color = texture(tex[pc.tex_ind], uv);"}},
	{name: "by_source", keys: []string{"3"}, want: []string{"Errors by source (2 groups)", "#0 vkCmdDraw · cmdbuf 0x000055d5c3a1c9e0"}},
	{name: "waiting", session: func(*testing.T) *session.Session { return fixture.Empty(session.AppRunning) },
		want: []string{"waiting for errors…", "./oob running (pid 4242)"}},
	{name: "no_errors", session: func(*testing.T) *session.Session { return fixture.Empty(session.AppExited) },
		want: []string{"no validation errors", "./oob exited 0"}},
	{name: "filter_prompt", keys: []string{"/", "f", "r", "a", "g"}, want: []string{"/frag", "1 of 2 groups match",
		"1 of 2 groups · 64 of 68 records"}},
	{name: "filter_no_match", keys: []string{"/", "x", "y", "z", "enter"}, want: []string{"no error group matches /xyz",
		"esc clears it", "no error selected", "0 of 2 groups · 0 of 68 records"}},
	{name: "help", keys: []string{"?"}, want: []string{"Keys (? or esc to close)", "Move", "scroll left (source, log)"}},
	{name: "help_scrolled", keys: []string{"?", "G"}, want: []string{"Runs", "no: keep it running", "previous run"}},
	{name: "log", session: longOutput, keys: []string{"o"}, want: []string{"App output (4 lines, 1 notice)", "err  demo: warning:  slow path",
		"warn shader 3 left uninstrumented"}},
	{name: "log_wrapped", session: longOutput, keys: []string{"o", "w"}, want: []string{"— wrapped", "11 pipelines"}},
	{name: "settings", keys: []string{"s"}, want: []string{"Settings for the next run", "› [x] descriptor_index_oob",
		"re-run is not available here"}},
	{name: "compare", rerun: &rerunner{next: fixture.SecondRun}, keys: []string{"r", "c"}, want: []string{
		"run 1 → run 2: 1 new, 1 fixed, 1 changed, 0 same", "run 1  running · checks: descriptor_index_oob · on error: skip",
		"run 2  running · checks: descriptor_index_oob, buffer_oob · on error: skip"}},
	{name: "spirv_no_line_info", session: noLineInfo, want: []string{"No line information: compile the shader with -g",
		"SPIR-V shader-1.spvasm:148 · instruction 97", "▶ 148 │          %38 = OpAccessChain"}},
	{name: "spirv_toggled", session: spirvSession, keys: []string{"n", "d"}, want: []string{
		"disassemble shader 2: the session holds no SPIR-V for it"}},
	{name: "printf", session: printfSession, keys: []string{"p"}, want: []string{"printf (2 calls, 24 lines, 5 lost)",
		`cmd 0x55 "compute-cmd"`, `shaders/printf.comp:8 "invocation %v3u local %u" ×8`, "Distinct texts",
		"submit 1  (0,0,0)  invocation 0, 0, 0 local 0"}},
	{name: "printf_at", session: printfSession, keys: []string{"p", "j", "/", "ctrl+u", "p", "i", "x", "e", "l", "=", "2", ",", "1", "enter"},
		want: []string{"— at pixel=2,1", "Lines at pixel=2,1 (1 of 16)", "submit 2  (2.5,1.5)  pixel 2.500000, 1.500000 is %s",
			"not the Khronos layer's text: a conversion printf cannot print"}},
	{name: "printf_bad_filter", session: printfSession, keys: []string{"p", "/", "t", "=", "1", "enter"},
		want: []string{"at: t=1", `unknown name "t"`}},
	{name: "printf_none", keys: []string{"p"}, want: []string{"no printf lines in this run"}},
	{name: "paused", session: pausedSession, cont: true, want: []string{"paused at the first error — c continues",
		"c continue", "Errors by command buffer (2 groups)"}},
	{name: "confirm_rerun", rerun: &rerunner{next: fixture.SecondRun, live: true}, keys: []string{"r"}, want: []string{
		"The app is still running (./oob, pid 4242).", "y/enter stop it and re-run", "n/esc keep it running"}},
}

func printfSession(*testing.T) *session.Session { return fixture.PrintfSession() }

// TestScreens pins every screen at 80×24 and 200×50: exactly the size,
// the texts that matter present, the rest in golden files.
func TestScreens(t *testing.T) {
	for _, tc := range screenCases {
		for _, sz := range goldenSizes {
			t.Run(fmt.Sprintf("%s_%dx%d", tc.name, sz[0], sz[1]), func(t *testing.T) {
				m := screenModel(t, tc, sz[0], sz[1])
				out := view(m)
				checkSize(t, out, sz[0], sz[1])
				plain := ansi.Strip(out)
				for _, w := range tc.want {
					if !strings.Contains(plain, w) {
						t.Errorf("screen lacks %q:\n%s", w, plain)
					}
				}
				fixture.Golden(t, out)
			})
		}
	}
}

// screenModel is tc's model at w×h after its keys; a re-run's command runs
// at once, as the program would run it.
func screenModel(t *testing.T, tc screenCase, w, h int) *Model {
	t.Helper()
	s := fixture.Session()
	if tc.session != nil {
		s = tc.session(t)
	}
	var o Options
	if tc.rerun != nil {
		rr := &rerunner{next: tc.rerun.next, live: tc.rerun.live}
		o.Rerun = rr
	}
	if tc.cont {
		o.Continue = func() bool { return true }
	}
	m := newModelWith(s, w, h, o)
	for _, k := range tc.keys {
		_, cmd := m.Update(keyMsg(k))
		if k == "r" && cmd != nil {
			m.Update(cmd())
		}
	}
	return m
}
