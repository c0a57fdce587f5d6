// Command instr instruments SPIR-V modules as the layer does with every
// check on (sized-array element checks included) and writes them out, for
// experiments built with overlays of the product's files (it shows what an
// experiment gives the driver):
//
//	go run ./bench/internal/instr [-fast] -o OUTDIR IN.spv...
//
// -fast writes each module's fast variant (gpuav.PreciseSwitch.FastWords),
// which the layer creates a compute pipeline with when it decides the
// facts on the CPU; without it, the precise variant (Result.Words), what
// every other pipeline gets.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

func main() {
	out := flag.String("o", ".", "output directory")
	set := flag.Uint("set", 1, "the layer's descriptor set")
	fast := flag.Bool("fast", false, "write the fast variants")
	flag.Parse()
	if err := run(*out, uint32(*set), *fast, flag.Args()); err != nil {
		fmt.Fprintf(os.Stderr, "instr: %v\n", err)
		os.Exit(1)
	}
}

func run(out string, set uint32, fast bool, files []string) error {
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		words, err := spirv.WordsFromBytes(b)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		res, err := gpuav.Instrument(words, gpuav.Options{ShaderID: uint32(i + 1), DescriptorSet: set, SizedElementChecks: true, Printf: true})
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		facts := 0
		if res.Precise != nil {
			facts = len(res.Precise.Facts)
			if fast {
				res.Words = res.Precise.FastWords
			}
		}
		fmt.Printf("%s: %d checks, %d facts, %d -> %d words (entry point's function %d -> %d)\n", filepath.Base(f), res.ChecksAdded, facts,
			len(words), len(res.Words), entryWords(words), entryWords(res.Words))
		if err := os.WriteFile(filepath.Join(out, filepath.Base(f)), spirv.BytesFromWords(res.Words), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// entryWords counts the words of a module's first entry point's function,
// what instrumentation adds where the shader's code is (the check
// functions it calls are counted in the module's words); 0 when the module
// does not parse.
func entryWords(words []uint32) int {
	m, err := spirv.Parse(words)
	if err != nil || len(m.EntryPoints()) == 0 {
		return 0
	}
	id := m.EntryPoints()[0].Function
	for _, f := range m.Functions {
		if f.Head[0].Words[2] != id {
			continue
		}
		n := len(f.End.Words)
		for _, in := range f.Head {
			n += len(in.Words)
		}
		for _, b := range f.Blocks {
			n += len(b.Label.Words)
			for _, in := range b.Insts {
				n += len(in.Words)
			}
		}
		return n
	}
	return 0
}
