// Package options is the options table: every setting of gpuav-dbg and its
// layer that is not a check, one row each, as the check registry
// (gpuav.Checks) is for checks. A row says its key, its environment
// variable, its flag, its kind, its default, its help and where it is
// shown; everything that reads or shows settings reads the table:
//
//   - launcher.Env puts the rows the launcher passes into the app's
//     environment (Passed), from the run's settings;
//   - the layer's reader (layer/settings.go, through Read) reads every
//     layer row from the environment, vk_layer_settings.txt and the app's
//     VkLayerSettingsCreateInfoEXT; the test hooks reach the C half through
//     it too;
//   - the manifest generator (layer/internal/genmanifest, go generate
//     ./layer) writes the Manifest rows;
//   - cmd/gpuav-dbg registers the flags and writes their usage;
//   - the TUI's settings pane shows the Pane rows;
//   - README.md's and layer/README.md's settings tables are written from
//     it (go generate ./options; a test fails when they differ).
//
// All adds a row per check (check_<id>, from the registry) before the
// table's own rows. The command line's flags that set no option are the
// rows of a second table, Flags (flags.go). docs/ARCHITECTURE.md says how
// to add an option or a flag.
package options

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// Kind is what values an option takes.
type Kind int

const (
	// Bool: 1, true, on, yes or 0, false, off, no; its text is "1" or "0".
	Bool Kind = iota
	// Uint: an unsigned integer (the row's Parse may take more: 2^N).
	Uint
	// Enum: one of the row's Values.
	Enum
	// String: any text (the row's Parse may check it).
	String
	// List: a separated list (the row's Sep).
	List
	// Duration: an age such as 30d or 12h.
	Duration
	// Size: a number of bytes such as 1GiB or 500MB.
	Size
)

// String names the kind as the README's table shows it.
func (k Kind) String() string {
	return [...]string{"bool", "uint", "enum", "string", "list", "duration", "size"}[k]
}

// ManifestType is the option's type in the layer manifest.
func (o *Option) ManifestType() string {
	switch o.Kind {
	case Bool:
		return "BOOL"
	case Uint:
		return "UINT32"
	case Enum:
		return "ENUM"
	}
	return "STRING"
}

// ManifestDefault is the option's default as the manifest writes it: a
// bool, a number or a string.
func (o *Option) ManifestDefault() any {
	switch o.Kind {
	case Bool:
		return o.Default == "1"
	case Uint:
		n, _ := strconv.ParseUint(o.Default, 10, 64)
		return n
	}
	return o.Default
}

// Scope says which program reads an option.
type Scope int

const (
	// Layer options are read by the layer, in the app's process: the
	// environment, vk_layer_settings.txt, VkLayerSettingsCreateInfoEXT.
	// Their variables start with EnvLayerPrefix.
	Layer Scope = iota
	// Launcher options are read by gpuav-dbg from its own environment.
	// Their variables start with EnvLauncherPrefix.
	Launcher
)

// LayerName is the layer's name: its manifest's, the loader's
// VK_INSTANCE_LAYERS, the pLayerName of the app's VkLayerSettingsCreateInfoEXT;
// lower case without "VK_LAYER_", the prefix of its settings-file keys.
const LayerName = "VK_LAYER_GPUAVDBG_validation"

// Environment variable prefixes: the variable of a row is its prefix and
// its key in upper case.
const (
	EnvLayerPrefix    = "VK_LAYER_GPUAV_DBG_"
	EnvLauncherPrefix = "GPUAV_DBG_"
)

// Where says where an option is shown or carried, beyond its scope's
// reader.
type Where uint

const (
	// Manifest: the layer's manifest lists it (and so vkconfig).
	Manifest Where = 1 << iota
	// Hidden: the manifest marks it HIDDEN (vkconfig does not show it).
	Hidden
	// Pane: the TUI's settings pane switches it for the next run (a Bool
	// or an Enum).
	Pane
	// README: README.md's settings table lists it (layer/README.md's lists
	// every layer row).
	README
	// Hello: the hello carries it (wire.Settings): the session, the JSON
	// report and the TUI know what the layer ran with.
	Hello
	// Passed: the launcher sets it in the app's environment from the
	// run's settings (launcher.Env).
	Passed
)

// Value is one value of an Enum option.
type Value struct {
	Key, Title, Help string
}

// Option is one row of the table.
type Option struct {
	// Key is the option's name: the layer's settings key (manifest,
	// vk_layer_settings.txt, VkLayerSettingsCreateInfoEXT) and the
	// environment variable's stem.
	Key string
	// Env is the environment variable: the scope's prefix and the key in
	// upper case (TestTableRules holds it).
	Env   string
	Scope Scope
	// Flag is the flag of gpuav-dbg run and demo, without its dashes (""
	// none), and FlagArg the argument its usage shows ("" for a switch:
	// --reserve-slot; "on|off", "N"...).
	Flag, FlagArg string
	// Commands are the commands besides run and demo whose command line
	// takes the flag (Open: --source-path...); run and demo take every
	// row's.
	Commands Command
	Kind     Kind
	// Default is the value when nothing says otherwise, as text ("1" or
	// "0" for a Bool; "" for none).
	Default string
	// Values are an Enum's values, the default among them.
	Values []Value
	// Sep separates a List's items (":" or ",").
	Sep string
	// Title names the option in a few words (manifest label).
	Title string
	// Help says what it does (manifest description, README tables, and the
	// usage's environment section for a Launcher row).
	Help string
	// Usage is its flag's help in gpuav-dbg help ("" : Help).
	Usage string
	// Pane is the settings pane's one-line note.
	Pane string
	// Refused says what the layer does with a value it cannot read, after
	// the warning's "; " ("" : "keeping <default>").
	Refused string
	Where   Where
	// TestOnly marks a test hook: read from the environment only (EnvOnly),
	// shown in no manifest and in layer/README.md only as such.
	TestOnly bool
	// NotFromApp: the app's VkLayerSettingsCreateInfoEXT may not set it
	// (the launcher's socket).
	NotFromApp bool
	// EnvOnly: only the environment sets it (no settings file, no app;
	// every TestOnly row is).
	EnvOnly bool
	// Parse reads a value given as text into its canonical text (nil: the
	// kind's). An error refuses it (the default stays, with a warning); an
	// *Adjusted error says the returned value was moved into range.
	Parse func(string) (string, error)
	// get and set read and write the value in Values as text; get's false
	// says the value is not set (the launcher leaves the layer its
	// default). Rows without them keep their value in Settings.Options,
	// by key: the hello, the session and the report carry it as it is.
	get func(*Values) (string, bool)
	set func(*Values, string)
}

// Adjusted is the error of a Parse that moved a value into range: the
// value it returned is used, and Why is said.
type Adjusted struct{ Why string }

func (a *Adjusted) Error() string { return a.Why }

// Values are the values of every option of one run: what the hello
// carries (wire.Settings, the checks included) and what only the layer
// reads.
type Values struct {
	wire.Settings
	// WarnRobust: buffer_oob and texel_buffer_oob run, as warnings, on
	// devices with robustBufferAccess.
	WarnRobust bool
	// SizedElementChecks: descriptor_uninitialized and
	// descriptor_destroyed on sized arrays and plain bindings too.
	SizedElementChecks bool
	// Socket is the launcher's socket ("": report to stderr).
	Socket string
	// CPUProfile is the file of the layer's Go CPU profile ("": none).
	CPUProfile string
	// CacheDir is where the layer keeps its shadow caches ("": the
	// default directory; "off": none).
	CacheDir string
	// Test are the test hooks.
	Test TestHooks
}

// TestHooks are the values of the test-only rows, for the C half.
type TestHooks struct {
	// FailAlloc: the Nth buffer allocation of the layer in the process
	// fails (0: none).
	FailAlloc uint64
	// MaxDrawIndirectCount replaces the device's maxDrawIndirectCount
	// (-1: it does not).
	MaxDrawIndirectCount int64
	// Binds: each command buffer's end logs its actions and the layer's
	// binds.
	Binds bool
}

// Text returns the option's value in v as text, its default when v does
// not set it.
func (o *Option) Text(v *Values) string {
	if s, ok := o.lookup(v); ok {
		return s
	}
	return o.Default
}

// IsSet reports whether v sets the option.
func (o *Option) IsSet(v *Values) bool {
	_, ok := o.lookup(v)
	return ok
}

func (o *Option) lookup(v *Values) (string, bool) {
	if o.get != nil {
		return o.get(v)
	}
	s, ok := v.Options[o.Key]
	return s, ok
}

// Set writes a value, as canonical text (Parse's), into v.
func (o *Option) Set(v *Values, text string) {
	if o.set != nil {
		o.set(v, text)
		return
	}
	if v.Options == nil {
		v.Options = map[string]string{}
	}
	v.Options[o.Key] = text
}

// Bool returns a Bool option's value in v.
func (o *Option) Bool(v *Values) bool { return o.Text(v) == "1" }

// Uint returns a Uint option's value in v (0 when unset and without a
// default).
func (o *Option) Uint(v *Values) uint64 {
	n, _ := strconv.ParseUint(o.Text(v), 10, 64)
	return n
}

// Read parses a value of the option given as text: its canonical text,
// or an error (an *Adjusted error with a value to use).
func (o *Option) Read(text string) (string, error) {
	text = strings.TrimSpace(text)
	if o.Parse != nil {
		return o.Parse(text)
	}
	switch o.Kind {
	case Bool:
		return parseBool(text)
	case Uint:
		n, err := strconv.ParseUint(text, 0, 64)
		if err != nil {
			return "", fmt.Errorf("%q is not a number", text)
		}
		return strconv.FormatUint(n, 10), nil
	case Enum:
		for _, v := range o.Values {
			if strings.EqualFold(v.Key, text) {
				return v.Key, nil
			}
		}
		return "", fmt.Errorf("%q is not one of %s", text, o.ValueKeys("|"))
	}
	return text, nil
}

// HasKey reports whether a settings file or the app may set the option by
// its key.
func (o *Option) HasKey() bool { return o.Scope == Layer && !o.TestOnly && !o.EnvOnly }

// ValueKeys lists an Enum's value keys, separated by sep.
func (o *Option) ValueKeys(sep string) string {
	var keys []string
	for _, v := range o.Values {
		keys = append(keys, v.Key)
	}
	return strings.Join(keys, sep)
}

// parseBool reads a boolean as the layer always has.
func parseBool(s string) (string, error) {
	switch strings.ToLower(s) {
	case "1", "true", "on", "yes":
		return "1", nil
	case "0", "false", "off", "no":
		return "0", nil
	}
	return "", errNotBool
}

var errNotBool = errors.New("not a boolean")

// bool01 is a Bool's text.
func bool01(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// All returns every option: one per check of the registry (check_<id>),
// then the table's rows, in the order users see them.
func All() []*Option { return append(checkRows(), Table...) }

// ByKey returns the option of a key, or nil.
func ByKey(key string) *Option {
	for _, o := range All() {
		if o.Key == key {
			return o
		}
	}
	return nil
}

// Of returns the options of a scope, test hooks included.
func Of(s Scope) []*Option {
	var out []*Option
	for _, o := range All() {
		if o.Scope == s {
			out = append(out, o)
		}
	}
	return out
}

// With returns the options shown or carried in w.
func With(w Where) []*Option {
	var out []*Option
	for _, o := range All() {
		if o.Where&w == w {
			out = append(out, o)
		}
	}
	return out
}

// WithExtra adds rows at the end of the table until restore is called:
// for the tests that hold that every reader of the table reads a new row.
func WithExtra(rows ...*Option) (restore func()) {
	old := Table
	Table = append(slices.Clone(old), rows...)
	return func() { Table = old }
}
