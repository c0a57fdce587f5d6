package session

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// The coordinates a Coords holds inline: every stage has at most two keys
// and three values.
const (
	maxCoordKeys   = 2
	maxCoordValues = 3
)

// Coords are the stage coordinates of one invocation: a few named values,
// "global_invocation_id" (0,0,0), or "vertex_index" 3 and "instance_index"
// 0 (each stage's keys are in the JSON contract, docs/REPORT.md). A Coords
// is a small value that holds them inline, keys in print order, because a
// session of a million records keeps millions of them; its JSON form is
// the object {"key":[values]}. The zero Coords has no keys.
type Coords struct {
	n    uint8
	lens [maxCoordKeys]uint8
	// keys index coordKeyOrder.
	keys [maxCoordKeys]uint8
	vals [maxCoordValues]float64
	// wide holds coordinates that do not fit inline (other keys or more
	// values, from a JSON report written by another tool); nil otherwise.
	wide map[string][]float64
}

// coordKeyOrder is every key a stage gives, in the order coordinate keys
// are printed in; others follow alphabetically.
var coordKeyOrder = []string{
	"global_invocation_id", "launch_id", "frag_coord", "vertex_index", "instance_index",
	"primitive_id", "invocation_id", "tess_coord", "words",
}

// compareKeys orders coordinate keys for printing.
func compareKeys(a, b string) int {
	rank := func(k string) int {
		if i := slices.Index(coordKeyOrder, k); i >= 0 {
			return i
		}
		return len(coordKeyOrder)
	}
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra - rb
	}
	return strings.Compare(a, b)
}

// CoordsOf makes coordinates from named values (the map is not kept).
func CoordsOf(m map[string][]float64) Coords {
	var c Coords
	for k, v := range m {
		c.add(k, v)
	}
	return c
}

// stageCoords are the coordinates of a record of a stage (a SPIR-V
// execution model) from its stage words.
func stageCoords(stage uint32, words [3]uint32) Coords {
	var c Coords
	gpuav.EachStageCoord(stage, words, func(key string, n int, v [3]float64) { c.add(key, v[:n]) })
	return c
}

// add adds a key and its values: inline, in print order, while every key
// is one a stage gives and they fit; otherwise all go to wide.
func (c *Coords) add(k string, v []float64) {
	rank := slices.Index(coordKeyOrder, k)
	used := c.valueCount()
	if c.wide == nil && rank >= 0 && int(c.n) < maxCoordKeys && used+len(v) <= maxCoordValues {
		p, off := 0, 0
		for p < int(c.n) && int(c.keys[p]) < rank {
			off += int(c.lens[p])
			p++
		}
		copy(c.keys[p+1:], c.keys[p:c.n])
		copy(c.lens[p+1:], c.lens[p:c.n])
		copy(c.vals[off+len(v):], c.vals[off:used])
		c.keys[p], c.lens[p] = uint8(rank), uint8(len(v))
		copy(c.vals[off:], v)
		c.n++
		return
	}
	if c.wide == nil {
		w := make(map[string][]float64, c.n+1)
		for _, key := range c.Keys() {
			w[key] = c.Get(key)
		}
		*c = Coords{wide: w}
	}
	c.wide[k] = slices.Clone(v)
}

// valueCount is the number of values held inline.
func (c *Coords) valueCount() int {
	n := 0
	for i := range int(c.n) {
		n += int(c.lens[i])
	}
	return n
}

// IsZero reports whether c has no keys.
func (c Coords) IsZero() bool { return c.n == 0 && len(c.wide) == 0 }

// Len is the number of keys.
func (c Coords) Len() int {
	if c.wide != nil {
		return len(c.wide)
	}
	return int(c.n)
}

// Keys returns the keys in print order.
func (c Coords) Keys() []string {
	if c.wide != nil {
		return slices.SortedFunc(maps.Keys(c.wide), compareKeys)
	}
	keys := make([]string, c.n)
	for i := range keys {
		keys[i] = coordKeyOrder[c.keys[i]]
	}
	return keys
}

// Get returns the values of key k (nil when c has no such key).
func (c Coords) Get(k string) []float64 {
	if c.wide != nil {
		return slices.Clone(c.wide[k])
	}
	off := 0
	for i := range int(c.n) {
		n := int(c.lens[i])
		if coordKeyOrder[c.keys[i]] == k {
			return slices.Clone(c.vals[off : off+n])
		}
		off += n
	}
	return nil
}

// Map returns the coordinates as a map of key to values (nil for none).
func (c Coords) Map() map[string][]float64 {
	if c.IsZero() {
		return nil
	}
	m := make(map[string][]float64, c.Len())
	for _, k := range c.Keys() {
		m[k] = c.Get(k)
	}
	return m
}

// Equal reports whether two coordinates have the same keys and values.
func (c Coords) Equal(o Coords) bool {
	if c.wide == nil && o.wide == nil {
		return c.n == o.n && c.lens == o.lens && c.keys == o.keys && c.vals == o.vals
	}
	a, b := c.Map(), o.Map()
	return maps.EqualFunc(a, b, slices.Equal)
}

// MarshalJSON writes {"key":[values]}, keys sorted, as a map would be.
func (c Coords) MarshalJSON() ([]byte, error) { return json.Marshal(c.Map()) }

// UnmarshalJSON reads {"key":[values]}.
func (c *Coords) UnmarshalJSON(b []byte) error {
	var m map[string][]float64
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*c = CoordsOf(m)
	return nil
}

// formatNumbers prints coordinate values: integers without a fraction,
// others as short as they round-trip.
func formatNumbers(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	if len(v) == 1 {
		return parts[0]
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// String prints coordinates as "global_invocation_id (0,0,0)" or
// "vertex_index 3, instance_index 0".
func (c Coords) String() string {
	var b strings.Builder
	for i, k := range c.Keys() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k)
		b.WriteByte(' ')
		b.WriteString(formatNumbers(c.Get(k)))
	}
	return b.String()
}

// Values prints only the numbers: "(0,0,0)" for one key, and
// "(vertex_index 3, instance_index 0)" for several.
func (c Coords) Values() string {
	ks := c.Keys()
	if len(ks) == 1 {
		v := formatNumbers(c.Get(ks[0]))
		if !strings.HasPrefix(v, "(") {
			v = "(" + v + ")"
		}
		return v
	}
	return "(" + c.String() + ")"
}
