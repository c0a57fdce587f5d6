package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/session"
)

// TestExitHang: a run with a hang group exits 5, before validation
// errors and anything unchecked, and its count line says so.
func TestExitHang(t *testing.T) {
	s := &session.Session{App: session.App{State: session.AppExited, LayerLoaded: true},
		Settings: session.Settings{Checks: map[string]bool{"descriptor_index_oob": true}},
		Groups:   []*session.ErrorGroup{{Count: 4}},
		Hangs:    []session.Hang{{Reason: "device_lost", Call: "vkWaitForFences"}}}
	if got := exitStatus(s, false); got != exitHang || exitHang != 5 {
		t.Errorf("exit %d, want 5", got)
	}
	if got := countText(s); !strings.Contains(got, "device lost (vkWaitForFences returned VK_ERROR_DEVICE_LOST)") {
		t.Errorf("count line %q", got)
	}
	s.Hangs = nil
	if got := exitStatus(s, false); got != exitErrors {
		t.Errorf("without the hang: exit %d, want %d", got, exitErrors)
	}
}

// TestExitSlowHang: a watchdog's hang whose submission finished after all
// is a slow submission: the run exits as it would without it (1 with
// errors, 0 without), and the count line and the headless lines say
// "slow"; a hang still unfinished beside it exits 5.
func TestExitSlowHang(t *testing.T) {
	slow := session.Hang{Reason: "watchdog", WatchdogSeconds: 1, Finished: true, Seconds: 3.5,
		Submits: []session.HangSubmit{{Queue: session.Handle{Handle: "0x10"}, Submit: 2, PendingSeconds: 1.1, Finished: true, Seconds: 3.5}}}
	s := &session.Session{App: session.App{State: session.AppExited, LayerLoaded: true},
		Settings: session.Settings{Checks: map[string]bool{"descriptor_index_oob": true}},
		Groups:   []*session.ErrorGroup{{Count: 4}},
		Hangs:    []session.Hang{slow}}
	if got := exitStatus(s, false); got != exitErrors {
		t.Errorf("slow with errors: exit %d, want %d", got, exitErrors)
	}
	const title = "slow: submission 2 on queue 0x10 made no progress for 1 s, then finished after 3.5 s"
	if got := countText(s); !strings.Contains(got, title) || strings.Contains(got, "hang") {
		t.Errorf("count line %q", got)
	}
	var out strings.Builder
	printHangs(&out, s)
	if want := "gpuav-dbg: " + title + "\ngpuav-dbg:   submit 2 on queue 0x10, pending 1.1 s, finished after 3.5 s\n"; out.String() != want {
		t.Errorf("headless lines %q, want %q", out.String(), want)
	}
	s.Groups = nil
	if got := exitStatus(s, true); got != exitOK {
		t.Errorf("slow, no errors: exit %d, want %d", got, exitOK)
	}
	s.Hangs = append(s.Hangs, session.Hang{Reason: "watchdog", WatchdogSeconds: 1})
	if got := exitStatus(s, true); got != exitHang {
		t.Errorf("slow and hung: exit %d, want %d", got, exitHang)
	}
}

// TestOpenSlowHang: open --headless prints a session's hangs as run does,
// a slow submission's as slow, and does not exit 5 for it.
func TestOpenSlowHang(t *testing.T) {
	tc := newTestCLI(t)
	s := &session.Session{Version: session.Version, App: session.App{State: session.AppExited, LayerLoaded: true},
		Settings: session.Settings{Checks: map[string]bool{"descriptor_index_oob": true}},
		Groups:   []*session.ErrorGroup{},
		Hangs: []session.Hang{{Reason: "watchdog", WatchdogSeconds: 1, Finished: true, Seconds: 3.5,
			Submits: []session.HangSubmit{{Queue: session.Handle{Handle: "0x10"}, Submit: 2, PendingSeconds: 1.1, Finished: true,
				Seconds: 3.5}}}}}
	path := filepath.Join(tc.dir, "r.json")
	if err := session.WriteReportFile(path, s); err != nil {
		t.Fatal(err)
	}
	if got := tc.main([]string{"open", "--headless", path}); got == exitHang {
		t.Errorf("exit %d\n%s", got, tc.err.String())
	}
	for _, want := range []string{
		"gpuav-dbg: slow: submission 2 on queue 0x10 made no progress for 1 s, then finished after 3.5 s\n",
		"gpuav-dbg:   submit 2 on queue 0x10, pending 1.1 s, finished after 3.5 s\n",
	} {
		if !strings.Contains(tc.err.String(), want) {
			t.Errorf("open --headless lacks %q\n%s", want, tc.err.String())
		}
	}
}
