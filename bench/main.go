// Command bench is the benchmark harness of gpuav-dbg (issue #7). It runs
// each scene of bin/bench/scene with no layer, with our layer (its
// defaults: every check) and with the Khronos validation layer with
// only GPU-AV on (and a second Khronos version with -khronos2-layer-path),
// alternating in one run for several repetitions, plus the scenes'
// hand-checked reference variants with no layer; it prints the medians and
// the ratios to no layer and writes them into a marked section of
// docs/BENCHMARKS.md.
//
//	go run ./bench -preset lavapipe -write docs/BENCHMARKS.md
//	bin/bench/harness -preset gpu -json results.json -md table.md
//	go run ./bench -render results.json -section nvidia -write docs/BENCHMARKS.md
//	go run ./bench -render timed.json,pipeline.json -section nvidia -write docs/BENCHMARKS.md
//
// Before timing, it checks every scene: a clean run under `gpuav-dbg run
// --headless --json` must report zero errors, and a run with --oob (every
// descriptor index out of bounds) must report some under our layer and
// under the Khronos layer, so neither layer can be silently off. The timed
// runs must print "check ok" (the results are right) and no errors.
//
// The harness does not use cgo: it is built static (make bench-apps) so it
// can be carried to a machine without Go.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// commit is set at link time (make bench-apps) to the source revision.
var commit = ""

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	preset := fs.String("preset", "lavapipe", "sizes: lavapipe (a CPU Vulkan on few cores) or gpu (the issue's sizes)")
	reps := fs.Int("reps", 3, "repetitions; each runs every configuration once per scene")
	scenes := fs.String("scenes", "dispatch,shader,draw,draw_indirect,hotloop-masked,hotloop-memory,pipeline", "comma-separated scenes to run")
	binDir := fs.String("bin", "bin", "directory of gpuav-dbg, the layer and bench/scene")
	khronosPath := fs.String("khronos-layer-path", "", "directory of VkLayer_khronos_validation.json (empty: the loader's search path)")
	khronosManifest := fs.String("khronos-manifest", "/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json",
		"Khronos layer manifest to read its version from (with -khronos-layer-path, the one there)")
	khronos2Path := fs.String("khronos2-layer-path", "", "directory of a second Khronos layer's manifest (e.g. 1.4.309), run as a fifth configuration")
	configs := fs.String("configs", "", "comma-separated configurations to run (default: none,gpuav-dbg,khronos and khronos2 with -khronos2-layer-path; gpuav-dbg-all switches every check on explicitly)")
	skipChecks := fs.Bool("skip-checks", false, "skip the correctness runs before timing")
	warmup := fs.Int("warmup", -1, "warm-up iterations of every scene run (default: the preset's)")
	iters := fs.Int("iters", -1, "timed iterations of every scene run (default: the preset's)")
	jsonOut := fs.String("json", "", "write the results as JSON to this file")
	mdOut := fs.String("md", "", "write the section's markdown to this file")
	write := fs.String("write", "", "update this markdown file's section (e.g. docs/BENCHMARKS.md)")
	section := fs.String("section", "", "section to write: lavapipe or nvidia (default: lavapipe for -preset lavapipe, nvidia for gpu)")
	render := fs.String("render", "", "do not run: render these results JSON files (comma-separated; one section, their tables in order)")
	command := fs.String("command", "", "the command to print in the doc (default: the harness's own command line)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}

	var res *Results
	var parts []*Results // -render's files, each its own tables
	if *render != "" {
		for _, file := range strings.Split(*render, ",") {
			r, err := readResults(file)
			if err != nil {
				return err
			}
			parts = append(parts, r)
		}
		if len(parts) > 1 && *jsonOut != "" {
			return fmt.Errorf("-json takes one results file, -render has %d", len(parts))
		}
		res = parts[0]
	} else {
		p, ok := Presets[*preset]
		if !ok {
			return fmt.Errorf("unknown preset %q (lavapipe or gpu)", *preset)
		}
		if *reps < 1 {
			return fmt.Errorf("-reps must be at least 1")
		}
		var list []SceneSpec
		for _, name := range strings.Split(*scenes, ",") {
			s, ok := p.Scene(strings.TrimSpace(name))
			if !ok {
				return fmt.Errorf("unknown scene %q", name)
			}
			if *warmup >= 0 {
				s.Warmup = *warmup
			}
			if *iters > 0 {
				s.Iters = *iters
			}
			list = append(list, s)
		}
		cmd := *command
		if cmd == "" {
			cmd = "bin/bench/harness " + strings.Join(args, " ")
		}
		manifest := *khronosManifest
		if *khronosPath != "" && !flagSet(fs, "khronos-manifest") {
			manifest = filepath.Join(*khronosPath, "VkLayer_khronos_validation.json")
		}
		h, err := NewHarness(*binDir, *khronosPath, *khronos2Path)
		if err != nil {
			return err
		}
		if *configs != "" {
			if err := h.Only(strings.Split(*configs, ",")); err != nil {
				return err
			}
		}
		res = &Results{
			Preset:  *preset,
			Date:    time.Now().UTC().Format("2006-01-02"),
			Machine: MachineInfo(),
			Layers: LayerInfo{
				Ours:    ourVersion(*binDir),
				Khronos: KhronosVersion(manifest),
			},
			Command: cmd,
			Reps:    *reps,
			Configs: h.configs(),
		}
		if *khronos2Path != "" {
			res.Layers.Khronos2 = KhronosVersion(filepath.Join(*khronos2Path, "VkLayer_khronos_validation.json"))
		}
		load := LoadAvg()
		if !*skipChecks {
			for _, s := range list {
				notes, err := h.Check(s)
				if err != nil {
					return err
				}
				res.Checks = append(res.Checks, notes...)
			}
		}
		for _, s := range list {
			sr, err := h.Time(s, *reps, res)
			if err != nil {
				return err
			}
			res.Scenes = append(res.Scenes, sr)
			fmt.Print(FormatScene(sr))
			res.Machine.Load = load + " at the start, " + LoadAvg() + " at the end"
			// Keep what is done so far, should a later scene fail or time out.
			if err := writeFiles(res, *jsonOut, *mdOut); err != nil {
				return err
			}
		}
	}

	sec := *section
	if sec == "" {
		sec = "lavapipe"
		if res.Preset == "gpu" {
			sec = "nvidia"
		}
	}
	if sec != "lavapipe" && sec != "nvidia" {
		return fmt.Errorf("unknown section %q (lavapipe or nvidia)", sec)
	}
	md := Markdown(res)
	if err := writeFiles(res, *jsonOut, *mdOut); err != nil {
		return err
	}
	if len(parts) > 1 {
		var mds []string
		for _, r := range parts {
			mds = append(mds, Markdown(r))
		}
		md = strings.Join(mds, "\n")
		if *mdOut != "" {
			if err := os.WriteFile(*mdOut, []byte(md), 0o644); err != nil {
				return fmt.Errorf("write markdown: %w", err)
			}
		}
	}
	if *write != "" {
		doc, err := os.ReadFile(*write)
		if err != nil {
			return fmt.Errorf("read %s: %w", *write, err)
		}
		out, err := ReplaceSection(string(doc), sec, md)
		if err != nil {
			return fmt.Errorf("%s: %w", *write, err)
		}
		if err := os.WriteFile(*write, []byte(out), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", *write, err)
		}
		fmt.Printf("bench: wrote the %s section of %s\n", sec, *write)
	}
	if *render == "" && *write == "" && *mdOut == "" {
		fmt.Print(md)
	}
	return nil
}

// readResults reads a results file (-json).
func readResults(file string) (*Results, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	res := new(Results)
	if err := json.Unmarshal(b, res); err != nil {
		return nil, fmt.Errorf("results %s: %w", file, err)
	}
	if len(res.Scenes) == 0 {
		return nil, fmt.Errorf("results %s: no scenes", file)
	}
	return res, nil
}

// writeFiles writes the results as JSON and as markdown, where asked.
func writeFiles(res *Results, jsonOut, mdOut string) error {
	if jsonOut != "" {
		b, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return fmt.Errorf("encode results: %w", err)
		}
		if err := os.WriteFile(jsonOut, append(b, '\n'), 0o644); err != nil {
			return fmt.Errorf("write results: %w", err)
		}
	}
	if mdOut != "" {
		if err := os.WriteFile(mdOut, []byte(Markdown(res)), 0o644); err != nil {
			return fmt.Errorf("write markdown: %w", err)
		}
	}
	return nil
}

func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// ErrNoMarkers says the document lacks the section's markers.
var ErrNoMarkers = errors.New("section markers not found")
