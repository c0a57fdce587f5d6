package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// trustFakes are fake-app modes (fakeApp, main_test.go) that forge what a
// hostile or unlucky app could send.
var trustFakes = map[string]func(*wire.Client){
	"forged": func(cl *wire.Client) {
		bad := oneRecord(1, 4)
		bad.Records[0].Count = -1
		cl.Send(wire.KindErrors, bad)
		cl.Send(wire.KindErrors, oneRecord(1<<64-1, 1))
		cl.Send(wire.KindErrors, oneRecord(2, 4))
	},
	"hostile": func(cl *wire.Client) {
		cl.Send(wire.KindName, &wire.Name{Handle: 0x55, ObjectType: "command_buffer", Name: hostileName})
		e := oneRecord(1, 2)
		e.Records[0].Labels = []string{hostileName}
		cl.Send(wire.KindErrors, e)
	},
	"lost": func(cl *wire.Client) {
		cl.Send(wire.KindLost, &wire.Lost{Records: 7, Groups: []wire.LostGroup{{Code: 1, Check: "descriptor_index_oob",
			ShaderID: 1, Instruction: 79, Count: 5}}})
	},
}

// hostileName clears the screen, sets the clipboard (OSC 52) and sends
// CSI and OSC as UTF-8 C1 controls.
const hostileName = "x\x1b[2J\x1b]52;c;c2VjcmV0\x07\u009b31m\u009d0;t\x07"

// oneRecord is an Errors message of one record counted count times.
func oneRecord(submit uint64, count int) *wire.Errors {
	return &wire.Errors{Submit: submit, CommandBuffer: 0x55, Records: []wire.Record{{Check: "descriptor_index_oob", Code: 1,
		ShaderID: 1, Instruction: 79, Stage: 5, Action: "vkCmdDispatch", Pipeline: 0x77, Params: []uint32{0, 0, 3, 2}, Count: count}}}
}

// fakeRunReport runs the fake app in mode headless with --json and returns
// the exit status and the report.
func fakeRunReport(t *testing.T, mode string, extra ...string) (*testCLI, int, map[string]any, []byte) {
	t.Helper()
	tc := newTestCLI(t)
	t.Setenv(envFakeApp, mode)
	out := filepath.Join(tc.dir, "out.json")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"run", "--headless", "--json", out, "--session", filepath.Join(tc.dir, "s.gvs")}, extra...)
	code := tc.main(append(args, self, "-test.run=none"))
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("report: %v\n%s", err, tc.err.String())
	}
	var r map[string]any
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	return tc, code, r, raw
}

// notices returns the report's notice texts.
func notices(r map[string]any) string {
	var b strings.Builder
	for _, n := range r["notices"].([]any) {
		b.WriteString(n.(map[string]any)["text"].(string) + "\n")
	}
	return b.String()
}

// TestForgedFramesRejected: a record counted -1 and a submit 2^64-1 are
// rejected with a notice each; the connection goes on and the valid frame
// after them counts.
func TestForgedFramesRejected(t *testing.T) {
	tc, code, r, _ := fakeRunReport(t, "forged")
	errs := r["errors"].([]any)
	if code != exitErrors || len(errs) != 1 || errs[0].(map[string]any)["count"] != 4.0 {
		t.Fatalf("exit %d, groups %v\n%s", code, errs, tc.err.String())
	}
	n := notices(r)
	for _, want := range []string{
		"rejected the errors_packed frame at byte", "record 0: count -1",
		"submit 18446744073709551615 (max 281474976710656)",
	} {
		if !strings.Contains(n, want) {
			t.Errorf("notices lack %q:\n%s", want, n)
		}
	}
}

// TestHostileStringsHeadless: a debug name and a label that would clear
// the screen, set the clipboard and send C1 controls reach the terminal
// escaped, and the JSON report holds them exactly, with no raw C1 byte.
func TestHostileStringsHeadless(t *testing.T) {
	tc, code, r, raw := fakeRunReport(t, "hostile")
	if code != exitErrors {
		t.Fatalf("exit %d\n%s", code, tc.err.String())
	}
	stderr := tc.err.String()
	for _, bad := range []string{"\x1b", "\x07", "\u009b", "\u009d"} {
		if strings.Contains(stderr, bad) {
			t.Fatalf("stderr holds %q:\n%q", bad, stderr)
		}
	}
	if !strings.Contains(stderr, `x\x1b[2J\x1b]52;c;c2VjcmV0`) || !strings.Contains(stderr, `\u009b31m\u009d0;t`) {
		t.Errorf("the name is not shown escaped:\n%s", stderr)
	}
	for _, bad := range []string{"\u009b", "\u009d"} {
		if strings.Contains(string(raw), bad) {
			t.Fatalf("the JSON report holds a raw %q", bad)
		}
	}
	g := r["errors"].([]any)[0].(map[string]any)
	if name := g["command_buffer"].(map[string]any)["name"]; name != hostileName || g["labels"].([]any)[0] != hostileName {
		t.Errorf("the report changed the name: %q", name)
	}
}

// TestLostRecordsReported: records the layer could not deliver are in the
// report (total and per group), the headless summary, and the exit status
// (4: not everything was checked).
func TestLostRecordsReported(t *testing.T) {
	tc, code, r, _ := fakeRunReport(t, "lost")
	if code != exitUnchecked || r["lost_records"] != 7.0 {
		t.Fatalf("exit %d, lost %v\n%s", code, r["lost_records"], tc.err.String())
	}
	lg := r["lost_groups"].([]any)[0].(map[string]any)
	if lg["check"] != "descriptor_index_oob" || lg["shader_id"] != 1.0 || lg["instruction"] != 79.0 || lg["count"] != 5.0 {
		t.Errorf("lost group %v", lg)
	}
	for _, want := range []string{
		"gpuav-dbg:   7 error records were lost on the way to gpuav-dbg: 5 descriptor_index_oob records at shader 1, instruction 79; 2 of unknown groups\n",
		"no validation errors in what was checked, 7 records lost on the way; app exited 0",
	} {
		if !strings.Contains(tc.err.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, tc.err.String())
		}
	}
}

// TestAppPathEscaped: an app path with terminal controls reaches the
// terminal escaped in the launcher's own lines (the layer never loaded;
// the app could not be started), as every other string does.
func TestAppPathEscaped(t *testing.T) {
	tc := newTestCLI(t)
	evil := filepath.Join(tc.dir, "app\x1b]52;c;aGk=\a\x1b[2J")
	if err := os.Symlink("/bin/true", evil); err != nil {
		t.Fatal(err)
	}
	tc.run(t, exitUnchecked, "run", "--headless", "--session", filepath.Join(tc.dir, "s.gvs"), evil)
	missing := filepath.Join(tc.dir, "gone\x1b[31m")
	tc.run(t, exitLauncher, "run", "--headless", "--session", filepath.Join(tc.dir, "s2.gvs"), missing)
	stderr := tc.err.String()
	for _, bad := range []string{"\x1b", "\a"} {
		if strings.Contains(stderr, bad) {
			t.Fatalf("stderr holds %q:\n%q", bad, stderr)
		}
	}
	for _, want := range []string{`app\x1b]52;c;aGk=\x07\x1b[2J (is it a Vulkan app?`, `gone\x1b[31m`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}
