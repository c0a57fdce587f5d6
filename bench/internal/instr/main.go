// Command instr instruments SPIR-V modules as the layer does with every
// check on (sized-array element checks included) and writes them out, for
// the experiments of bench/exp (built with their overlays, it shows what an
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
		res, err := gpuav.Instrument(words, gpuav.Options{ShaderID: uint32(i + 1), DescriptorSet: set, SizedElementChecks: true})
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
		fmt.Printf("%s: %d checks, %d facts, %d -> %d words\n", filepath.Base(f), res.ChecksAdded, facts, len(words), len(res.Words))
		if err := os.WriteFile(filepath.Join(out, filepath.Base(f)), spirv.BytesFromWords(res.Words), 0o644); err != nil {
			return err
		}
	}
	return nil
}
