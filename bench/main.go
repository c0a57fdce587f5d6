// Command bench is the benchmark harness of gpuav-dbg (docs/BENCHMARKS.md). It runs
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

// options are the harness's flags.
type options struct {
	preset, scenes, binDir                 string
	khronosPath, khronosManifest           string
	khronos2Path, configs                  string
	jsonOut, mdOut, write, section, render string
	command                                string
	reps, warmup, iters                    int
	skipChecks, khronosManifestSet         bool
	args                                   []string
}

func run(args []string) error {
	o, err := parseFlags(args)
	if err != nil {
		return err
	}
	var res *Results
	var parts []*Results // -render's files, each its own tables
	if o.render != "" {
		if parts, err = readParts(o.render, o.jsonOut); err != nil {
			return err
		}
		res = parts[0]
	} else if res, err = measure(o); err != nil {
		return err
	}
	return output(o, res, parts)
}

// parseFlags reads the command line.
func parseFlags(args []string) (options, error) {
	o := options{args: args}
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.StringVar(&o.preset, "preset", "lavapipe", "sizes: lavapipe (a CPU Vulkan on few cores) or gpu (the issue's sizes)")
	fs.IntVar(&o.reps, "reps", 3, "repetitions; each runs every configuration once per scene")
	fs.StringVar(&o.scenes, "scenes", "dispatch,shader,draw,draw_indirect,hotloop-masked,hotloop-memory,hotloop-math,reduce,pipeline", "comma-separated scenes to run")
	fs.StringVar(&o.binDir, "bin", "bin", "directory of gpuav-dbg, the layer and bench/scene")
	fs.StringVar(&o.khronosPath, "khronos-layer-path", "", "directory of VkLayer_khronos_validation.json (empty: the loader's search path)")
	fs.StringVar(&o.khronosManifest, "khronos-manifest", "/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json",
		"Khronos layer manifest to read its version from (with -khronos-layer-path, the one there)")
	fs.StringVar(&o.khronos2Path, "khronos2-layer-path", "", "directory of a second Khronos layer's manifest (e.g. 1.4.309), run as a fifth configuration")
	fs.StringVar(&o.configs, "configs", "", "comma-separated configurations to run (default: none,gpuav-dbg,khronos and khronos2 with -khronos2-layer-path; gpuav-dbg-all switches every check on explicitly)")
	fs.BoolVar(&o.skipChecks, "skip-checks", false, "skip the correctness runs before timing")
	fs.IntVar(&o.warmup, "warmup", -1, "warm-up iterations of every scene run (default: the preset's)")
	fs.IntVar(&o.iters, "iters", -1, "timed iterations of every scene run (default: the preset's)")
	fs.StringVar(&o.jsonOut, "json", "", "write the results as JSON to this file")
	fs.StringVar(&o.mdOut, "md", "", "write the section's markdown to this file")
	fs.StringVar(&o.write, "write", "", "update this markdown file's section (e.g. docs/BENCHMARKS.md)")
	fs.StringVar(&o.section, "section", "", "section to write: lavapipe or nvidia (default: lavapipe for -preset lavapipe, nvidia for gpu)")
	fs.StringVar(&o.render, "render", "", "do not run: render these results JSON files (comma-separated; one section, their tables in order)")
	fs.StringVar(&o.command, "command", "", "the command to print in the doc (default: the harness's own command line)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	o.khronosManifestSet = flagSet(fs, "khronos-manifest")
	return o, nil
}

// readParts reads -render's results files.
func readParts(files, jsonOut string) ([]*Results, error) {
	var parts []*Results
	for _, file := range strings.Split(files, ",") {
		r, err := readResults(file)
		if err != nil {
			return nil, err
		}
		parts = append(parts, r)
	}
	if len(parts) > 1 && jsonOut != "" {
		return nil, fmt.Errorf("-json takes one results file, -render has %d", len(parts))
	}
	return parts, nil
}

// sceneList is the scenes -scenes names, with -warmup and -iters applied.
func sceneList(o options) ([]SceneSpec, error) {
	p, ok := Presets[o.preset]
	if !ok {
		return nil, fmt.Errorf("unknown preset %q (lavapipe or gpu)", o.preset)
	}
	if o.reps < 1 {
		return nil, fmt.Errorf("-reps must be at least 1")
	}
	var list []SceneSpec
	for _, name := range strings.Split(o.scenes, ",") {
		s, ok := p.Scene(strings.TrimSpace(name))
		if !ok {
			return nil, fmt.Errorf("unknown scene %q", name)
		}
		if o.warmup >= 0 {
			s.Warmup = o.warmup
		}
		if o.iters > 0 {
			s.Iters = o.iters
		}
		list = append(list, s)
	}
	return list, nil
}

// measure runs the correctness checks, then times every scene, writing
// what is done after each scene.
func measure(o options) (*Results, error) {
	list, err := sceneList(o)
	if err != nil {
		return nil, err
	}
	cmd := o.command
	if cmd == "" {
		cmd = "bin/bench/harness " + strings.Join(o.args, " ")
	}
	manifest := o.khronosManifest
	if o.khronosPath != "" && !o.khronosManifestSet {
		manifest = filepath.Join(o.khronosPath, "VkLayer_khronos_validation.json")
	}
	h, err := NewHarness(o.binDir, o.khronosPath, o.khronos2Path)
	if err != nil {
		return nil, err
	}
	if o.configs != "" {
		if err := h.Only(strings.Split(o.configs, ",")); err != nil {
			return nil, err
		}
	}
	res := &Results{
		Preset:  o.preset,
		Date:    time.Now().UTC().Format("2006-01-02"),
		Machine: MachineInfo(),
		Layers: LayerInfo{
			Ours:    ourVersion(o.binDir),
			Khronos: KhronosVersion(manifest),
		},
		Command: cmd,
		Reps:    o.reps,
		Configs: h.configs(),
	}
	if o.khronos2Path != "" {
		res.Layers.Khronos2 = KhronosVersion(filepath.Join(o.khronos2Path, "VkLayer_khronos_validation.json"))
	}
	load := LoadAvg()
	if !o.skipChecks {
		for _, s := range list {
			notes, err := h.Check(s)
			if err != nil {
				return nil, err
			}
			res.Checks = append(res.Checks, notes...)
		}
	}
	for _, s := range list {
		sr, err := h.Time(s, o.reps, res)
		if err != nil {
			return nil, err
		}
		res.Scenes = append(res.Scenes, sr)
		fmt.Print(FormatScene(sr))
		res.Machine.Load = load + " at the start, " + LoadAvg() + " at the end"
		// Keep what is done so far, should a later scene fail or time out.
		if err := writeFiles(res, o.jsonOut, o.mdOut); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// output writes the results and their markdown where the flags say.
func output(o options, res *Results, parts []*Results) error {
	sec := o.section
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
	if err := writeFiles(res, o.jsonOut, o.mdOut); err != nil {
		return err
	}
	if len(parts) > 1 {
		var mds []string
		for _, r := range parts {
			mds = append(mds, Markdown(r))
		}
		md = strings.Join(mds, "\n")
		if o.mdOut != "" {
			if err := os.WriteFile(o.mdOut, []byte(md), 0o644); err != nil {
				return fmt.Errorf("write markdown: %w", err)
			}
		}
	}
	if o.write != "" {
		doc, err := os.ReadFile(o.write)
		if err != nil {
			return fmt.Errorf("read %s: %w", o.write, err)
		}
		out, err := ReplaceSection(string(doc), sec, md)
		if err != nil {
			return fmt.Errorf("%s: %w", o.write, err)
		}
		if err := os.WriteFile(o.write, []byte(out), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", o.write, err)
		}
		fmt.Printf("bench: wrote the %s section of %s\n", sec, o.write)
	}
	if o.render == "" && o.write == "" && o.mdOut == "" {
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
