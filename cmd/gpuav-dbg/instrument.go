package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// instrumentCmd runs `gpuav-dbg instrument [--checks none|all|ID,...]
// [--set N] [--shader-id N] -o OUT.spv IN.spv`: the layer's instrumentation
// offline, for inspecting what the driver gets. With --checks none the
// module is parsed and encoded back, byte-identical. A file that is not
// SPIR-V gives one line and exit status 2.
func (c *cli) instrumentCmd(args []string) int {
	fs := flag.NewFlagSet("instrument", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var checks, out string
	var set, shaderID uint
	var pf onOffFlag
	if err := bindFlags(fs, options.Instrument, map[string]any{"checks": &checks, "o": &out, "set": &set,
		"shader-id": &shaderID, "printf": &pf}); err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: instrument: %v\n", err)
		return exitLauncher
	}
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: instrument: %v\n", err)
		return exitLauncher
	}
	if out == "" || fs.NArg() != 1 {
		fmt.Fprintf(c.stderr, "gpuav-dbg: instrument: usage: gpuav-dbg instrument [flags] -o OUT.spv IN.spv (gpuav-dbg help lists the flags)\n")
		return exitLauncher
	}
	in := fs.Arg(0)
	enabled, err := parseChecks(checks)
	if err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: instrument: %v\n", err)
		return exitLauncher
	}
	b, err := os.ReadFile(in)
	if err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: instrument: %v\n", err)
		return exitLauncher
	}
	words, err := spirv.WordsFromBytes(b)
	if err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: instrument: %s: %v\n", in, err)
		return exitLauncher
	}
	bigEndian := binary.LittleEndian.Uint32(b) != spirv.MagicNumber
	m, err := spirv.Parse(words)
	if err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: instrument: %s: %v\n", in, err)
		return exitLauncher
	}
	result := m.Encode()
	if len(enabled) > 0 {
		// The layer's defaults: the element checks on sized arrays too.
		res, err := gpuav.Instrument(words, gpuav.Options{ShaderID: uint32(shaderID), DescriptorSet: uint32(set), Checks: enabled,
			SizedElementChecks: true, Printf: bool(pf)})
		if err != nil {
			fmt.Fprintf(c.stderr, "gpuav-dbg: instrument: %s: %v\n", in, err)
			return exitLauncher
		}
		for _, w := range res.Warnings {
			fmt.Fprintf(c.stderr, "gpuav-dbg: instrument: %s: warning: %s\n", in, w)
		}
		for _, n := range res.Notes {
			fmt.Fprintf(c.stderr, "gpuav-dbg: instrument: %s: %s\n", in, n)
		}
		result = res.Words
	}
	if bigEndian {
		result = append([]uint32(nil), result...)
		spirv.SwapWords(result)
	}
	if err := os.WriteFile(out, spirv.BytesFromWords(result), 0o644); err != nil {
		fmt.Fprintf(c.stderr, "gpuav-dbg: instrument: %v\n", err)
		return exitLauncher
	}
	return exitOK
}

// parseChecks reads --checks: none (an empty map: nothing on), all (every
// check on), or a comma-separated list of check ids.
func parseChecks(s string) (map[string]bool, error) {
	on := map[string]bool{}
	switch s {
	case "none":
		return on, nil
	case "all":
		for _, id := range gpuav.AllChecks {
			on[id] = true
		}
		return on, nil
	}
	known := map[string]bool{}
	for _, id := range gpuav.AllChecks {
		known[id] = true
	}
	for _, id := range strings.Split(s, ",") {
		if !known[id] {
			return nil, fmt.Errorf("unknown check %q (checks: %s)", id, joinIDs(gpuav.AllChecks))
		}
		on[id] = true
	}
	return on, nil
}
