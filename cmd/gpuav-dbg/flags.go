package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session"
)

// runFlags are the flags of run and demo.
type runFlags struct {
	headless    bool
	jsonOut     string
	sarifOut    string
	sessionPath string
	checks      checkFlag
	// opts are the flags of the options table's rows (--reserve-slot,
	// --on-error, --robust, --loop-budget, --printf, --printf-buffer...)
	// but those read here: their values once given.
	opts    optionFlags
	theme   string
	noColor bool
	// sourcePath is --source-path, repeated or colon-separated: where to
	// read source files the shaders name but do not carry.
	sourcePath pathListFlag
	// sourceExt is --source-ext: file name extensions read as shader
	// sources besides sourcemap.SourceExtensions.
	sourceExt pathListFlag
	// allowUnchecked: a run that did not check everything exits 0.
	allowUnchecked bool
	// printfAt is --printf-at: the printf lines the headless output and
	// the UI show (and the layer's printf_at).
	printfAt printfFilterFlag
	// reportMode is --report-mode: the JSON and SARIF files' mode.
	reportMode modeFlag
	// mute is --mute: check ids and VUIDs whose groups the UI hides and
	// the headless output counts without listing.
	mute muteFlag
}

// custom are the flags of rows of the options table that the command
// reads itself, by key.
func (f *runFlags) custom() map[string]flag.Value {
	return map[string]flag.Value{options.PrintfAt.Key: &f.printfAt, options.Mute.Key: &f.mute,
		options.SourcePath.Key: &f.sourcePath, options.SourceExt.Key: &f.sourceExt}
}

// vars are the variables of run's rows of the flag table
// (options.Flags), by name.
func (f *runFlags) vars() map[string]any {
	return map[string]any{"headless": &f.headless, "json": &f.jsonOut, "sarif": &f.sarifOut,
		"allow-unchecked": &f.allowUnchecked, "report-mode": &f.reportMode, "session": &f.sessionPath,
		"check": f.checks, "theme": &f.theme, "no-color": &f.noColor}
}

// muteFlag collects --mute ID|VUID, repeated or comma-separated: a check
// id, or a VUID (VUID-..., UNASSIGNED-...), as the Khronos layer's
// message_id_filter takes them.
type muteFlag []string

// String prints the list comma-separated.
func (f *muteFlag) String() string { return strings.Join(*f, ",") }

// Set adds the comma-separated ids of one flag.
func (f *muteFlag) Set(s string) error {
	for _, id := range strings.Split(s, ",") {
		id = strings.TrimSpace(id)
		switch {
		case id == "":
		case slices.Contains(gpuav.AllChecks, id), strings.HasPrefix(id, "VUID-"), strings.HasPrefix(id, "UNASSIGNED-"):
			if !slices.Contains(*f, id) {
				*f = append(*f, id)
			}
		default:
			return fmt.Errorf("%q is neither a check (%s) nor a VUID (VUID-..., UNASSIGNED-...)", id, joinIDs(gpuav.AllChecks))
		}
	}
	return nil
}

// modeFlag is a file mode in octal ("0644"); it starts as the session
// file's, 0600.
type modeFlag os.FileMode

// String prints the mode in octal.
func (f *modeFlag) String() string { return fmt.Sprintf("%#o", os.FileMode(*f)) }

// Set reads an octal mode of at most 0777.
func (f *modeFlag) Set(s string) error {
	v, err := strconv.ParseUint(s, 8, 32)
	if err != nil || v > 0o777 {
		return fmt.Errorf("want an octal file mode such as 0644, got %q", s)
	}
	*f = modeFlag(v)
	return nil
}

// pathListFlag collects directories from a repeated, colon-separated flag.
type pathListFlag []string

// String prints the list colon-separated.
func (f *pathListFlag) String() string { return strings.Join(*f, ":") }

// Set adds the colon-separated directories of one flag.
func (f *pathListFlag) Set(s string) error {
	for _, d := range filepath.SplitList(s) {
		if d != "" {
			*f = append(*f, d)
		}
	}
	return nil
}

// settingsOnError returns what a failed access does: --on-error, clamp
// under --robust (which another --on-error contradicts), else the default.
func (f *runFlags) settingsOnError() (gpuav.OnError, error) {
	text, _ := f.opts.text(options.OnError)
	v := gpuav.OnError(text)
	if robust, _ := f.opts.text(options.Robust); robust == "1" {
		if v != "" && v != gpuav.OnErrorClamp {
			return "", fmt.Errorf("--robust clamps every failed access: --on-error %s contradicts it", v)
		}
		return gpuav.OnErrorClamp, nil
	}
	return gpuav.OnErrorOrDefault(v), nil
}

// settings returns the run's settings from the flags: the checks, and
// every option a flag gave (the others are left to the layer's defaults).
func (f *runFlags) settings() (session.Settings, error) {
	onError, err := f.settingsOnError()
	if err != nil {
		return session.Settings{}, err
	}
	v := options.Values{Settings: session.Settings{Checks: f.settingsChecks()}}
	f.opts.apply(&v)
	options.OnError.Set(&v, string(onError))
	options.PrintfAt.Set(&v, f.printfAt.f.String())
	return v.Settings, nil
}

// checkFlag collects --check ID=on|off.
type checkFlag map[string]bool

// String prints the flag's value.
func (f checkFlag) String() string {
	var parts []string
	for _, id := range gpuav.AllChecks {
		if v, ok := f[id]; ok {
			parts = append(parts, fmt.Sprintf("%s=%s", id, onOff(v)))
		}
	}
	return strings.Join(parts, ",")
}

// Set parses one ID=on|off.
func (f checkFlag) Set(s string) error {
	id, val, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("%q: want ID=on or ID=off", s)
	}
	var on bool
	switch strings.ToLower(strings.TrimSpace(val)) {
	case "on", "1", "true", "yes":
		on = true
	case "off", "0", "false", "no":
		on = false
	default:
		return fmt.Errorf("%q: value %q is not on or off", s, val)
	}
	id = strings.TrimSpace(id)
	if id == "all" {
		for _, c := range gpuav.AllChecks {
			f[c] = on
		}
		return nil
	}
	if !slices.Contains(gpuav.AllChecks, id) {
		return fmt.Errorf("unknown check %q (checks: %s)", id, joinIDs(gpuav.AllChecks))
	}
	f[id] = on
	return nil
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func joinIDs(ids []string) string { return strings.Join(ids, ", ") }

// settingsChecks returns every check's state: its registry default
// (gpuav.Checks, the layer's own defaults) unless a flag said otherwise.
func (f *runFlags) settingsChecks() map[string]bool {
	m := map[string]bool{}
	for _, id := range gpuav.AllChecks {
		m[id] = slices.Contains(gpuav.DefaultChecks, id)
		if v, ok := f.checks[id]; ok {
			m[id] = v
		}
	}
	return m
}

// parseRunFlags parses run's flags; it stops at the first non-flag
// argument (the app) or after "--".
func parseRunFlags(name string, args []string, stderr io.Writer) (*runFlags, []string, error) {
	f := &runFlags{checks: checkFlag{}, opts: optionFlags{}}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := bindFlags(fs, options.Run, f.vars()); err != nil {
		return nil, nil, err
	}
	if err := f.opts.register(fs, options.Run, f.custom()); err != nil {
		return nil, nil, err
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stderr)
		}
		return nil, nil, err
	}
	if err := fileFlags(map[string]string{"json": f.jsonOut, "sarif": f.sarifOut, "session": f.sessionPath}); err != nil {
		return nil, nil, err
	}
	return f, fs.Args(), nil
}

// fileFlags refuses a file flag whose value looks like a flag: "--json --"
// took "--" for the file name (and "--json --headless" would take
// "--headless"). "-" (standard output) is the one value of that shape a
// flag may have, where it has a meaning; a file whose name starts with "-"
// is given as ./-name.
func fileFlags(values map[string]string) error {
	for _, name := range []string{"json", "sarif", "session"} {
		v := values[name]
		if v == "-" && name != "session" || !strings.HasPrefix(v, "-") {
			continue
		}
		return fmt.Errorf("--%s wants a file name, not %q: give --%s FILE (%s./%s for a file of that name)",
			name, v, name, map[bool]string{true: "- for standard output, ", false: ""}[name != "session"], strings.TrimLeft(v, "-"))
	}
	return nil
}

// openFlags are the flags of open.
type openFlags struct {
	jsonOut  string
	sarifOut string
	// list: list the saved runs (of the app named by the argument, if any).
	list bool
	// prune: delete the saved runs past the retention caps.
	prune    bool
	headless bool
	theme    string
	noColor  bool
	// sourcePath is --source-path: where to look for shader sources that
	// moved since the run (after the directories the session recorded).
	sourcePath pathListFlag
	// sourceExt is --source-ext (see runFlags).
	sourceExt pathListFlag
	// allowUnchecked: a headless open of a session that did not check
	// everything exits 0.
	allowUnchecked bool
	// printfAt is --printf-at (runFlags.printfAt).
	printfAt printfFilterFlag
	// reportMode is --report-mode (see runFlags).
	reportMode modeFlag
	// mute is --mute (see runFlags).
	mute muteFlag
}

// vars are the variables of open's rows of the flag table, by name.
func (f *openFlags) vars() map[string]any {
	return map[string]any{"headless": &f.headless, "json": &f.jsonOut, "sarif": &f.sarifOut,
		"allow-unchecked": &f.allowUnchecked, "report-mode": &f.reportMode, "theme": &f.theme,
		"no-color": &f.noColor, "list": &f.list, "prune": &f.prune}
}

// custom are the flags of the options table's rows that open takes, all
// read by the command itself, by key.
func (f *openFlags) custom() map[string]flag.Value {
	return map[string]flag.Value{options.PrintfAt.Key: &f.printfAt, options.Mute.Key: &f.mute,
		options.SourcePath.Key: &f.sourcePath, options.SourceExt.Key: &f.sourceExt}
}

// parseOpenFlags parses open's flags, before or after FILE.
func parseOpenFlags(args []string, stderr io.Writer) (*openFlags, []string, error) {
	f := &openFlags{}
	fs := flag.NewFlagSet("open", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := bindFlags(fs, options.Open, f.vars()); err != nil {
		return nil, nil, err
	}
	if err := optionFlags(nil).register(fs, options.Open, f.custom()); err != nil {
		return nil, nil, err
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printUsage(stderr)
			}
			return nil, nil, err
		}
		if err := fileFlags(map[string]string{"json": f.jsonOut, "sarif": f.sarifOut}); err != nil {
			return nil, nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	return f, pos, nil
}
