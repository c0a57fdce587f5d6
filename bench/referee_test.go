package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/referee"
)

// buildSceneShaders compiles every scene's shaders and the pipeline
// corpus into DIR/spv and DIR/spv/corpus (as bench.mk does) for the scene
// binary in DIR.
func buildSceneShaders(t *testing.T, dir string) {
	t.Helper()
	spv := filepath.Join(dir, "spv")
	if err := os.MkdirAll(filepath.Join(spv, "corpus"), 0o755); err != nil {
		t.Fatal(err)
	}
	type job struct{ src, out string }
	var jobs []job
	for _, pat := range []string{"scenes/shaders/*.comp", "scenes/shaders/*.vert", "scenes/shaders/*.frag",
		"corpus/*.comp", "corpus/*.vert", "corpus/*.frag"} {
		files, _ := filepath.Glob(pat)
		for _, f := range files {
			out := filepath.Join(spv, filepath.Base(f)+".spv")
			if strings.HasPrefix(f, "corpus/") {
				out = filepath.Join(spv, "corpus", filepath.Base(f)+".spv")
			}
			jobs = append(jobs, job{f, out})
		}
	}
	corpus, err := os.ReadFile("corpus/corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(spv, "corpus", "corpus.txt"), corpus, 0o644); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]string, len(jobs))
	sem := make(chan struct{}, 2)
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			cmd := exec.Command("glslangValidator", "-g", "--target-env", "vulkan1.1", "-o", j.out, filepath.Base(j.src))
			cmd.Dir = filepath.Dir(j.src)
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = j.src + ": " + err.Error() + "\n" + string(out)
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Fatal(e)
		}
	}
}

// TestScenesUnderReferee runs every benchmark scene, small, under our layer
// with the Khronos layer's core checks below it (internal/referee): each
// scene finishes with correct results, neither layer reports an error,
// and the referee has nothing to say about the layer's own calls.
func TestScenesUnderReferee(t *testing.T) {
	if !referee.Enabled() {
		t.Skip(referee.EnvMode + "=0")
	}
	bin := buildScene(t)
	buildSceneShaders(t, filepath.Dir(bin))
	binDir, err := filepath.Abs("../bin")
	if err != nil {
		t.Fatal(err)
	}
	h := &Harness{layerDir: binDir}
	if os.Getenv("XDG_RUNTIME_DIR") == "" {
		t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	}
	for _, sc := range [][]string{
		{"--scene", "dispatch", "--dispatches", "16"},
		{"--scene", "shader", "--invocations", "256", "--loops", "8"},
		{"--scene", "draw", "--draws", "32", "--sets", "4"},
		{"--scene", "draw_indirect", "--draws", "32", "--sets", "4"},
		{"--scene", "pipeline"},
		{"--scene", "hotloop", "--variant", "masked", "--workgroups", "4"},
		{"--scene", "hotloop", "--variant", "memory", "--workgroups", "4"},
	} {
		name := sc[1]
		if len(sc) > 3 && sc[2] == "--variant" {
			name += "_" + sc[3]
		}
		t.Run(name, func(t *testing.T) {
			args := append(sc, "--warmup", "1", "--iters", "1")
			run, env, err := referee.Start(t.TempDir(), h.env(ConfigOurs))
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, args...)
			cmd.Env = env
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v: %v\n%s", args, err, stderr.String())
			}
			run.Check(bin, args, t.Errorf)
			o, err := ParseOutput(&stdout)
			if err != nil {
				t.Fatal(err)
			}
			if err := validRun(o, stderr.String(), ConfigOurs, 1); err != nil {
				t.Errorf("%v: %v", args, err)
			}
		})
	}
}
