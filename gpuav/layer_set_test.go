package gpuav

import (
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestReadsSet: whether the words the driver gets use the layer's set
// (set 7 here), for each variant. A fast variant whose facts decide every
// access reads nothing of it, though the module still holds the check
// functions it no longer calls; a check left (out_.o[g]) or a printf line
// reads it; the app's own set (0) is read by every variant.
func TestReadsSet(t *testing.T) {
	tests := []struct {
		shader        string
		fast, precise bool // ReadsSet(words, 7) of each variant
	}{
		{shader: "no_check_left.comp", fast: false, precise: true},
		{shader: "buffer_oob_fact.comp", fast: true, precise: true},
		{shader: "printf_hotloop.comp", fast: true, precise: true},
	}
	for _, tt := range tests {
		t.Run(tt.shader, func(t *testing.T) {
			w := compile(t, tt.shader, "vulkan1.1")
			res, err := Instrument(w, Options{ShaderID: 3, DescriptorSet: 7, Printf: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.Precise == nil {
				t.Fatal("no fast variant")
			}
			if got := ReadsSet(res.Precise.FastWords, 7); got != tt.fast || res.Precise.FastReadsLayerSet != tt.fast {
				t.Errorf("fast variant: ReadsSet %v, FastReadsLayerSet %v; want %v", got, res.Precise.FastReadsLayerSet, tt.fast)
			}
			if got := ReadsSet(res.Words, 7); got != tt.precise || res.ReadsLayerSet != tt.precise {
				t.Errorf("precise variant: ReadsSet %v, ReadsLayerSet %v; want %v", got, res.ReadsLayerSet, tt.precise)
			}
			for _, v := range [][]uint32{w, res.Words, res.Precise.FastWords} {
				if !ReadsSet(v, 0) {
					t.Error("a variant reads nothing of set 0, the app's")
				}
			}
			if ReadsSet(w, 7) {
				t.Error("the original module reads set 7")
			}
		})
	}
}

// TestReadsSetErrsTowardsTrue: words that do not parse, and an entry
// point whose function is missing, count as reading the set.
func TestReadsSetErrsTowardsTrue(t *testing.T) {
	w := compile(t, "no_check_left.comp", "vulkan1.1")
	res, err := Instrument(w, Options{ShaderID: 3, DescriptorSet: 7})
	if err != nil || res.Precise == nil || ReadsSet(res.Precise.FastWords, 7) {
		t.Fatalf("the fast variant of no_check_left.comp reads set 7 (err %v)", err)
	}
	fast := res.Precise.FastWords
	// The entry point's function id, changed to one no function has.
	noFunc := append([]uint32(nil), fast...)
	for i := 5; i < len(noFunc); i += int(noFunc[i] >> 16) {
		if noFunc[i]&0xffff == uint32(spirv.OpEntryPoint) {
			noFunc[i+2] = noFunc[3] - 1
		}
	}
	tests := []struct {
		name  string
		words []uint32
	}{
		{"empty", nil},
		{"bad magic", append([]uint32{0x12345678}, fast[1:]...)},
		{"cut in an instruction", append(append([]uint32(nil), fast...), 5<<16|uint32(spirv.OpNop))},
		{"zero word count", append(append([]uint32(nil), fast...), 0)},
		{"entry point without its function", noFunc},
	}
	for _, tt := range tests {
		if !ReadsSet(tt.words, 7) {
			t.Errorf("%s: reads nothing, want true", tt.name)
		}
	}
}

// FuzzReadsSet: any words, no panic.
func FuzzReadsSet(f *testing.F) {
	f.Add(spirv.BytesFromWords(compile(f, "no_check_left.comp", "vulkan1.1")), uint32(0))
	f.Fuzz(func(t *testing.T, b []byte, set uint32) {
		words := make([]uint32, len(b)/4)
		for i := range words {
			words[i] = uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24
		}
		ReadsSet(words, set)
	})
}
