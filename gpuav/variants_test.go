package gpuav

import (
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// TestFastLater: with Options.FastLater, Instrument returns before the
// fast variant is built, and Wait (from several goroutines at once) gives
// the fast words, facts and ReadsSet that Instrument without it gives;
// the precise words are the same.
func TestFastLater(t *testing.T) {
	tests := []struct {
		shader   string
		fastSet  bool // FastReadsLayerSet
		minFacts int
	}{
		{shader: "no_check_left.comp", fastSet: false, minFacts: 1},
		{shader: "same_index_memory.comp", fastSet: true, minFacts: 1},
		{shader: "printf_hotloop.comp", fastSet: true, minFacts: 1},
	}
	for _, tt := range tests {
		t.Run(tt.shader, func(t *testing.T) {
			w := compile(t, tt.shader, "vulkan1.1")
			opt := Options{ShaderID: 3, DescriptorSet: 7, Printf: true}
			now, err := Instrument(w, opt)
			if err != nil || now.Precise == nil {
				t.Fatalf("Instrument: %v (fast variant: %v)", err, now.Precise != nil)
			}
			opt.FastLater = true
			later, err := Instrument(w, opt)
			if err != nil || later.Precise == nil {
				t.Fatalf("Instrument with FastLater: %v (fast variant: %v)", err, later.Precise != nil)
			}
			if !slices.Equal(later.Words, now.Words) {
				t.Error("the precise words differ with FastLater")
			}
			var wg sync.WaitGroup
			for range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					later.Precise.Wait()
				}()
			}
			later.Precise.Wait()
			wg.Wait()
			p := later.Precise
			if p.Err != nil || !slices.Equal(p.FastWords, now.Precise.FastWords) || len(p.FastWords) == 0 {
				t.Errorf("fast words with FastLater: %d words, err %v; want the %d words without it",
					len(p.FastWords), p.Err, len(now.Precise.FastWords))
			}
			if p.FastReadsLayerSet != tt.fastSet || now.Precise.FastReadsLayerSet != tt.fastSet {
				t.Errorf("FastReadsLayerSet %v (without FastLater %v), want %v", p.FastReadsLayerSet,
					now.Precise.FastReadsLayerSet, tt.fastSet)
			}
			if !slices.Equal(p.Facts, now.Precise.Facts) || len(p.Facts) < tt.minFacts {
				t.Errorf("facts %+v, want %+v", p.Facts, now.Precise.Facts)
			}
		})
	}
}

// TestWaitBuildsOnce: the fast variant's build runs exactly once, by its
// goroutine or by the first Wait that finds it not started, however many
// goroutines wait; every Wait returns after it.
func TestWaitBuildsOnce(t *testing.T) {
	for round := range 200 {
		var runs atomic.Int32
		p := &PreciseSwitch{built: make(chan struct{})}
		p.build = func() {
			runs.Add(1)
			p.FastWords = []uint32{uint32(round)}
			close(p.built)
		}
		go p.run()
		var wg sync.WaitGroup
		for range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p.Wait()
				if len(p.FastWords) != 1 || p.FastWords[0] != uint32(round) {
					t.Errorf("round %d: Wait returned before the build (words %v)", round, p.FastWords)
				}
			}()
		}
		wg.Wait()
		if n := runs.Load(); n != 1 {
			t.Fatalf("round %d: the build ran %d times, want 1", round, n)
		}
	}
}

// TestFastVariantPanic: a panic while building the fast variant becomes
// Err, with no fast words; Wait returns.
func TestFastVariantPanic(t *testing.T) {
	p := &PreciseSwitch{built: make(chan struct{})}
	p.build = func() { p.buildFast(nil, 1, 1, nil, 7) } // a nil module: prune panics
	p.Wait()
	if p.Err == nil || len(p.FastWords) != 0 || p.FastReadsLayerSet {
		t.Errorf("Err %v, %d fast words, FastReadsLayerSet %v; want an error and no words", p.Err,
			len(p.FastWords), p.FastReadsLayerSet)
	}
}
