package e2e

import (
	"strings"
	"testing"
)

// TestStopOnErrorHeadless: the demo makes its errors in two submits (the
// compute dispatch's, then the draw's). Headless with --stop-on-error the
// run ends at the first: the report holds exactly that one error group and
// says the run stopped there, the exit status is 1, and the app did not
// run on (it never printed what it prints after the compute submit).
func TestStopOnErrorHeadless(t *testing.T) {
	var r struct {
		report
		StoppedAtFirstError bool `json:"stopped_at_first_error"`
		Pauses              []struct {
			Submit  int    `json:"submit"`
			Records int    `json:"records"`
			State   string `json:"state"`
		} `json:"pauses"`
		App struct {
			State string `json:"state"`
		} `json:"app"`
		Unchecked []struct {
			Kind   string `json:"kind"`
			Reason string `json:"reason"`
		} `json:"unchecked"`
	}
	code, out := runLauncher(t, &r, nil, []string{"--stop-on-error"}, bin("demo"))
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a validation error)\n%s", code, out)
	}
	if len(r.Errors) != 1 {
		t.Fatalf("%d error groups, want 1 (the first submit's)\n%s", len(r.Errors), out)
	}
	if e := r.Errors[0]; e.Check != "descriptor_index_oob" || e.Action != "vkCmdDispatch" || e.Count != 4 ||
		e.Submit != 1 && e.Submit != 2 {
		t.Errorf("the error: %+v", e)
	}
	if !r.StoppedAtFirstError || len(r.Pauses) != 1 || r.Pauses[0].State != "stopped" || r.Pauses[0].Records != 4 ||
		r.Pauses[0].Submit != r.Errors[0].Submit {
		t.Errorf("stopped_at_first_error %v, pauses %+v", r.StoppedAtFirstError, r.Pauses)
	}
	if r.App.State != "stopped" {
		t.Errorf("app state %q, want stopped", r.App.State)
	}
	want := "stopped at the first error (--stop-on-error): the app did not run to its end"
	found := false
	for _, u := range r.Unchecked {
		found = found || u.Kind == "stopped" && u.Reason == want
	}
	if !found {
		t.Errorf("unchecked %+v lacks %q", r.Unchecked, want)
	}
	if !strings.Contains(out, "demo: device ") {
		t.Errorf("the app's first line is missing: its output does not pass through?\n%s", out)
	}
	for _, later := range []string{"demo: compute dispatched", "demo: draw done", "demo: done"} {
		if strings.Contains(out, later) {
			t.Errorf("the app ran on past its first error: it printed %q\n%s", later, out)
		}
	}
	if !strings.Contains(out, "app stopped at the first error; session saved to") {
		t.Errorf("the last line does not say the run stopped at the first error:\n%s", out)
	}
}

// TestStopOnErrorFromEnvironmentHeadless: a stop the run's flags did not
// ask for (the layer's variable in the environment, as a settings file or
// the app's own settings would) still ends a headless run at the first
// error: nobody is there to continue it, and the app never waits for an
// answer nobody gives.
func TestStopOnErrorFromEnvironmentHeadless(t *testing.T) {
	var r struct {
		report
		StoppedAtFirstError bool `json:"stopped_at_first_error"`
	}
	code, out := runLauncher(t, &r, []string{"VK_LAYER_GPUAV_DBG_STOP_ON_ERROR=1"}, nil, bin("demo"))
	if code != 1 || len(r.Errors) != 1 || !r.StoppedAtFirstError {
		t.Fatalf("exit %d, %d error groups, stopped %v; want 1, 1, true\n%s", code, len(r.Errors), r.StoppedAtFirstError, out)
	}
	if strings.Contains(out, "demo: done") {
		t.Errorf("the app ran to its end:\n%s", out)
	}
}
