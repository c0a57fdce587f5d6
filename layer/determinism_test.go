package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// determinismModules are the modules TestDeterministicInstrumentation
// instruments: the bench corpus (compute, vertex and fragment shaders,
// with and without fast variants) and the printf test shader.
func determinismModules(t *testing.T) (names []string, mods map[string][]uint32) {
	t.Helper()
	mods = map[string][]uint32{}
	dir := filepath.Join("..", "bench", "corpus")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		switch filepath.Ext(e.Name()) {
		case ".comp", ".vert", ".frag":
			mods[e.Name()] = shadertest.Compile(t, dir, e.Name(), "-g", "--target-env", "vulkan1.1")
		}
	}
	// Modules of every pass, most without a fast variant.
	passes := filepath.Join("..", "gpuav", "testdata", "passes")
	for _, n := range []string{"bda.comp", "buffer_oob.comp", "descriptor_state.comp", "loop_budget.comp",
		"sanitizer.comp", "shared_memory_race.comp", "texel_buffer.comp", "vertex_fetch.vert", "barrier_divergence.comp"} {
		mods[n] = shadertest.Compile(t, passes, n, "-g", "--target-env", "vulkan1.2")
	}
	return slices.Sorted(maps.Keys(mods)), mods
}

// driverWords returns a digest of every word the driver can get for a
// shader: its instrumented module, or a deferred one's fast and precise
// variants.
func driverWords(t *testing.T, s *shader, words []uint32, deferred bool) string {
	t.Helper()
	h := sha256.New()
	put := func(tag string, w []uint32) {
		fmt.Fprintf(h, "%s %d\n", tag, len(w))
		h.Write(wordsToBytes(w))
	}
	put("module", words)
	if deferred {
		put("fast", s.precise.FastWords)
		pw, _, err := s.precise.PreciseWords()
		if err != nil {
			t.Fatalf("shader %d: precise words: %v", s.id, err)
		}
		put("precise", pw)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// instrumentAll creates every module as vkCreateShaderModule does (with
// its precise variant deferred), from threads goroutines, each taking the
// modules in order (i ≡ goroutine mod threads), in reverse when reverse;
// it returns each module's digest of driverWords and its shader.
func instrumentAll(t *testing.T, names []string, mods map[string][]uint32, threads int, reverse bool) (
	map[string]string, map[string]*shader) {
	t.Helper()
	order := slices.Clone(names)
	if reverse {
		slices.Reverse(order)
	}
	var mu sync.Mutex
	digests, shaders := map[string]string{}, map[string]*shader{}
	var wg sync.WaitGroup
	for g := range threads {
		wg.Go(func() {
			for i := g; i < len(order); i += threads {
				name := order[i]
				s, words, deferred := instrumentModule(0, true, 7, mods[name], true)
				d := driverWords(t, s, words, deferred)
				mu.Lock()
				digests[name], shaders[name] = d, s
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return digests, shaders
}

const determinismChildEnv = "GPUAVDBG_TEST_DETERMINISM_CHILD"

// TestDeterministicInstrumentation: the same module with the same
// settings gives the driver the same words (its instrumented module, or a
// deferred module's fast and precise variants), whatever the order and
// the thread of its creation, and in another process
// (docs/decisions/deterministic-instrumentation.md): the records' shader id
// is the module's code id, and the layer maps it back to the shader that
// ran.
func TestDeterministicInstrumentation(t *testing.T) {
	if os.Getenv(EnvPrebuilt) != "" {
		t.Skip("instrumentation alone, no Vulkan: runs where the suite is built (it compiles its shaders with glslang)")
	}
	names, mods := determinismModules(t)
	if os.Getenv(determinismChildEnv) != "" {
		// The second run: the digests of one creation, in reverse, for the
		// parent to compare.
		d, _ := instrumentAll(t, names, mods, 3, true)
		b, _ := json.Marshal(d)
		fmt.Printf("DIGESTS %s\n", b)
		return
	}
	first, shaders := instrumentAll(t, names, mods, 1, false)
	deferred := 0
	for _, s := range shaders {
		if s.deferred {
			deferred++
		}
		if s.code == 0 || len(s.sites) == 0 {
			t.Errorf("shader %d: code id %d, %d sites; want a code id and sites", s.id, s.code, len(s.sites))
		}
	}
	if deferred == 0 || deferred == len(shaders) {
		t.Errorf("%d of %d modules deferred: the test wants both kinds", deferred, len(shaders))
	}
	// Created again, from 8 threads and in reverse: the same words, and
	// each module shares its code id with its first creation. The kept
	// results are dropped first, so that the passes run again.
	withLock(func() { clear(results) })
	again, shaders2 := instrumentAll(t, names, mods, 8, true)
	for _, n := range names {
		if again[n] != first[n] {
			t.Errorf("%s: other words when created again from 8 threads in reverse", n)
		}
		if a, b := shaders[n], shaders2[n]; a.code != b.code || a.id == b.id {
			t.Errorf("%s: shaders %d and %d have code ids %d and %d; want one code id", n, a.id, b.id, a.code, b.code)
		}
	}
	// Another process: the same words.
	cmd := exec.Command(os.Args[0], "-test.run", "^TestDeterministicInstrumentation$", "-test.count", "1")
	cmd.Env = append(os.Environ(), determinismChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the second process: %v\n%s", err, out)
	}
	var child map[string]string
	for line := range strings.Lines(string(out)) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "DIGESTS "); ok {
			if err := json.Unmarshal([]byte(rest), &child); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(child) != len(names) {
		t.Fatalf("the second process gave %d digests, want %d:\n%s", len(child), len(names), out)
	}
	for _, n := range names {
		if child[n] != first[n] {
			t.Errorf("%s: other words in another process", n)
		}
	}

	// A record of a code id names the shader of the action's pipeline;
	// with no pipeline, the newest module of the code.
	n := names[0]
	a, b := shaders[n], shaders2[n]
	withLock(func() {
		for _, s := range []*shader{a, b} {
			s.instrumented = true
		}
		rememberPipelineShadersLocked(0xa1, []wire.PipelineRef{{ShaderID: a.id}})
		rememberPipelineShadersLocked(0xb1, []wire.PipelineRef{{ShaderID: b.id}})
	})
	t.Cleanup(func() {
		withLock(func() {
			delete(pipelineShaders, 0xa1)
			delete(pipelineShaders, 0xb1)
		})
	})
	var r codeResolver
	if got := r.id(a.code, 0xa1); got != a.id {
		t.Errorf("code %d in pipeline 0xa1: shader %d, want %d", a.code, got, a.id)
	}
	if got := r.id(a.code, 0xb1); got != b.id {
		t.Errorf("code %d in pipeline 0xb1: shader %d, want %d", a.code, got, b.id)
	}
	if got := r.id(a.code, 0); got != b.id {
		t.Errorf("code %d with no pipeline: shader %d, want the newest, %d", a.code, got, b.id)
	}
}

// TestCodeIDCollision: a key whose id another key has takes the next
// free one, and the first keeps its own.
func TestCodeIDCollision(t *testing.T) {
	var k1, k2 gpuav.CodeKey
	k1[0], k1[4] = 0x5a, 1
	k2[0], k2[4] = 0x5a, 2 // the same first four bytes: the same ID
	s1, s2, s3 := &shader{id: 90001}, &shader{id: 90002}, &shader{id: 90003}
	var c1, c2, c3 uint32
	withLock(func() {
		c1, c2, c3 = assignCodeLocked(s1, k1), assignCodeLocked(s2, k2), assignCodeLocked(s3, k1)
	})
	t.Cleanup(func() {
		withLock(func() {
			for _, s := range []*shader{s1, s2, s3} {
				forgetCodeLocked(s)
			}
		})
	})
	if c1 != k1.ID() || c2 != k1.ID()+1 || c3 != c1 {
		t.Errorf("code ids %d, %d, %d; want %d, %d, %d", c1, c2, c3, k1.ID(), k1.ID()+1, k1.ID())
	}
}
