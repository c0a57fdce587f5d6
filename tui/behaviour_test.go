package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
	"github.com/gpuav-dbg/gpuav-dbg/tui/internal/fixture"
)

// At 80×24 the panes stack, as wide as the terminal; the focused one is
// the tallest, and a tree shorter than its share leaves the rest to the
// source. At 200×50 the tree gets the width its rows need.
func TestLayout(t *testing.T) {
	m := newModel(fixture.Session(), 80, 24)
	heights := func() [3]int { return [3]int{m.lay.list.h, m.lay.detail.h, m.lay.source.h} }
	for _, step := range []struct {
		key  string
		want [3]int
	}{
		{"", [3]int{10, 5, 7}}, // the tree's 8 rows and its frame; the rest to the source
		{"tab", [3]int{6, 10, 6}},
		{"tab", [3]int{6, 5, 11}},
	} {
		if step.key != "" {
			press(m, step.key)
		}
		if got := heights(); got != step.want {
			t.Errorf("after %q: heights %v, want %v", step.key, got, step.want)
		}
		if !m.lay.stacked || m.lay.list.w != 80 || m.lay.source.w != 80 {
			t.Errorf("80 columns: not stacked full width: %+v", m.lay)
		}
	}
	// A click in a stacked pane focuses it.
	m.Update(tea.MouseClickMsg{X: 10, Y: m.lay.detail.y + 1, Button: tea.MouseLeft})
	if m.Focus() != PaneDetail {
		t.Fatalf("click on the detail pane: focus %v", m.Focus())
	}
	m = newModel(fixture.Session(), 200, 50)
	// The widest row: the fragment leaf at depth 3, "×64" after it.
	need := 1 + 3*2 + 2 + len("descriptor_index_oob oob_fragment.frag:9 fragment") + 1 + len("×64") - 1 + 2
	if m.lay.stacked || m.lay.list.w != need || m.Tree().NeededWidth()+2 != need {
		t.Fatalf("200 columns: tree %d wide (needs %d), stacked %v", m.lay.list.w, need, m.lay.stacked)
	}
	if !strings.Contains(plain(m), "• descriptor_index_oob oob_fragment.frag:9 fragment ×64┃") {
		t.Fatalf("the leaf is cut:\n%s", plain(m))
	}
}

// ← and → scroll the source sideways when its lines are wider than the
// pane; the caret follows the column.
func TestSourceScrollsSideways(t *testing.T) {
	s := fixture.Session()
	long := "    outs[pc.idx].v[i] = i * 3u; // " + strings.Repeat("a long comment ", 8)
	lines := append([]string(nil), fixture.ComputeSource...)
	lines[8] = long
	s.Sources[session.SourceKey{ShaderID: 1, File: fixture.ComputeFile}] = lines
	m := newModel(s, 80, 24)
	press(m, "tab", "tab") // the source pane
	line := func() string { return markedLine(m.Render()) }
	if !strings.HasPrefix(line(), "▶  9 │     outs[pc.idx]") || !strings.HasSuffix(strings.TrimRight(line(), "┃ "), "…") {
		t.Fatalf("before: %q", line())
	}
	press(m, "right")
	if m.source.Left() != 8 || !strings.HasPrefix(line(), "▶  9 │ …pc.idx].v[i] = i * 3u; // a long comment") {
		t.Fatalf("→: left %d, line %q", m.source.Left(), line())
	}
	if m.Focus() != PaneSource {
		t.Fatal("→ moved the focus")
	}
	// The caret is under column 5, now scrolled out of view.
	if strings.Contains(plain(m), "^") {
		t.Fatalf("caret shown for a column scrolled out:\n%s", plain(m))
	}
	press(m, "left")
	if m.source.Left() != 0 || !strings.Contains(plain(m), "│     ^") {
		t.Fatalf("←: left %d\n%s", m.source.Left(), plain(m))
	}
	press(m, "left", "h") // ← at the left edge stays; h moves to the detail pane
	if m.source.Left() != 0 || m.Focus() != PaneDetail {
		t.Fatalf("h: left %d focus %v", m.source.Left(), m.Focus())
	}
}

// The log scrolls sideways and wraps.
func TestLogSidewaysAndWrap(t *testing.T) {
	m := newModel(longOutput(t), 80, 24)
	press(m, "o", "right", "right")
	if m.log.Left() != 16 || !strings.Contains(plain(m), "out  …spatched 64 workgroups of 64 invocations") {
		t.Fatalf("→→: left %d\n%s", m.log.Left(), plain(m))
	}
	press(m, "w")
	if !m.log.Wrapping() || m.log.Left() != 0 || !strings.Contains(plain(m), "     of 4096 bytes, 2 descriptor sets, 11 pipelines") {
		t.Fatalf("w: wrapping %v left %d\n%s", m.log.Wrapping(), m.log.Left(), plain(m))
	}
	press(m, "right") // wrapped: nothing to scroll
	if m.log.Left() != 0 {
		t.Fatalf("→ while wrapped: left %d", m.log.Left())
	}
}

// The help overlay scrolls when its keys do not fit, and says how many
// rows it hides.
func TestHelpScrolls(t *testing.T) {
	m := newModel(fixture.Session(), 80, 24)
	press(m, "?")
	if !strings.Contains(plain(m), "35 more ↓") {
		t.Fatalf("no more marker:\n%s", plain(m))
	}
	press(m, "j", "j")
	if !strings.Contains(plain(m), "2 more ↑") || !strings.Contains(plain(m), "33 more ↓") || m.Selected() != 0 {
		t.Fatalf("jj:\n%s", plain(m))
	}
	m.Update(tea.MouseWheelMsg{X: 40, Y: 10, Button: tea.MouseWheelDown})
	if !strings.Contains(plain(m), "5 more ↑") {
		t.Fatalf("wheel:\n%s", plain(m))
	}
	press(m, "esc")
	if m.HelpShown() {
		t.Fatal("esc did not close the help")
	}
}

// e opens the selected error's file — found in the session's directories —
// in $EDITOR at its line; a file outside them is refused.
func TestEdit(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "oob_compute.comp")
	if err := os.WriteFile(file, []byte(strings.Join(fixture.ComputeSource, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"EDITOR": "vim"}
	m := newModelWith(fixture.Session(), 80, 24, Options{SourceDirs: []string{dir}, Getenv: func(k string) string { return env[k] }})
	cmd, err := m.editCommand()
	real, _ := filepath.EvalSymlinks(file)
	if err != nil || strings.Join(cmd.Args, " ") != "vim +9 "+real {
		t.Fatalf("e: %v, %v", cmd, err)
	}
	if _, c := m.Update(keyMsg("e")); c == nil {
		t.Fatal("e: no command")
	}
	// Without the directory, nothing opens and the status bar says why.
	m = newModelWith(fixture.Session(), 80, 24, Options{SourceDirs: []string{t.TempDir()}, Getenv: func(k string) string { return env[k] }})
	if _, c := m.Update(keyMsg("e")); c != nil || !strings.Contains(plain(m), "e: oob_compute.comp is not in") {
		t.Fatalf("e outside the directories:\n%s", plain(m))
	}
	// No $EDITOR: nano (vi is not on this $PATH), else nothing.
	env["EDITOR"] = ""
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "nano"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	m = newModelWith(fixture.Session(), 80, 24, Options{SourceDirs: []string{dir}, Getenv: func(k string) string { return env[k] }})
	if cmd, err := m.editCommand(); err != nil || strings.Join(cmd.Args, " ") != "nano +9 "+real {
		t.Fatalf("e without $EDITOR: %v, %v", cmd, err)
	}
	t.Setenv("PATH", t.TempDir())
	if press(m, "e"); !strings.Contains(plain(m), "e: no editor: set $EDITOR") {
		t.Fatalf("e without an editor:\n%s", plain(m))
	}
	// No error selected: nothing to open, and no advice about -g.
	m = newModelWith(fixture.Empty(session.AppExited), 80, 24, Options{SourceDirs: []string{dir}, Getenv: func(k string) string { return env[k] }})
	if press(m, "e"); !strings.Contains(plain(m), "e: no error is selected") || strings.Contains(plain(m), "-g") {
		t.Fatalf("e with no error:\n%s", plain(m))
	}
	// A command check has no shader source: no advice about -g either.
	g := fixture.Compute()
	g.Shader, g.Source, g.Check = session.ShaderRef{}, nil, "index_buffer_oob"
	s := fixture.Empty(session.AppExited)
	s.Groups = []*session.ErrorGroup{g}
	m = newModelWith(s, 80, 24, Options{SourceDirs: []string{dir}, Getenv: func(k string) string { return env[k] }})
	if press(m, "e"); !strings.Contains(plain(m), "e: index_buffer_oob is checked by the layer: no source file") {
		t.Fatalf("e on a command check:\n%s", plain(m))
	}
}

// y copies the selected error's one-line summary with OSC 52.
func TestCopy(t *testing.T) {
	m := newModel(fixture.Session(), 80, 24)
	_, cmd := m.Update(keyMsg("y"))
	if cmd == nil {
		t.Fatal("y: no command")
	}
	want := `shaders/oob_compute.comp:9:5: descriptor_index_oob: Descriptor index 3 is out of bounds: set 0, binding 0 has an array of 2 descriptors. (vkCmdDispatch #0 in command buffer 0x000055d5c3a1b2c0 "compute cb", 4 records)`
	if got := fmt.Sprint(cmd()); got != want {
		t.Fatalf("clipboard %q\nwant      %q", got, want)
	}
	if !strings.Contains(plain(m), "copied: shaders/oob_compute.comp:9:5: descriptor_index_oob") {
		t.Fatalf("no message:\n%s", plain(m))
	}
}

// r while the app still runs asks first; n keeps it running, y stops it
// and then runs again.
func TestRerunWhileRunning(t *testing.T) {
	rr := &rerunner{next: fixture.SecondRun, live: true}
	m := newModelWith(fixture.Session(), 80, 24, Options{Rerun: rr})
	press(m, "s", "space") // descriptor_index_oob off for the next run
	if _, cmd := m.Update(keyMsg("r")); cmd != nil || !m.Confirming() {
		t.Fatal("r while running: no question")
	}
	press(m, "j", "q") // other keys do nothing; q answers no
	if m.Confirming() || m.Runs() != 1 || rr.stopped != 0 || !strings.Contains(plain(m), "re-run cancelled") {
		t.Fatalf("q: confirming %v, %d runs, %d stops", m.Confirming(), m.Runs(), rr.stopped)
	}
	press(m, "r")
	_, cmd := m.Update(keyMsg("y"))
	if cmd == nil || !strings.Contains(plain(m), "stopping the app, then re-running it…") {
		t.Fatalf("y: no command\n%s", plain(m))
	}
	m.Update(cmd())
	if m.Runs() != 2 || m.Current() != 1 || rr.stopped != 1 || len(rr.settings()) != 1 || rr.settings()[0].Checks["descriptor_index_oob"] {
		t.Fatalf("after y: %d runs, current %d, %d stops, settings %+v", m.Runs(), m.Current(), rr.stopped, rr.settings())
	}
	// Not running: r runs at once.
	rr.live = false
	if _, cmd := m.Update(keyMsg("r")); cmd == nil || m.Confirming() {
		t.Fatal("r while stopped asked")
	}
}

// The compare view has a cursor; enter shows the group in its run.
func TestCompareCursor(t *testing.T) {
	m := newModelWith(fixture.Session(), 100, 30, Options{Rerun: &rerunner{next: fixture.SecondRun}})
	_, cmd := m.Update(keyMsg("r"))
	m.Update(cmd())
	press(m, "c", "j", "j") // the third row: the compute error, fixed in run 2
	if m.compare.Selected() != 2 || !strings.Contains(plain(m), "›     ×4      — fixed") {
		t.Fatalf("cursor %d\n%s", m.compare.Selected(), plain(m))
	}
	_, cmd = m.Update(keyMsg("enter"))
	m.Update(cmd())
	if m.Screen() != ScreenMain || m.Current() != 0 || m.Selected() != 0 || !strings.Contains(plain(m), "run 1/2") {
		t.Fatalf("enter: screen %v run %d selected %d", m.Screen(), m.Current(), m.Selected())
	}
	// On a saved session, c says why there is nothing to compare without
	// pointing at a re-run it cannot do.
	m = newModel(fixture.Session(), 100, 30)
	press(m, "c")
	if p := plain(m); !strings.Contains(p, "this saved session has one") || strings.Contains(p, "re-run (r)") {
		t.Fatalf("c on a saved session:\n%s", p)
	}
}

var sgrOnly = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// Text from the app — names, labels, file names, source lines, output,
// notices, the app's path — never reaches the terminal as control
// characters: an escape in a debug name cannot retitle the window or
// write the clipboard.
func TestAppTextIsCleaned(t *testing.T) {
	evil := "\x1b]52;c;ZXZpbA==\x07\x1b[2J\u202e"
	s := withOutput()
	s.App.Path = "./app" + evil
	s.Device.Name = "gpu" + evil
	g := s.Groups[0]
	g.CommandBuffer.Name, g.Pipeline.Name, g.Labels = "cb"+evil, "p"+evil, []string{"pass" + evil}
	g.MessageText, g.Action = "msg"+evil, "vkCmdDispatch"+evil
	g.Source.File = "shaders/x" + evil + ".comp"
	s.Sources = map[session.SourceKey][]string{{ShaderID: 1, File: g.Source.File}: append(fixture.ComputeSource[:8:8], "code"+evil, "}")}
	s.Output = append(s.Output, session.OutputLine{Stream: "stdout", Text: "out" + evil})
	s.Notices = append(s.Notices, fixture.Notice("notice"+evil))
	for _, keys := range [][]string{nil, {"3"}, {"4"}, {"2"}, {"tab"}, {"o"}, {"y"}, {"?"}} {
		m := newModel(s, 200, 50)
		press(m, keys...)
		out := sgrOnly.ReplaceAllString(m.Render(), "")
		for i, r := range out {
			if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x202e {
				t.Fatalf("keys %v: control %U at %d in:\n%s", keys, r, i, out)
			}
		}
		if !strings.Contains(out, "␛]52;c;ZXZpbA==␇") {
			t.Errorf("keys %v: the escape is not shown as text", keys)
		}
		if strings.Contains(m.View().WindowTitle, "\x1b") {
			t.Errorf("window title %q", m.View().WindowTitle)
		}
	}
}

// A filter in force applies to the groups later snapshots bring, and the
// counts follow.
func TestFilterWhileLive(t *testing.T) {
	src := &liveSource{s: fixture.Session(), ch: make(chan struct{}, 1)}
	m := New(src, Options{NoColor: true})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	press(m, "/", "f", "r", "a", "g", "enter")
	src.set(func(s *session.Session) {
		g := fixture.Fragment()
		g.ActionIndex, g.Count = 5, 10
		s.Groups = append(s.Groups, g, fixture.Compute())
	})
	m.Update(UpdatedMsg{})
	if m.Tree().Total() != 2 || !strings.Contains(plain(m), "2 of 4 groups · 74 of 82 records") {
		t.Fatalf("live filter: %d groups\n%s", m.Tree().Total(), plain(m))
	}
}

// The filter reads each group's message, and so its shader's debug name:
// when the driver gives the fragment module the handle of the compute
// module the app destroyed (as the demo's does at times), /frag keeps the
// fragment group alone. The session is the collector's, from the layer's
// messages in the order the demo sends them.
func TestFilterWithReusedModuleHandle(t *testing.T) {
	c := session.NewCollector()
	rec := func(id uint32, stage uint32) wire.Record {
		return wire.Record{Check: "descriptor_index_oob", Code: 1, ShaderID: id, Instruction: 70, Stage: stage,
			Action: "vkCmdDispatch", Params: []uint32{0, 0, 3, 2}, Count: 4}
	}
	draw := rec(2, 4)
	draw.Action, draw.Count = "vkCmdDraw", 64
	for _, msg := range []struct {
		k wire.Kind
		m any
	}{
		{wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion}},
		{wire.KindShader, &wire.Shader{ID: 1, Module: 0xabc, Instrumented: true}},
		{wire.KindName, &wire.Name{Handle: 0xabc, ObjectType: "shader_module", Name: "oob_compute.comp"}},
		{wire.KindShader, &wire.Shader{ID: 2, Module: 0xabc, Instrumented: true}},
		{wire.KindName, &wire.Name{Handle: 0xabc, ObjectType: "shader_module", Name: "oob_fragment.frag"}},
		{wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 0x55, Records: []wire.Record{rec(1, 5)}}},
		{wire.KindErrors, &wire.Errors{Submit: 2, CommandBuffer: 0x56, Records: []wire.Record{draw}}},
	} {
		if err := c.Record(msg.k, msg.m); err != nil {
			t.Fatal(err)
		}
	}
	m := newModel(c.Snapshot(), 80, 24)
	press(m, "/", "f", "r", "a", "g")
	if got := m.Tree().Total(); got != 1 || !strings.Contains(plain(m), "1 of 2 groups match") {
		t.Fatalf("/frag keeps %d groups:\n%s", got, plain(m))
	}
	if g := m.Session().Groups[m.Selected()]; g.Stage != "fragment" {
		t.Fatalf("/frag selects the %s group", g.Stage)
	}
}

// TestMute: m mutes the selected error's check, M its VUID, for this
// session: the tree hides them, the status bar counts them (never
// silently gone), u shows them all again; Options.Mute (--mute) starts
// with some muted.
func TestMute(t *testing.T) {
	m := newModel(fixture.Session(), 100, 24)
	press(m, "M") // the compute group's VUID
	if n := m.Tree().Total(); n != 1 || !strings.Contains(plain(m), "muted VUID-vkCmdDispatch-None-10068: 1 group hidden (u unmutes)") {
		t.Fatalf("M: %d groups\n%s", n, plain(m))
	}
	press(m, "j") // the flash goes; the count stays
	if !strings.Contains(plain(m), "1 of 2 groups · 64 of 68 records · 1 muted (u)") {
		t.Fatalf("status after M:\n%s", plain(m))
	}
	press(m, "m") // the fragment group's check: descriptor_index_oob, both
	if n := m.Tree().Total(); n != 0 || !strings.Contains(plain(m), "muted descriptor_index_oob: 2 groups hidden") {
		t.Fatalf("m: %d groups\n%s", n, plain(m))
	}
	press(m, "j")
	if !strings.Contains(plain(m), "0 of 2 groups · 0 of 68 records · 2 muted (u)") {
		t.Fatalf("status after m:\n%s", plain(m))
	}
	fixture.Golden(t, view(m))
	press(m, "u")
	if n := m.Tree().Total(); n != 2 || !strings.Contains(plain(m), "nothing muted") {
		t.Fatalf("u: %d groups\n%s", n, plain(m))
	}
	press(m, "j")
	if strings.Contains(plain(m), "muted") || !strings.Contains(plain(m), "2 groups · 68 records") {
		t.Fatalf("after u:\n%s", plain(m))
	}

	// Muted from the start (--mute), with the filter too.
	m = newModelWith(fixture.Session(), 100, 24, Options{Mute: []string{"VUID-vkCmdDraw-None-10068"}})
	if n := m.Tree().Total(); n != 1 || !strings.Contains(plain(m), "1 of 2 groups · 4 of 68 records · 1 muted (u)") {
		t.Fatalf("Options.Mute: %d groups\n%s", n, plain(m))
	}
	press(m, "/", "f", "r", "a", "g", "enter")
	if n := m.Tree().Total(); n != 0 {
		t.Fatalf("filter frag with the fragment group muted: %d groups", n)
	}
}
