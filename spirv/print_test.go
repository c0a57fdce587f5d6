package spirv

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// The goldens in testdata/print are spirv-dis's own output (SPIRV-Tools
// 2023.1, Debian spirv-tools 2023.1-2), made with
//
//	for f in testdata/print/*.spv; do spirv-dis "$f" -o "${f%.spv}.golden"; done
//
// from modules compiled with
//
//	glslangValidator -V -g compute.comp -o compute.spv
//	glslangValidator -V -g sample.frag -o sample.spv
//	glslangValidator -V -gVS debuginfo.comp -o debuginfo.spv
//
// (glslang 12.0.0), and misc.spv, hand-written edge cases assembled with
//
//	spirv-as --target-env spv1.5 misc.spvasm -o misc.spv
//	spirv-dis misc.spv | sed 's/ %2 1 %8 / %2 DebugPrintf %8 /' >misc.golden
//
// The one difference from spirv-dis, made on purpose: spirv-dis 2023.1 does not
// know the NonSemantic.DebugPrintf set and prints its instruction number (1);
// this printer names it (DebugPrintf). With -update the test rewrites the
// goldens with this package's output instead.
func TestDisassembleGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/print/*.spv")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/print/*.spv")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			w := readModule(t, f)
			got, err := Disassemble(w)
			if err != nil {
				t.Errorf("Disassemble: %v", err)
			}
			golden := strings.TrimSuffix(f, ".spv") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
				for i := 0; i < len(gl) || i < len(wl); i++ {
					var g, w string
					if i < len(gl) {
						g = gl[i]
					}
					if i < len(wl) {
						w = wl[i]
					}
					if g != w {
						t.Errorf("line %d:\n got: %q\nwant: %q", i+1, g, w)
						break
					}
				}
			}
		})
	}
}

func readModule(t testing.TB, path string) []uint32 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := WordsFromBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return w
}
