package gpuav

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// PrintfAt is a printf coordinate filter (--printf-at): "pixel=120,45",
// "invocation=3,0,0", "vertex=5", or several terms separated by spaces or
// ';'. A term applies to the stage whose coordinates it names (the keys
// of StageCoords): a line of that stage is kept when every term naming
// its coordinates matches, and a line of a stage no term names is kept.
// The zero filter keeps everything. The session applies it to the lines
// it received; the printf pass compiles it into the instrumented module,
// so that lines it would not keep are never written.
type PrintfAt struct {
	Terms []PrintfTerm
}

// PrintfTerm is one name=values term of a PrintfAt.
type PrintfTerm struct {
	// Name is as the user wrote it: pixel, invocation...
	Name string
	// Key is the coordinate key it reads (StageCoords).
	Key  string
	Vals []float64
	// Floor compares the integer part (a pixel of frag_coord, whose
	// values are the pixel's centre).
	Floor bool
}

// printfTermNames maps a filter's names to coordinate keys; the keys
// themselves are names too.
var printfTermNames = map[string]string{
	"pixel":      "frag_coord",
	"invocation": "global_invocation_id",
	"vertex":     "vertex_index",
	"instance":   "instance_index",
	"launch":     "launch_id",
	"primitive":  "primitive_id",
}

// coordArity is how many values each coordinate key has.
var coordArity = map[string]int{
	"global_invocation_id": 3, "launch_id": 3, "frag_coord": 2, "tess_coord": 2,
	"vertex_index": 1, "instance_index": 1, "primitive_id": 1, "invocation_id": 1,
}

// PrintfAtNames are the names a filter term takes, for usage texts.
const PrintfAtNames = "pixel=X,Y invocation=X,Y,Z vertex=N instance=N primitive=N invocation_id=N tess_coord=U,V launch=X,Y,Z"

// ParsePrintfAt parses a filter ("" is the zero filter).
func ParsePrintfAt(s string) (PrintfAt, error) {
	var f PrintfAt
	for _, field := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == ' ' || r == '\t' }) {
		name, list, ok := strings.Cut(field, "=")
		if !ok {
			return PrintfAt{}, fmt.Errorf("printf filter %q: want NAME=VALUES (%s)", field, PrintfAtNames)
		}
		t := PrintfTerm{Name: name, Key: printfTermNames[name], Floor: name == "pixel"}
		if t.Key == "" {
			if _, ok := coordArity[name]; !ok {
				return PrintfAt{}, fmt.Errorf("printf filter %q: unknown name %q (%s)", field, name, PrintfAtNames)
			}
			t.Key = name
		}
		list = strings.TrimSuffix(strings.TrimPrefix(list, "("), ")")
		for _, v := range strings.Split(list, ",") {
			x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return PrintfAt{}, fmt.Errorf("printf filter %q: %q is not a number", field, v)
			}
			t.Vals = append(t.Vals, x)
		}
		if n := coordArity[t.Key]; len(t.Vals) != n {
			values := "values"
			if n == 1 {
				values = "value"
			}
			hint := ""
			if name == "invocation" && len(t.Vals) == 1 {
				// gl_InvocationID is invocation_id; invocation is
				// gl_GlobalInvocationID.
				hint = " (gl_GlobalInvocationID; a tessellation control or geometry shader's gl_InvocationID is invocation_id=N)"
			}
			return PrintfAt{}, fmt.Errorf("printf filter %q: %s takes %d %s%s", field, name, n, values, hint)
		}
		f.Terms = append(f.Terms, t)
	}
	return f, nil
}

// IsZero reports whether the filter keeps everything.
func (f PrintfAt) IsZero() bool { return len(f.Terms) == 0 }

// String is the filter as ParsePrintfAt reads it.
func (f PrintfAt) String() string {
	parts := make([]string, len(f.Terms))
	for i, t := range f.Terms {
		vals := make([]string, len(t.Vals))
		for k, v := range t.Vals {
			vals[k] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		parts[i] = t.Name + "=" + strings.Join(vals, ",")
	}
	return strings.Join(parts, " ")
}

// stageCoord is where one coordinate key of a stage is in its stage
// words (EachStageCoord's order): from word first, n words, floats or
// integers.
type stageCoord struct {
	key      string
	first, n int
	float    bool
}

// stageCoordsOf lists the coordinate keys of an execution model's stage
// words, as EachStageCoord decodes them (TestStageCoordsOf holds the two
// together).
func stageCoordsOf(model uint32) []stageCoord {
	switch model {
	case ModelVertex:
		return []stageCoord{{"vertex_index", 0, 1, false}, {"instance_index", 1, 1, false}}
	case ModelTessellationControl:
		return []stageCoord{{"invocation_id", 0, 1, false}, {"primitive_id", 1, 1, false}}
	case ModelTessellationEvaluation:
		return []stageCoord{{"primitive_id", 0, 1, false}, {"tess_coord", 1, 2, true}}
	case ModelGeometry:
		return []stageCoord{{"primitive_id", 0, 1, false}, {"invocation_id", 1, 1, false}}
	case ModelFragment:
		return []stageCoord{{"frag_coord", 0, 2, true}}
	case ModelGLCompute, ModelTaskNV, ModelTaskEXT, ModelMeshNV, ModelMeshEXT:
		return []stageCoord{{"global_invocation_id", 0, 3, false}}
	case ModelRayGeneration, ModelIntersection, ModelAnyHit, ModelClosestHit, ModelMiss, ModelCallable:
		return []stageCoord{{"launch_id", 0, 3, false}}
	}
	return nil
}

// wordTest is one comparison the filter makes on a stage word: the word
// (as an integer, or the integer part of a float's) equals want.
type wordTest struct {
	word  int
	want  uint32
	floor bool // the word is a float: compare its integer part
}

// stageTests compiles the filter for an execution model's stage words:
// the comparisons a line of that stage must pass (none: it is kept), and
// whether any line can pass (a value no word can hold matches none).
func (f PrintfAt) stageTests(model uint32) (tests []wordTest, possible bool) {
	coords := stageCoordsOf(model)
	for _, t := range f.Terms {
		for _, c := range coords {
			if c.key != t.Key || len(t.Vals) != c.n {
				continue
			}
			for i, v := range t.Vals {
				w := wordTest{word: c.first + i, floor: c.float && t.Floor}
				switch {
				case c.float && !t.Floor:
					// The word's bits are the float32 the session compares.
					if float64(float32(v)) != v {
						return nil, false
					}
					w.want = math.Float32bits(float32(v))
				case v != math.Trunc(v) || v < 0 || v > math.MaxUint32:
					// Integers, and a pixel's integer part (frag
					// coordinates are not negative).
					return nil, false
				default:
					w.want = uint32(v)
				}
				tests = append(tests, w)
			}
		}
	}
	return tests, true
}

// emitKeep emits the filter's test of a line's stage words (stage, the
// uvec4 of stageInfo.emitModel: the model, then the three words) for a shader
// of execution model model: the id of a bool, true when the line is kept;
// 0 when every line is kept; and whether any line can be.
func (f PrintfAt) emitKeep(e *emitter, model uint32, stage uint32) (keep uint32, possible bool) {
	tests, ok := f.stageTests(model)
	if !ok || len(tests) == 0 {
		return 0, ok
	}
	m := e.m
	u, b := m.TypeUint32(), m.TypeBool()
	for _, t := range tests {
		w := e.op(spirv.OpCompositeExtract, u, stage, uint32(t.word+1))
		if t.floor {
			w = e.op(spirv.OpConvertFToU, u, e.op(spirv.OpBitcast, m.TypeFloat(32), w))
		}
		eq := e.op(spirv.OpIEqual, b, w, m.ConstantUint32(t.want))
		if keep == 0 {
			keep = eq
		} else {
			keep = e.op(spirv.OpLogicalAnd, b, keep, eq)
		}
	}
	return keep, true
}
