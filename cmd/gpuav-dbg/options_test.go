package main

import (
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/launcher"
	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session"
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

// flagExamples are values of the flag table's rows that take an argument,
// for TestCommandFlags; a new row with an argument gets one here.
var flagExamples = map[string]string{
	"json": "out.json", "sarif": "out.sarif", "report-mode": "0644", "session": "s.gvs", "check": "buffer_oob=off",
	"theme": "dark", "checks": "none", "o": "out.spv", "set": "3", "shader-id": "9", "printf": "off",
}

// commandFlags parses one command's flags as its command line does and
// returns the error.
func commandFlags(t *testing.T, c options.Command, args ...string) error {
	t.Helper()
	switch c {
	case options.Run:
		_, _, err := parseRunFlags("run", append(args, "app"), io.Discard)
		return err
	case options.Open:
		_, _, err := parseOpenFlags(append(args, "f.gvs"), io.Discard)
		return err
	}
	tc := newTestCLI(t)
	switch c {
	case options.Instrument:
		tc.instrumentCmd(append(append([]string{"-o", "x.spv"}, args...), "missing.spv"))
	case options.Doctor:
		tc.doctorCmd(append(args, "--bogus"))
	}
	if s := tc.err.String(); !strings.Contains(s, "missing.spv") && !strings.Contains(s, `"--bogus"`) {
		return errors.New(s)
	}
	return nil
}

// TestCommandFlags: every row of the flag table is a flag of each of its
// commands' parsers (taking its example value), and in the usage of each.
func TestCommandFlags(t *testing.T) {
	var usage strings.Builder
	printUsage(&usage)
	for _, c := range []options.Command{options.Run, options.Open, options.Instrument, options.Doctor} {
		section := usage.String()[strings.Index(usage.String(), "Flags of "+c.String()+":"):]
		section = section[:strings.Index(section, "\n\n")]
		for _, f := range options.FlagsOf(c) {
			args := []string{"--" + f.Name}
			if f.Arg != "" {
				args = append(args, flagExamples[f.Name])
			}
			if f.Internal {
				continue // doctor --probe starts the probe
			}
			if err := commandFlags(t, c, args...); err != nil {
				t.Errorf("%s %q: %v", c, args, err)
			}
			if !strings.Contains(section, "\n  "+f.Usage()) {
				t.Errorf("usage of %s lacks %s:\n%s", c, f.Usage(), section)
			}
		}
		for _, o := range options.OptionsOf(c) {
			if !strings.Contains(section, "\n  --"+o.Flag) {
				t.Errorf("usage of %s lacks --%s", c, o.Flag)
			}
		}
	}
	if f, _, err := parseRunFlags("run", []string{"app"}, io.Discard); err != nil || os.FileMode(f.reportMode) != session.ReportMode ||
		f.theme != "auto" {
		t.Errorf("run's defaults from the rows: %v %#o %q", err, os.FileMode(f.reportMode), f.theme)
	}
}

// TestCommandFlagsReadTheTable: a row added to the flag table is in the
// usage of its commands, and each command's parser refuses to run until
// it reads the row (a variable of that name), naming it.
func TestCommandFlagsReadTheTable(t *testing.T) {
	for _, c := range []options.Command{options.Run, options.Open, options.Instrument, options.Doctor} {
		t.Run(c.String(), func(t *testing.T) {
			defer options.WithExtraFlags(&options.Flag{Name: "test-flag", Arg: "N", Commands: c, Help: "the test's flag"})()
			var usage strings.Builder
			printUsage(&usage)
			if !strings.Contains(usage.String(), "Flags of "+c.String()+":\n") ||
				!strings.Contains(usage.String(), "  --test-flag N       the test's flag\n") {
				t.Errorf("usage lacks the row:\n%s", usage.String())
			}
			if err := commandFlags(t, c); err == nil || !strings.Contains(err.Error(), "--test-flag N") {
				t.Errorf("a row no parser reads: %v", err)
			}
		})
	}
	// An option row of open is read by open's parser too.
	defer options.WithExtra(&options.Option{Key: "test_row", Env: "GPUAV_DBG_TEST_ROW", Scope: options.Launcher,
		Flag: "test-row", Commands: options.Open, Kind: options.Uint, Help: "a row of the test"})()
	if err := commandFlags(t, options.Open); err == nil || !strings.Contains(err.Error(), "--test-row") {
		t.Errorf("an option row of open no parser reads: %v", err)
	}
}
