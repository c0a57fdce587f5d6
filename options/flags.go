package options

import (
	"fmt"
	"slices"
	"strings"
)

// Command is a set of gpuav-dbg's commands, for the flags they take.
type Command uint

const (
	// Run is run and demo.
	Run Command = 1 << iota
	// Open is open (a saved session or report, --list, --prune).
	Open
	// Instrument is instrument (a module offline).
	Instrument
	// Doctor is doctor.
	Doctor
)

// String lists the commands of c as usage names them ("run and demo",
// "open"...), joined by ", ".
func (c Command) String() string {
	var out []string
	for i, n := range []string{"run and demo", "open", "instrument", "doctor"} {
		if c&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return strings.Join(out, ", ")
}

// Flag is one flag of the command line that sets no option: what the
// command itself does (--headless, --json, --session, --check...). The
// flags of the options table's rows (Option.Flag) are the others; a flag
// is in one table or the other, never both (TestFlagTableRules).
type Flag struct {
	// Name is the flag without its dashes; usage and README show one dash
	// for a one-letter name (-o), two otherwise.
	Name string
	// Arg is the argument usage shows ("" for a switch).
	Arg string
	// Default is the value when the flag is not given, as text ("" none):
	// the command sets its variable from it.
	Default string
	// Help is the flag's help in usage and README.md's flag table.
	Help string
	// Commands are the commands that take it.
	Commands Command
	// Internal: a flag between gpuav-dbg and itself (the probe child),
	// shown nowhere.
	Internal bool
}

// Flags are the command line's own flags, in the order usage shows them.
var Flags = []*Flag{
	{Name: "headless", Commands: Run | Open, Help: "no UI: print one line per error group to stderr, and per debugPrintfEXT " +
		"call its distinct texts (or with --printf-at the lines there)"},
	{Name: "json", Arg: "OUT.json", Commands: Run | Open, Help: `write the JSON report to OUT.json ("-" for stdout; ` +
		"the app's own stdout then goes to stderr)"},
	{Name: "sarif", Arg: "OUT.sarif", Commands: Run | Open, Help: "write a SARIF 2.1.0 log (results at the shader source " +
		"lines, paths relative to the git top-level)"},
	{Name: "allow-unchecked", Commands: Run | Open, Help: "exit 0, not 4, when not everything was checked"},
	{Name: "report-mode", Arg: "MODE", Default: "0600", Commands: Run | Open, Help: "the JSON and SARIF files' mode, " +
		"octal (default 0600, the session file's: they hold the same source lines)"},
	{Name: "session", Arg: "FILE", Commands: Run, Help: "write the session to FILE (default: " +
		"$XDG_STATE_HOME/gpuav-dbg/sessions/<app>-<time>.gvs)"},
	{Name: "check", Arg: "ID=on|off", Commands: Run, Help: `turn a check on or off (repeatable; ID "all" for every check)`},
	{Name: "theme", Arg: "NAME", Default: "auto", Commands: Run | Open, Help: "UI theme: auto, dark, light, high-contrast"},
	{Name: "no-color", Commands: Run | Open, Help: "UI without colours"},
	{Name: "list", Commands: Open, Help: "list the saved runs (of the APP argument, if any), oldest first, with sizes"},
	{Name: "prune", Commands: Open, Help: "delete the saved runs past the caps (oldest first)"},
	{Name: "checks", Arg: "none|all|ID,...", Default: "all", Commands: Instrument, Help: "checks to add: none (the " +
		"module parsed and encoded back, byte-identical), all, or a comma-separated list of check ids"},
	{Name: "o", Arg: "OUT.spv", Commands: Instrument, Help: "the output file (required)"},
	{Name: "set", Arg: "N", Default: "7", Commands: Instrument, Help: "the descriptor-set slot of the layer"},
	{Name: "shader-id", Arg: "N", Default: "1", Commands: Instrument, Help: "the shader id written into records"},
	{Name: "printf", Arg: "on|off", Default: "on", Commands: Instrument, Help: "on: debugPrintfEXT calls write lines, " +
		"as in the layer; off: they are removed"},
	{Name: "json", Commands: Doctor, Help: "print the report as JSON"},
	{Name: "probe", Commands: Doctor, Internal: true, Help: "the device probe's child process"},
}

// FlagsOf returns the flags command c takes (all of c's commands), the
// internal ones included.
func FlagsOf(c Command) []*Flag {
	var out []*Flag
	for _, f := range Flags {
		if f.Commands&c == c {
			out = append(out, f)
		}
	}
	return out
}

// OptionsOf returns the options table's rows whose flag command c takes:
// run and demo take every row's flag, another command those rows that
// name it in Commands.
func OptionsOf(c Command) []*Option {
	var out []*Option
	for _, o := range All() {
		if o.Flag != "" && (c == Run || o.Commands&c == c) {
			out = append(out, o)
		}
	}
	return out
}

// Usage is the flag's name and argument as usage shows them
// ("--json OUT.json", "-o OUT.spv").
func (f *Flag) Usage() string {
	s := "--" + f.Name
	if len(f.Name) == 1 {
		s = "-" + f.Name
	}
	if f.Arg != "" {
		s += " " + f.Arg
	}
	return s
}

// WithExtraFlags adds rows at the end of the flag table until restore is
// called: for the tests that hold that every reader reads a new row.
func WithExtraFlags(rows ...*Flag) (restore func()) {
	old := Flags
	Flags = append(slices.Clone(old), rows...)
	return func() { Flags = old }
}

// README markers of the flag table.
const (
	FlagTableBegin = "<!-- flags:begin (go generate ./options) -->"
	FlagTableEnd   = "<!-- flags:end -->"
)

// FlagMarkdown is README.md's flag table: the command line's own flags
// (the settings' flags are in the settings table, Markdown).
func FlagMarkdown() string {
	var b strings.Builder
	b.WriteString("| flag | of | what it does |\n|---|---|---|\n")
	for _, f := range Flags {
		if !f.Internal {
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", cell(f.Usage()), f.Commands, cell(f.Help))
		}
	}
	return b.String()
}
