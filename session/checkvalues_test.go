package session

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// TestFloat32JSON: finite floats are numbers (shortest exact form), the
// others strings, and both read back.
func TestFloat32JSON(t *testing.T) {
	tests := []struct {
		in   float32
		want string
	}{
		{0, "0"}, {-1, "-1"}, {4.5, "4.5"}, {0.1, "0.1"}, {1e30, "1e+30"},
		{float32(math.Inf(1)), `"+Inf"`}, {float32(math.Inf(-1)), `"-Inf"`}, {float32(math.NaN()), `"NaN"`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(Float32(tt.in))
		if err != nil || string(b) != tt.want {
			t.Errorf("%v: %s %v, want %s", tt.in, b, err, tt.want)
			continue
		}
		var back Float32
		if err := json.Unmarshal(b, &back); err != nil {
			t.Errorf("%s: %v", b, err)
		} else if math.Float32bits(float32(back)) != math.Float32bits(tt.in) && !(tt.in != tt.in && back != back) {
			t.Errorf("%s read back as %v", b, back)
		}
	}
	var bad Float32
	if err := json.Unmarshal([]byte(`"fast"`), &bad); err == nil {
		t.Errorf("a bad float string must fail")
	}
}

// TestRayOf: the direction replaces the origin for a direction error.
func TestRayOf(t *testing.T) {
	b := math.Float32bits
	d := gpuav.Describe(gpuav.CodeRayQueryDirectionNonFinite, [gpuav.RecordParams]uint32{b(0), b(10), b(1), b(float32(math.NaN())), b(2), 4, 0xff})
	got, err := json.Marshal(rayOf(d.Ray))
	want := `{"tmin":0,"tmax":10,"direction":[1,"NaN",2],"flags":4,"cull_mask":255}`
	if err != nil || string(got) != want {
		t.Errorf("got %s %v, want %s", got, err, want)
	}
	if rayOf(nil) != nil {
		t.Errorf("no ray values must give nil")
	}
}
