package gpuav

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// glslStages are the file name endings glslangValidator takes as stages.
var glslStages = []string{".vert", ".tesc", ".tese", ".geom", ".frag", ".comp", ".mesh", ".task",
	".rgen", ".rint", ".rahit", ".rchit", ".rmiss", ".rcall"}

// TestInstrumentCorpus instruments every shader the project has (GLSL
// sources anywhere in the repository, compiled here, and committed .spv
// files) with every check on, and runs spirv-val on each result for the
// module's own target environment. The GLSL is compiled for Vulkan 1.0 to
// 1.3 in turn (1.2 at least where ray tracing, ray queries or mesh shaders
// need SPIR-V 1.4), with -g and -gVS in turn; each module is instrumented
// with skip, clamp and the robust-only mode (failedAccess). Every check is
// on, loop_budget included: the loops it counts must be found under each
// behaviour, or the test fails.
func TestInstrumentCorpus(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var sources, modules []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			switch rel {
			case ".git", "bin", "build", filepath.Join("gpuav", "shaders"), filepath.Join("gpuav", "prepass"):
				return filepath.SkipDir // build outputs; the library and the layer's pre-pass are not app shaders
			}
			return nil
		}
		ext := filepath.Ext(p)
		for _, s := range glslStages {
			if ext == s {
				sources = append(sources, p)
			}
		}
		if ext == ".spv" {
			modules = append(modules, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(sources) < 10 || len(modules) < 3 {
		t.Fatalf("corpus too small: %d sources, %d modules", len(sources), len(modules))
	}
	counted := map[string]int{} // loop_budget sites by behaviour
	defer func() {
		for _, b := range []string{"skip", "clamp", "execute", "robust-only"} {
			if counted[b] == 0 && !t.Failed() {
				t.Errorf("no loop counted by loop_budget under %s in the corpus: %v", b, counted)
			}
		}
	}()
	envs := []string{"vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3"}
	for i, src := range sources {
		rel, _ := filepath.Rel(root, src)
		env := envs[i%len(envs)]
		text, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(text), "GL_KHR_cooperative_matrix") {
			continue // glslang 12 predates it: its prebuilt modules (.spv) are in the corpus
		}
		needs14 := strings.Contains(string(text), "GL_EXT_ray_") || strings.Contains(string(text), "GL_EXT_mesh_shader") ||
			strings.Contains(string(text), "GL_NV_ray_tracing")
		if needs14 && (env == "vulkan1.0" || env == "vulkan1.1") {
			env = "vulkan1.2"
		}
		if strings.Contains(string(text), "GL_KHR_shader_subgroup") && env == "vulkan1.0" {
			env = "vulkan1.1" // subgroup operations need SPIR-V 1.3
		}
		debug := []string{"-g", "-gVS"}[i%2]
		if env == "vulkan1.0" && debug == "-gVS" {
			debug = "-g" // NonSemantic debug info needs SPV_KHR_non_semantic_info (Vulkan 1.1+ here)
		}
		if debug == "-gVS" && (strings.Contains(string(text), "GL_EXT_buffer_reference") || specSizedArray(string(text))) {
			// glslang 12's -gVS debug info for buffer references, and for
			// arrays sized by a specialization constant, fails spirv-val
			// before instrumenting
			debug = "-g"
		}
		t.Run(rel+"/"+env+debug, func(t *testing.T) {
			w := shadertest.Compile(t, filepath.Dir(src), filepath.Base(src), debug, "--target-env", env)
			for _, opt := range failedAccess(i) {
				counted[behaviour(opt)] += instrumentAndValidate(t, w, env, opt)
			}
		})
	}
	for i, p := range modules {
		rel, _ := filepath.Rel(root, p)
		t.Run(rel, func(t *testing.T) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			w, err := spirv.WordsFromBytes(b)
			if err != nil {
				t.Fatal(err)
			}
			env := targetEnv(t, w)
			for _, opt := range failedAccess(i) {
				counted[behaviour(opt)] += instrumentAndValidate(t, w, env, opt)
			}
		})
	}
}

// failedAccess are the failed-access behaviours the i-th corpus shader is
// instrumented with: skip, clamp and the robust-only mode (whose guards
// build the most code) every time, execute every other shader.
func failedAccess(i int) []Options {
	opts := []Options{{}, {OnError: OnErrorClamp}, {RobustOnly: true}}
	if i%2 == 0 {
		opts = append(opts, Options{OnError: OnErrorExecute})
	}
	return opts
}

// behaviour names opt's failed-access behaviour.
func behaviour(opt Options) string {
	if opt.RobustOnly {
		return "robust-only"
	}
	return string(OnErrorOrDefault(opt.OnError))
}

// instrumentAndValidate instruments with every check and the failed-access
// behaviour of opt and runs spirv-val on the module (the precise variant)
// and on its fast variant; a module left alone must come back unchanged.
// It returns the number of loops loop_budget counted.
func instrumentAndValidate(t *testing.T, w []uint32, env string, opt Options) int {
	t.Helper()
	opt.ShaderID, opt.DescriptorSet, opt.Printf = 9, 7, true
	t.Logf("on_error %q, robust-only %v", opt.OnError, opt.RobustOnly)
	res, err := Instrument(w, opt)
	if err != nil {
		t.Fatalf("instrument: %v", err)
	}
	for _, warn := range res.Warnings {
		t.Logf("warning: %s", warn)
	}
	loops := 0
	for _, s := range res.Sites {
		if slices.Contains(s.Checks, CheckLoopBudget) {
			loops++
		}
	}
	if !res.Instrumented {
		if len(res.Words) != len(w) {
			t.Fatalf("not instrumented but changed")
		}
		return loops
	}
	validate(t, res.Words, env)
	if res.Precise == nil {
		return loops
	}
	validate(t, res.Precise.FastWords, env)
	return loops
}

// specConstRE finds the names of GLSL specialization constants.
var specConstRE = regexp.MustCompile(`constant_id\s*=\s*\d+\s*\)\s*const\s+\w+\s+(\w+)`)

// specSizedArray reports whether GLSL source sizes an array by a
// specialization constant ("x[N];" with N a constant_id constant).
func specSizedArray(src string) bool {
	for _, m := range specConstRE.FindAllStringSubmatch(src, -1) {
		if strings.Contains(src, "["+m[1]+"];") {
			return true
		}
	}
	return false
}
