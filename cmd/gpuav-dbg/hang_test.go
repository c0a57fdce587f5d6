package main

import (
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
