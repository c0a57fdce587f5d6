// Command instdump prints a digest of everything gpuav.Instrument returns
// for every shader of the pipeline corpus (bench/corpus) and of gpuav's
// test shaders, under several option sets: one line per module and option
// set with the SHA-256 of the precise words, of the fast variant's words
// and of the rest of the result (sites, printf sites, facts, warnings,
// notes). Run at two commits, the outputs must be equal when a change is
// meant to keep the instrumentation byte for byte (compare.sh does that).
//
//	go run ./gpuav/internal/instdump -spv /tmp/instdump-spv > digest.txt
//
// The compiled modules are kept in -spv, so that both commits instrument
// the same words.
package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// sources are the directories of GLSL shaders, relative to the repository root.
var sources = []string{"bench/corpus", "gpuav/testdata/shaders", "gpuav/testdata/passes"}

// stages are the file name endings compiled.
var stages = map[string]bool{".vert": true, ".frag": true, ".comp": true, ".rgen": true, ".geom": true,
	".tesc": true, ".tese": true, ".mesh": true, ".task": true}

func main() {
	spvDir := flag.String("spv", filepath.Join(os.TempDir(), "instdump-spv"), "directory of the compiled modules (made when missing)")
	flag.Parse()
	if err := run(*spvDir); err != nil {
		fmt.Fprintln(os.Stderr, "instdump:", err)
		os.Exit(1)
	}
}

// run compiles (or reuses) every module and prints its digests.
func run(spvDir string) error {
	if err := os.MkdirAll(spvDir, 0o755); err != nil {
		return err
	}
	for _, dir := range sources {
		names, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("reading %s (run from the repository root): %w", dir, err)
		}
		var files []string
		for _, e := range names {
			if stages[filepath.Ext(e.Name())] {
				files = append(files, e.Name())
			}
		}
		sort.Strings(files)
		for _, f := range files {
			for _, debug := range []string{"-g", "-gVS"} {
				name := dir + "/" + f + debug
				w, err := compile(spvDir, dir, f, debug)
				if err != nil {
					fmt.Printf("%s compile failed\n", name)
					continue
				}
				digest(name, w)
			}
		}
	}
	return nil
}

// compile returns the module of dir/file compiled with debug, from spvDir
// when it was compiled before.
func compile(spvDir, dir, file, debug string) ([]uint32, error) {
	out, err := filepath.Abs(filepath.Join(spvDir, strings.ReplaceAll(dir, "/", "_")+"_"+file+debug+".spv"))
	if err != nil {
		return nil, err
	}
	if b, err := os.ReadFile(out); err == nil {
		return spirv.WordsFromBytes(b)
	}
	text, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return nil, err
	}
	env := "vulkan1.1"
	if s := string(text); strings.Contains(s, "GL_EXT_ray_") || strings.Contains(s, "GL_EXT_mesh_shader") {
		env = "vulkan1.2"
	}
	cmd := exec.Command("glslangValidator", "-V", debug, "--target-env", env, "-o", out, file)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%v: %s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	return spirv.WordsFromBytes(b)
}

// allOn turns every check on, as the layer does with every check enabled.
func allOn() map[string]bool {
	m := map[string]bool{}
	for _, id := range gpuav.AllChecks {
		m[id] = true
	}
	return m
}

// optionSets are the option sets each module is instrumented with.
var optionSets = []struct {
	name string
	opt  gpuav.Options
}{
	{"layer", gpuav.Options{Checks: allOn(), SizedElementChecks: true, Int64: true, Printf: true}},
	{"default", gpuav.Options{Printf: true}},
	{"clamp", gpuav.Options{Checks: allOn(), OnError: gpuav.OnErrorClamp, Printf: true}},
	{"execute", gpuav.Options{Checks: allOn(), OnError: gpuav.OnErrorExecute, Robust: true}},
	{"robust-only", gpuav.Options{Checks: allOn(), RobustOnly: true, SizedElementChecks: true, Printf: true}},
}

// digest prints one line per option set for module w.
func digest(name string, w []uint32) {
	for i, o := range optionSets {
		opt := o.opt
		opt.ShaderID, opt.DescriptorSet = uint32(100+i), 7
		res, err := gpuav.Instrument(append([]uint32(nil), w...), opt)
		if err != nil {
			fmt.Printf("%s %s error %v\n", name, o.name, err)
			continue
		}
		var fast []uint32
		var facts []gpuav.Fact
		if res.Precise != nil {
			fast, facts = res.Precise.FastWords, res.Precise.Facts
		}
		rest := fmt.Sprintf("%v %d %d %+v %+v %+v %q %q", res.Instrumented, res.ChecksAdded, res.Stage,
			res.Sites, res.Printf, facts, res.Warnings, res.Notes)
		fmt.Printf("%s %s words %d %x fast %d %x rest %x\n", name, o.name, len(res.Words), hash(res.Words),
			len(fast), hash(fast), sha256.Sum256([]byte(rest)))
	}
}

// hash is the SHA-256 of words, little-endian.
func hash(w []uint32) []byte {
	s := sha256.Sum256(spirv.BytesFromWords(w))
	return s[:8]
}
