package session

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// TestCoords: coordinates from every stage and from maps (as a report
// reads them) hold the same keys and values, print and write JSON as the
// map of the report did, and compare equal whatever order the keys came
// in; what does not fit inline (another tool's keys) still round-trips.
func TestCoords(t *testing.T) {
	for _, c := range []struct {
		stage  uint32
		words  [3]uint32
		json   string
		text   string
		values string
	}{
		{gpuav.ModelGLCompute, [3]uint32{1, 2, 3}, `{"global_invocation_id":[1,2,3]}`, "global_invocation_id (1,2,3)", "(1,2,3)"},
		{gpuav.ModelVertex, [3]uint32{7, 1, 9}, `{"instance_index":[1],"vertex_index":[7]}`, "vertex_index 7, instance_index 1",
			"(vertex_index 7, instance_index 1)"},
		{gpuav.ModelTessellationControl, [3]uint32{2, 5, 0}, `{"invocation_id":[2],"primitive_id":[5]}`,
			"primitive_id 5, invocation_id 2", "(primitive_id 5, invocation_id 2)"},
		{gpuav.ModelTessellationEvaluation, [3]uint32{4, 0x3f000000, 0x3e800000}, `{"primitive_id":[4],"tess_coord":[0.5,0.25]}`,
			"primitive_id 4, tess_coord (0.5,0.25)", "(primitive_id 4, tess_coord (0.5,0.25))"},
		{gpuav.ModelFragment, [3]uint32{0x3fc00000, 0x41200000, 0}, `{"frag_coord":[1.5,10]}`, "frag_coord (1.5,10)", "(1.5,10)"},
		{gpuav.ModelRayGeneration, [3]uint32{0, 1, 2}, `{"launch_id":[0,1,2]}`, "launch_id (0,1,2)", "(0,1,2)"},
		{99, [3]uint32{1, 2, 3}, `{"words":[1,2,3]}`, "words (1,2,3)", "(1,2,3)"},
	} {
		got := stageCoords(c.stage, c.words)
		fromMap := CoordsOf(gpuav.StageCoords(c.stage, c.words))
		if !reflect.DeepEqual(got, fromMap) || !got.Equal(fromMap) {
			t.Errorf("stage %d: %#v from words, %#v from the map", c.stage, got, fromMap)
		}
		b, err := json.Marshal(got)
		if err != nil || string(b) != c.json {
			t.Errorf("stage %d: JSON %s, %v; want %s", c.stage, b, err, c.json)
		}
		var back Coords
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, got) {
			t.Errorf("stage %d: JSON reads back as %#v, %v", c.stage, back, err)
		}
		if got.String() != c.text || got.Values() != c.values {
			t.Errorf("stage %d: %q, %q; want %q, %q", c.stage, got.String(), got.Values(), c.text, c.values)
		}
	}
	wide := map[string][]float64{"a": {1}, "b": {2, 3}, "global_invocation_id": {4, 5, 6}}
	w := CoordsOf(wide)
	if w.Len() != 3 || !reflect.DeepEqual(w.Keys(), []string{"global_invocation_id", "a", "b"}) || !reflect.DeepEqual(w.Map(), wide) ||
		!w.Equal(CoordsOf(wide)) || w.Equal(stageCoords(gpuav.ModelGLCompute, [3]uint32{4, 5, 6})) {
		t.Errorf("wide coordinates %#v", w)
	}
	var zero Coords
	if b, _ := json.Marshal(zero); !zero.IsZero() || zero.Len() != 0 || string(b) != "null" || !CoordsOf(nil).IsZero() {
		t.Errorf("zero coordinates: %s", b)
	}
}

// Every number keeps its exact value: integers and float32 values inline,
// others (and other keys) in the wide table; equal sets are equal and
// share one entry of the table.
func TestCoordsValuesExact(t *testing.T) {
	for _, c := range []struct {
		m      map[string][]float64
		inline bool
	}{
		{map[string][]float64{"global_invocation_id": {0, 4294967295, 7}}, true},
		{map[string][]float64{"frag_coord": {0.5, -1}}, true},
		{map[string][]float64{"frag_coord": {math.Copysign(0, -1), float64(float32(3e38))}}, true},
		{map[string][]float64{"primitive_id": {4}, "tess_coord": {0.25, 1e-3}}, false}, // 0.001 is no float32
		{map[string][]float64{"global_invocation_id": {4294967297, 0, 0}}, false},      // past uint32, no float32
		{map[string][]float64{"vertex_index": {1}, "instance_index": {2}, "primitive_id": {3}}, false},
		{map[string][]float64{"x": {1}}, false},
	} {
		got := CoordsOf(c.m)
		if (got.n != wideN) != c.inline {
			t.Errorf("%v: inline %v, want %v", c.m, got.n != wideN, c.inline)
		}
		back := got.Map()
		for k, v := range c.m {
			for i := range v {
				if math.Float64bits(back[k][i]) != math.Float64bits(v[i]) {
					t.Errorf("%v: %s[%d] reads back %v", c.m, k, i, back[k][i])
				}
			}
		}
		if again := CoordsOf(c.m); again != got || !again.Equal(got) {
			t.Errorf("%v: %#v made again is %#v", c.m, got, again)
		}
	}
	for _, c := range []struct {
		m            map[string][]float64
		text, values string
	}{ // numbers as strconv's 'g' writes them: 1e6 and past in e-notation
		{map[string][]float64{"global_invocation_id": {999999, 1e6, 4294967295}}, "global_invocation_id (999999,1e+06,4.294967295e+09)",
			"(999999,1e+06,4.294967295e+09)"},
		{map[string][]float64{"vertex_index": {7}}, "vertex_index 7", "(7)"},
		{map[string][]float64{"frag_coord": {math.Copysign(0, -1), 0.5}, "x": {}}, "frag_coord (-0,0.5), x ()", "(frag_coord (-0,0.5), x ())"},
		{map[string][]float64{"y": {1, 2}}, "y (1,2)", "(1,2)"},
	} {
		if got := CoordsOf(c.m); got.String() != c.text || got.Values() != c.values {
			t.Errorf("%v: %q, %q; want %q, %q", c.m, got.String(), got.Values(), c.text, c.values)
		}
	}
	if nan := stageCoords(gpuav.ModelFragment, [3]uint32{0x7fc00000, 0x3f800000}); nan.Len() != 1 || !math.IsNaN(nan.Get("frag_coord")[0]) {
		t.Errorf("a NaN frag_coord reads %v", nan.Map())
	}
}

// TestCoordsTextAsMessages: a record's coordinates print in the session
// as gpuav.StageCoordText prints them for the layer's messages, named and
// as a sample, for every stage (NaN and fractions included).
func TestCoordsTextAsMessages(t *testing.T) {
	f := func(x float32) uint32 { return math.Float32bits(x) }
	models := []uint32{gpuav.ModelVertex, gpuav.ModelTessellationControl, gpuav.ModelTessellationEvaluation, gpuav.ModelGeometry,
		gpuav.ModelFragment, gpuav.ModelGLCompute, gpuav.ModelTaskNV, gpuav.ModelMeshNV, gpuav.ModelRayGeneration,
		gpuav.ModelIntersection, gpuav.ModelAnyHit, gpuav.ModelClosestHit, gpuav.ModelMiss, gpuav.ModelCallable,
		gpuav.ModelTaskEXT, gpuav.ModelMeshEXT, 77}
	for _, m := range models {
		for _, w := range [][3]uint32{{0, 0, 0}, {3, 7, 1 << 31}, {f(120.5), f(45.5), f(0.25)}, {f(float32(math.NaN())), f(-1), 2e6}} {
			c := stageCoords(m, w)
			named, values := gpuav.StageCoordText(m, w)
			if c.String() != named || c.Values() != values && !c.IsZero() {
				t.Errorf("model %d, words %v: session %q %q, messages %q %q", m, w, c.String(), c.Values(), named, values)
			}
		}
	}
}
