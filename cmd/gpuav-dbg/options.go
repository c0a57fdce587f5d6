package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/options"
)

// optionFlag is the flag of one row of the options table: the text of its
// value, read by the row's parser, once given.
type optionFlag struct {
	o     *options.Option
	text  string
	given bool
}

// String prints the value given ("" before).
func (f *optionFlag) String() string {
	if f == nil {
		return ""
	}
	return f.text
}

// Set reads one value: on|off, or a switch's true|false, for a Bool; the
// row's parser for the others. A value the layer moves into range (and
// says so) is passed as given.
func (f *optionFlag) Set(s string) error {
	switch {
	case f.o.Kind == options.Bool && f.o.FlagArg == "on|off":
		switch s {
		case "on":
			f.text = "1"
		case "off":
			f.text = "0"
		default:
			return fmt.Errorf("%q is not on or off", s)
		}
	case f.o.Kind == options.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return err
		}
		f.text = bool01(b)
	default:
		v, err := f.o.Read(s)
		var adj *options.Adjusted
		switch {
		case errors.As(err, &adj):
			v = strings.TrimSpace(s)
		case err != nil:
			return err
		}
		f.text = v
	}
	f.given = true
	return nil
}

// IsBoolFlag says a Bool without an argument is a switch (--robust).
func (f *optionFlag) IsBoolFlag() bool { return f.o.Kind == options.Bool && f.o.FlagArg == "" }

func bool01(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// optionFlags are the flags of the options table's rows, by key.
type optionFlags map[string]*optionFlag

// register adds to fs the flag of every row of the options table that
// command c takes (options.OptionsOf): custom's value where it has one for
// the row's key (a flag the command itself reads: --printf-at, --mute,
// --source-path, --source-ext), an optionFlag in f otherwise (f nil: every
// row must be custom, an error otherwise).
func (f optionFlags) register(fs *flag.FlagSet, c options.Command, custom map[string]flag.Value) error {
	for _, o := range options.OptionsOf(c) {
		if v, ok := custom[o.Key]; ok {
			fs.Var(v, o.Flag, "")
			continue
		}
		if f == nil {
			return fmt.Errorf("%s does not read --%s of the options table", c, o.Flag)
		}
		f[o.Key] = &optionFlag{o: o}
		fs.Var(f[o.Key], o.Flag, "")
	}
	return nil
}

// apply writes the values given into v.
func (f optionFlags) apply(v *options.Values) {
	for _, of := range f {
		if of.given {
			of.o.Set(v, of.text)
		}
	}
}

// text returns the value of option o's flag, and whether it was given.
func (f optionFlags) text(o *options.Option) (string, bool) {
	if of := f[o.Key]; of != nil && of.given {
		return of.text, true
	}
	return "", false
}

// Usage columns: flags and variables in the first, their help from col.
const (
	usageCol   = 22
	usageWidth = 80
)

// envUsage is the usage of the launcher's environment variables.
func envUsage() string {
	var b strings.Builder
	for _, o := range options.Of(options.Launcher) {
		help := o.Help
		if o.Default != "" {
			help += " (default " + o.Default + ")"
		}
		usageEntry(&b, o.Env, help)
	}
	return b.String()
}

// usageEntry writes "  NAME  help", the help wrapped at usageWidth from
// usageCol (on the next line when NAME reaches it).
func usageEntry(b *strings.Builder, name, help string) {
	line := "  " + name
	if len(line) >= usageCol-1 {
		b.WriteString(line + "\n")
		line = ""
	}
	line += strings.Repeat(" ", usageCol-len(line))
	start := len(line)
	for _, w := range strings.Fields(help) {
		if len(line) > start && len(line)+1+len(w) > usageWidth {
			b.WriteString(line + "\n")
			line = strings.Repeat(" ", usageCol)
			start = len(line)
		}
		if len(line) > start {
			line += " "
		}
		line += w
	}
	b.WriteString(line + "\n")
}
