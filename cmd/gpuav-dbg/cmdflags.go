package main

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/options"
)

// bindFlags registers on fs the flags command c takes: each row of the
// flag table (options.Flags) bound to its variable in vars, by the row's
// name (a *bool, *string, *uint or flag.Value), starting at the row's
// default. A row without a variable, or a variable without a row, is an
// error: the table and the parsers name the same flags.
func bindFlags(fs *flag.FlagSet, c options.Command, vars map[string]any) error {
	rows := options.FlagsOf(c)
	for _, r := range rows {
		v, ok := vars[r.Name]
		if !ok {
			return fmt.Errorf("%s does not read %s of the flag table (options.Flags)", c, r.Usage())
		}
		if err := bindFlag(fs, r, v); err != nil {
			return fmt.Errorf("%s: %w", r.Usage(), err)
		}
	}
	for name := range vars {
		if !slices.ContainsFunc(rows, func(r *options.Flag) bool { return r.Name == name }) {
			return fmt.Errorf("%s reads --%s, which the flag table (options.Flags) lacks for it", c, name)
		}
	}
	return nil
}

// bindFlag registers one row's flag on its variable.
func bindFlag(fs *flag.FlagSet, r *options.Flag, v any) error {
	switch p := v.(type) {
	case *bool:
		b := false
		if r.Default != "" {
			var err error
			if b, err = strconv.ParseBool(r.Default); err != nil {
				return fmt.Errorf("default %q: %w", r.Default, err)
			}
		}
		fs.BoolVar(p, r.Name, b, "")
	case *string:
		fs.StringVar(p, r.Name, r.Default, "")
	case *uint:
		n := uint64(0)
		if r.Default != "" {
			var err error
			if n, err = strconv.ParseUint(r.Default, 0, 0); err != nil {
				return fmt.Errorf("default %q: %w", r.Default, err)
			}
		}
		fs.UintVar(p, r.Name, uint(n), "")
	case flag.Value:
		if r.Default != "" {
			if err := p.Set(r.Default); err != nil {
				return fmt.Errorf("default %q: %w", r.Default, err)
			}
		}
		fs.Var(p, r.Name, "")
	default:
		return fmt.Errorf("a variable of type %T", v)
	}
	return nil
}

// flagUsage is the usage of command c's flags, one paragraph each: the
// flag table's rows, then the options table's (their help: the row's Usage,
// else its Help; a launcher row's variable named).
func flagUsage(c options.Command) string {
	var b strings.Builder
	for _, r := range options.FlagsOf(c) {
		if !r.Internal {
			usageEntry(&b, r.Usage(), r.Help)
		}
	}
	for _, o := range options.OptionsOf(c) {
		name := "--" + o.Flag
		if o.FlagArg != "" {
			name += " " + o.FlagArg
		}
		help := o.Usage
		if help == "" {
			help = o.Help
		}
		if o.Scope == options.Launcher && o.Env != "" {
			help += " (also " + o.Env + ")"
		}
		usageEntry(&b, name, help)
	}
	return b.String()
}
