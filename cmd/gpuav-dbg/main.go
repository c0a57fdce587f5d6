// Command gpuav-dbg is an interactive terminal debugger for GPU-assisted
// validation of Vulkan apps. It starts an app with the gpuav-dbg layer,
// collects the error records the layer streams over a unix socket into a
// session, and shows them in a TUI or writes a JSON report.
//
// Usage:
//
//	gpuav-dbg run [flags] [--] APP [ARGS...]
//	gpuav-dbg demo [flags]
//	gpuav-dbg open [flags] FILE
//	gpuav-dbg open --list [APP]
//	gpuav-dbg instrument [flags] -o OUT.spv IN.spv
//	gpuav-dbg doctor [--json]
//	gpuav-dbg version
//	gpuav-dbg help
//
// The flags are rows of two tables, options.Flags (the command's own) and
// options.Table (the settings); gpuav-dbg help and README.md list them.
//
// Exit status of run, demo and open --headless: 0 no validation error, the
// app exited 0 and everything was checked; 1 validation errors found; 2
// launcher failure (bad arguments, app not found or not executable, layer
// missing); 3 the app failed (non-zero exit or crash) with no validation
// error; 4 no validation error, but not everything was checked (the layer
// never loaded, every check off, a check the device cannot run, shaders or
// pipelines left unchecked, records lost, the app stopped by you), unless
// --allow-unchecked.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// Exit statuses.
const (
	exitOK       = 0 // no validation error, the app exited 0
	exitErrors   = 1 // validation errors found
	exitLauncher = 2 // the launcher failed: arguments, app, layer, socket
	exitApp      = 3 // the app failed with no validation error
	// exitUnchecked: no validation error, but not everything was checked
	// (session.Session.UncheckedAll says what); --allow-unchecked makes it 0.
	exitUnchecked = 4
	// exitHang: the GPU hung (the layer's watchdog) or the device was lost:
	// session.Session.Hangs says where.
	exitHang = 5
)

// version is set at link time (-ldflags "-X main.version=...").
var version = "dev"

// cli is the process's outside world, replaceable in tests.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	executable     func() (string, error)
	// isTerminal reports whether the UI can run (stdout and stdin are
	// terminals).
	isTerminal func() bool
	// caps is the device probe's answer, once asked (doctor.go), under
	// capsMu: run asks on a goroutine, beside the app.
	caps *wire.Capabilities
	// sourcePath is run's --source-path (sources.go).
	sourcePath []string
	// printfAt is --printf-at, for the TUI's printf screen.
	printfAt session.PrintfFilter
	// reportMode is --report-mode: the mode of the report files.
	reportMode os.FileMode
	// mute is --mute and GPUAV_DBG_MUTE: the checks and VUIDs muted.
	mute []string
}

func main() {
	c := &cli{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		getenv: os.Getenv, executable: os.Executable,
		isTerminal: func() bool { return isTerminal(os.Stdout) && isTerminal(os.Stdin) },
	}
	os.Exit(c.main(os.Args[1:]))
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

const usage = `gpuav-dbg: GPU-assisted validation debugger for Vulkan apps

Usage:
  gpuav-dbg run [flags] [--] APP [ARGS...]   run APP under the layer (no APP: the demo)
  gpuav-dbg demo [flags]                     run the built-in demo app
  gpuav-dbg open [flags] FILE                show a saved session (.gvs) or JSON report
  gpuav-dbg open --list [APP]                list the saved runs (of APP), oldest first, with sizes
  gpuav-dbg open --prune                     delete the saved runs past the caps (oldest first)
  gpuav-dbg instrument [flags] -o OUT.spv IN.spv
                                             instrument a module offline (none: re-encode)
  gpuav-dbg doctor [--json]                  will it work here: loader, layer, devices, which
                                             checks run (exit 0 yes, 1 not all, 2 no Vulkan)
  gpuav-dbg version                          print the version
  gpuav-dbg help                             print this help

Flags of run and demo:
%s
Flags of open:
%s
Flags of instrument:
%s
Flags of doctor:
%s
Checks (--check ID=on|off; * on by default):
%s
Environment of gpuav-dbg (the layer's settings: README.md's table):
%s
Exit status of run, demo and open --headless:
  0  no validation error, the app exited 0, everything was checked
  1  validation errors found
  2  the launcher failed (arguments, app, layer)
  3  the app failed (non-zero exit, crash) with no validation error
  4  no validation error, but not everything was checked (the layer never
     loaded, every check off, --robust, shaders or pipelines left unchecked, records
     lost, the app stopped by you, its end not recorded); --allow-unchecked
     makes it 0
`

// printUsage writes the help text.
func printUsage(w io.Writer) {
	var checks strings.Builder
	for _, c := range gpuav.Checks {
		def := " "
		if c.Default {
			def = "*"
		}
		fmt.Fprintf(&checks, "  %-24s %s %s\n", c.ID, def, c.Title)
	}
	fmt.Fprintf(w, usage, flagUsage(options.Run), flagUsage(options.Open), flagUsage(options.Instrument),
		flagUsage(options.Doctor), checks.String(), envUsage())
}

// main runs one command line and returns the exit status.
func (c *cli) main(args []string) int {
	if len(args) == 0 {
		printUsage(c.stderr)
		return exitLauncher
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "run":
		return c.runCmd("run", rest)
	case "demo":
		return c.runCmd("demo", rest)
	case "open":
		return c.openCmd(rest)
	case "instrument":
		return c.instrumentCmd(rest)
	case "doctor":
		return c.doctorCmd(rest)
	case "version", "--version", "-version":
		c.printVersion()
		return exitOK
	case "help", "--help", "-help", "-h":
		printUsage(c.stdout)
		return exitOK
	default:
		fmt.Fprintf(c.stderr, "gpuav-dbg: unknown command %q; run gpuav-dbg help\n", cmd)
		return exitLauncher
	}
}

// printVersion prints the version and the protocol versions it speaks.
func (c *cli) printVersion() {
	v := version
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 && v == "dev" {
				v = "dev-" + s.Value[:12]
			}
		}
	}
	fmt.Fprintf(c.stdout, "gpuav-dbg %s (wire protocol %d, record format %d)\n", v, wire.ProtocolVersion, gpuav.RecordFormatVersion)
}

// exeDir is the directory of the gpuav-dbg executable, symlinks resolved.
func (c *cli) exeDir() (string, error) {
	exe, err := c.executable()
	if err != nil {
		return "", fmt.Errorf("find gpuav-dbg's executable: %w", err)
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return filepath.Dir(exe), nil
}
