package gpuav

import (
	"bytes"
	"encoding/gob"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
)

// TestKeptResult: a result kept (Keep), through gob and back (Result),
// gives the same words, sites, facts and precise words, whether its
// precise variant was built before it was kept or not.
func TestKeptResult(t *testing.T) {
	dir := filepath.Join("..", "bench", "corpus")
	names := []string{"bindless00.comp", "fs00.frag", "vs00.vert", "loop00.comp"}
	if _, err := os.Stat(filepath.Join(dir, names[0])); err != nil {
		t.Fatal(err)
	}
	mods := [][]uint32{compile(t, "printf_hotloop.comp", "vulkan1.1")}
	for _, n := range names {
		mods = append(mods, shadertest.Compile(t, dir, n, "-g", "--target-env", "vulkan1.1"))
	}
	for i, words := range mods {
		for _, built := range []bool{false, true} {
			opt := Options{ShaderID: 5, DescriptorSet: 7, Printf: true, PreciseLater: true}
			res, err := Instrument(words, opt)
			if err != nil {
				t.Fatal(err)
			}
			var want []uint32
			if built && res.Precise != nil {
				want, _, _ = res.Precise.PreciseWords()
			}
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(res.Keep()); err != nil {
				t.Fatal(err)
			}
			var k KeptResult
			if err := gob.NewDecoder(&buf).Decode(&k); err != nil {
				t.Fatal(err)
			}
			got := k.Result()
			if !slices.Equal(got.Words, res.Words) || !reflect.DeepEqual(got.Sites, res.Sites) ||
				got.Stage != res.Stage || got.Instrumented != res.Instrumented || (got.Precise == nil) != (res.Precise == nil) {
				t.Fatalf("module %d (built %v): the kept result differs", i, built)
			}
			if res.Precise == nil {
				continue
			}
			if !slices.Equal(got.Precise.FastWords, res.Precise.FastWords) ||
				!reflect.DeepEqual(got.Precise.Facts, res.Precise.Facts) {
				t.Errorf("module %d (built %v): fast variant differs", i, built)
			}
			pw, _, err := got.Precise.PreciseWords()
			if !built {
				want, _, _ = res.Precise.PreciseWords()
			}
			if err != nil || !slices.Equal(pw, want) || len(pw) == 0 {
				t.Errorf("module %d (built %v): precise words differ (%v)", i, built, err)
			}
		}
	}
}
