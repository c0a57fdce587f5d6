package gpuav

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
)

// TestPreciseLater: with Options.PreciseLater, Instrument returns no
// precise words for a module with a fast variant, and PreciseWords (from
// several goroutines at once) builds exactly the words and ReadsSet that
// Instrument without it returns; the fast variant and facts are the same.
// Over the pipeline corpus (the layer's options there) and test shaders.
func TestPreciseLater(t *testing.T) {
	type module struct {
		name  string
		words []uint32
	}
	var mods []module
	for _, name := range []string{"no_check_left.comp", "same_index_memory.comp", "printf_hotloop.comp"} {
		mods = append(mods, module{name, compile(t, name, "vulkan1.1")})
	}
	dir := filepath.Join("..", "bench", "corpus")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		switch filepath.Ext(e.Name()) {
		case ".comp", ".vert", ".frag":
			mods = append(mods, module{e.Name(), shadertest.Compile(t, dir, e.Name(), "-g", "--target-env", "vulkan1.1")})
		}
	}
	deferred := 0
	for i, m := range mods {
		opt := Options{ShaderID: uint32(i + 1), DescriptorSet: 7, SizedElementChecks: true, Int64: true, Printf: true}
		now, err := Instrument(m.words, opt)
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		opt.PreciseLater = true
		later, err := Instrument(m.words, opt)
		if err != nil {
			t.Fatalf("%s: PreciseLater: %v", m.name, err)
		}
		if (now.Precise == nil) != (later.Precise == nil) {
			t.Fatalf("%s: fast variant %v, with PreciseLater %v", m.name, now.Precise != nil, later.Precise != nil)
		}
		if now.Precise == nil {
			if !slices.Equal(later.Words, now.Words) || later.ReadsLayerSet != now.ReadsLayerSet {
				t.Errorf("%s: no fast variant, and the words differ with PreciseLater", m.name)
			}
			continue
		}
		deferred++
		if later.Words != nil || later.ReadsLayerSet {
			t.Errorf("%s: PreciseLater returned %d precise words (ReadsLayerSet %v), want none", m.name,
				len(later.Words), later.ReadsLayerSet)
		}
		p, q := later.Precise, now.Precise
		if !slices.Equal(p.FastWords, q.FastWords) || p.FastReadsLayerSet != q.FastReadsLayerSet ||
			!slices.Equal(p.Facts, q.Facts) {
			t.Errorf("%s: the fast variant or its facts differ with PreciseLater", m.name)
		}
		if w, _, _ := q.PreciseWords(); w != nil {
			t.Errorf("%s: PreciseWords without PreciseLater returned %d words, want nil", m.name, len(w))
		}
		var wg sync.WaitGroup
		for range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w, reads, err := p.PreciseWords()
				if err != nil || !slices.Equal(w, now.Words) || reads != now.ReadsLayerSet {
					t.Errorf("%s: PreciseWords: %d words (ReadsSet %v, err %v), want the %d words (%v) of Instrument",
						m.name, len(w), reads, err, len(now.Words), now.ReadsLayerSet)
				}
			}()
		}
		wg.Wait()
	}
	if deferred < 20 {
		t.Errorf("%d of %d modules have a fast variant, want at least 20", deferred, len(mods))
	}
}

// TestPreciseLaterError: a kept module that does not parse gives an
// error and no words, on every call.
func TestPreciseLaterError(t *testing.T) {
	p := &PreciseSwitch{later: &laterPrecise{module: []uint32{0x07230203, 0x10000}, id: 1, bound: 1, set: 7}}
	for range 2 {
		if w, reads, err := p.PreciseWords(); err == nil || w != nil || reads {
			t.Errorf("PreciseWords: %d words, ReadsSet %v, err %v; want an error", len(w), reads, err)
		}
	}
}
