package main

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/launcher"
	"github.com/gpuav-dbg/gpuav-dbg/options"
)

// TestFlagsReadTheTable: a row added to the options table with a flag is a
// flag of run with its usage, read by the row's parser, and its value
// reaches the run's settings and the app's environment.
func TestFlagsReadTheTable(t *testing.T) {
	defer options.WithExtra(&options.Option{Key: "test_row", Env: "VK_LAYER_GPUAV_DBG_TEST_ROW", Flag: "test-row", FlagArg: "N",
		Kind: options.Uint, Default: "7", Help: "a row of the test", Usage: "the test row's count",
		Where: options.Hello | options.Passed})()
	var usage strings.Builder
	printUsage(&usage)
	if !strings.Contains(usage.String(), "  --test-row N        the test row's count\n") {
		t.Errorf("usage lacks the test row:\n%s", usage.String())
	}
	f, rest, err := parseRunFlags("run", []string{"--test-row", "0x0c", "--reserve-slot", "app"}, io.Discard)
	if err != nil || !slices.Equal(rest, []string{"app"}) {
		t.Fatalf("parse: %v %q", err, rest)
	}
	set, err := f.settings()
	if err != nil || set.Options["test_row"] != "12" || !set.ReserveSlot {
		t.Fatalf("settings %+v, %v", set, err)
	}
	if env := launcher.Env(nil, "/l", "/s", set); !slices.Contains(env, "VK_LAYER_GPUAV_DBG_TEST_ROW=12") {
		t.Errorf("environment lacks the test row: %q", env)
	}
	if _, _, err := parseRunFlags("run", []string{"--test-row", "many", "app"}, io.Discard); err == nil ||
		!strings.Contains(err.Error(), `"many" is not a number`) {
		t.Errorf("a bad value: %v", err)
	}
}

// TestOptionFlags: every row with a flag is a flag of run and in its
// usage; the flags of the layer's settings set what they did before the
// table (not given: left to the layer).
func TestOptionFlags(t *testing.T) {
	var usage strings.Builder
	printUsage(&usage)
	for _, o := range options.All() {
		if o.Flag != "" && !strings.Contains(usage.String(), "  --"+o.Flag) {
			t.Errorf("usage lacks --%s", o.Flag)
		}
	}
	for _, tc := range []struct {
		args []string
		want func(s *options.Values) bool
	}{
		{nil, func(s *options.Values) bool {
			return !s.ReserveSlot && s.OnError == "skip" && !s.Robust && !s.PrintfOff && s.PrintfBufferBytes == 0 &&
				s.LoopBudget == 0 && s.PrintfAt == "" && s.WatchdogSeconds == 0 && !s.WatchdogOff && s.Options == nil
		}},
		{[]string{"--robust"}, func(s *options.Values) bool { return s.Robust && s.OnError == "clamp" }},
		{[]string{"--on-error", "execute"}, func(s *options.Values) bool { return s.OnError == "execute" }},
		{[]string{"--printf", "off", "--printf-buffer", "12"}, func(s *options.Values) bool {
			return s.PrintfOff && s.PrintfBufferBytes == 12
		}},
		{[]string{"--printf-buffer", "99999999999"}, func(s *options.Values) bool { return s.PrintfBufferBytes == 1<<31 }},
		{[]string{"--loop-budget", "2^10"}, func(s *options.Values) bool { return s.LoopBudget == 1024 }},
		{[]string{"--watchdog", "2"}, func(s *options.Values) bool { return s.WatchdogSeconds == 2 && !s.WatchdogOff }},
		{[]string{"--watchdog", "0"}, func(s *options.Values) bool { return s.WatchdogSeconds == 0 && s.WatchdogOff }},
		{[]string{"--watchdog", "99999"}, func(s *options.Values) bool { return s.WatchdogSeconds == 3600 }},
		{[]string{"--printf-at", "pixel=1,2", "--printf-at", "vertex=3"}, func(s *options.Values) bool {
			return s.PrintfAt == "pixel=1,2 vertex=3"
		}},
	} {
		f, _, err := parseRunFlags("run", append(tc.args, "app"), io.Discard)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		set, err := f.settings()
		if err != nil || !tc.want(&options.Values{Settings: set}) {
			t.Errorf("%q: %+v %v", tc.args, set, err)
		}
	}
	for _, args := range [][]string{{"--printf", "maybe"}, {"--loop-budget", "0"}, {"--on-error", "sideways"},
		{"--watchdog", "2s"}} {
		if _, _, err := parseRunFlags("run", append(args, "app"), io.Discard); err == nil {
			t.Errorf("%q accepted", args)
		}
	}
	if f, _, err := parseRunFlags("run", []string{"--robust", "--on-error", "execute", "app"}, io.Discard); err == nil {
		if _, err := f.settings(); err == nil {
			t.Error("--robust with --on-error execute accepted")
		}
	}
}
