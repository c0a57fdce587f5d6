package session

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

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
// is a small value without pointers that holds them inline, keys in print
// order, because a session of a million records keeps millions of them;
// its JSON form is the object {"key":[values]}. The zero Coords has no
// keys.
//
// Each value a stage gives is a 32-bit word, an integer or a float32, and
// is kept as that word; coordinates that do not fit (other keys, more
// values, numbers that are neither, from a JSON report written by another
// tool) are kept in a table of the package (wideCoords), one entry per
// distinct set, and the Coords holds its index.
type Coords struct {
	// n is the number of keys, or wideN: vals[0] indexes wideCoords.
	n    uint8
	lens [maxCoordKeys]uint8
	// keys index coordKeyOrder.
	keys [maxCoordKeys]uint8
	// floats has bit i set when vals[i] holds float32 bits; clear, it
	// holds an unsigned integer.
	floats uint8
	vals   [maxCoordValues]uint32
}

// wideN marks the Coords whose values are in wideCoords.
const wideN = 0xff

// wideCoords holds the coordinates that do not fit in a Coords, once per
// distinct set: a list that only grows (by what JSON reports of other
// tools carry), and an index from their JSON form to their place.
var wideCoords struct {
	sync.Mutex
	list  []map[string][]float64
	index map[string]uint32
}

// wideOf makes coordinates that live in wideCoords (m is not kept).
func wideOf(m map[string][]float64) Coords {
	var b strings.Builder // the keys sorted, the numbers as they round-trip
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(&b, "%q", k)
		for _, v := range m[k] {
			b.WriteString(" " + strconv.FormatFloat(v, 'g', -1, 64))
		}
		b.WriteByte(';')
	}
	key := b.String()
	w := &wideCoords
	w.Lock()
	defer w.Unlock()
	i, ok := w.index[key]
	if !ok {
		if w.index == nil {
			w.index = map[string]uint32{}
		}
		i = uint32(len(w.list))
		w.list = append(w.list, maps.Clone(m))
		for k, v := range m {
			w.list[i][k] = slices.Clone(v)
		}
		w.index[key] = i
	}
	return Coords{n: wideN, vals: [maxCoordValues]uint32{i}}
}

// wide returns the map of coordinates kept in wideCoords (not to be
// changed), or nil for inline ones.
func (c Coords) wide() map[string][]float64 {
	if c.n != wideN {
		return nil
	}
	wideCoords.Lock()
	defer wideCoords.Unlock()
	return wideCoords.list[c.vals[0]]
}

// coordKeyOrder is every key a stage gives, in the order coordinate keys
// are printed in (messages'); others follow alphabetically.
var coordKeyOrder = gpuav.CoordKeyOrder

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
		if !c.add(k, v) {
			return wideOf(m)
		}
	}
	return c
}

// stageCoords are the coordinates of a record of a stage (a SPIR-V
// execution model) from its stage words.
func stageCoords(stage uint32, words [3]uint32) Coords {
	var c Coords
	fits := true
	gpuav.EachStageCoord(stage, words, func(key string, n int, v [3]float64) { fits = fits && c.add(key, v[:n]) })
	if !fits { // a float that is NaN
		return wideOf(gpuav.StageCoords(stage, words))
	}
	return c
}

// word is how a Coords keeps value v: an unsigned integer, or else the
// bits of a float32 (isFloat); ok is false for a number that is neither.
func word(v float64) (w uint32, isFloat, ok bool) {
	if v >= 0 && v <= math.MaxUint32 && v == math.Trunc(v) && !math.Signbit(v) {
		return uint32(v), false, true
	}
	if f := float32(v); float64(f) == v {
		return math.Float32bits(f), true, true
	}
	return 0, false, false
}

// value is the value vals[i] holds.
func (c *Coords) value(i int) float64 {
	if c.floats&(1<<i) != 0 {
		return float64(math.Float32frombits(c.vals[i]))
	}
	return float64(c.vals[i])
}

// add adds a key and its values inline, in print order; it reports false,
// changing nothing, when they do not fit (a key no stage gives, too many
// keys or values, a value that is not a 32-bit word).
func (c *Coords) add(k string, v []float64) bool {
	rank := slices.Index(coordKeyOrder, k)
	used := c.valueCount()
	if c.n == wideN || rank < 0 || int(c.n) >= maxCoordKeys || used+len(v) > maxCoordValues {
		return false
	}
	var words [maxCoordValues]uint32
	var floats uint8
	for i, x := range v {
		w, isFloat, ok := word(x)
		if !ok {
			return false
		}
		words[i] = w
		if isFloat {
			floats |= 1 << i
		}
	}
	p, off := 0, 0
	for p < int(c.n) && int(c.keys[p]) < rank {
		off += int(c.lens[p])
		p++
	}
	copy(c.keys[p+1:], c.keys[p:c.n])
	copy(c.lens[p+1:], c.lens[p:c.n])
	copy(c.vals[off+len(v):], c.vals[off:used])
	below := c.floats & (1<<off - 1)
	c.floats = below | floats<<off | (c.floats&^(1<<off-1))<<len(v)
	c.floats &= 1<<maxCoordValues - 1
	c.keys[p], c.lens[p] = uint8(rank), uint8(len(v))
	copy(c.vals[off:], words[:len(v)])
	c.n++
	return true
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
func (c Coords) IsZero() bool { return c.n == 0 }

// Len is the number of keys.
func (c Coords) Len() int {
	if w := c.wide(); w != nil {
		return len(w)
	}
	return int(c.n)
}

// Keys returns the keys in print order.
func (c Coords) Keys() []string {
	if w := c.wide(); w != nil {
		return slices.SortedFunc(maps.Keys(w), compareKeys)
	}
	keys := make([]string, c.n)
	for i := range keys {
		keys[i] = coordKeyOrder[c.keys[i]]
	}
	return keys
}

// Get returns the values of key k (nil when c has no such key).
func (c Coords) Get(k string) []float64 {
	if w := c.wide(); w != nil {
		return slices.Clone(w[k])
	}
	v, n, ok := coordValues(c, k)
	if !ok {
		return nil
	}
	return slices.Clone(v[:n])
}

// coordValues reads key k's values without allocating (Get copies them);
// ok is false when c has no such key. For coordinates in wideCoords, n
// may be more than the values returned.
func coordValues(c Coords, k string) (v [maxCoordValues]float64, n int, ok bool) {
	if w := c.wide(); w != nil {
		vals, found := w[k]
		n = copy(v[:], vals)
		return v, max(n, len(vals)), found
	}
	off := 0
	for i := range int(c.n) {
		l := int(c.lens[i])
		if coordKeyOrder[c.keys[i]] == k {
			for j := range l {
				v[j] = c.value(off + j)
			}
			return v, l, true
		}
		off += l
	}
	return v, 0, false
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
	if c.n != wideN && o.n != wideN {
		return c == o
	}
	return maps.EqualFunc(c.Map(), o.Map(), slices.Equal)
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

// appendNumbers appends coordinate values as messages print them
// (gpuav.AppendCoordValues).
func appendNumbers(b []byte, v []float64) []byte { return gpuav.AppendCoordValues(b, v) }

// appendKeys appends "key values" for each key, separated by ", "
// (without names, the values only).
func (c Coords) appendKeys(b []byte, names bool) []byte {
	one := func(i int, k string, v []float64) {
		if i > 0 {
			b = append(b, ", "...)
		}
		if names {
			b = append(append(b, k...), ' ')
		}
		b = appendNumbers(b, v)
	}
	if w := c.wide(); w != nil {
		for i, k := range slices.SortedFunc(maps.Keys(w), compareKeys) {
			one(i, k, w[k])
		}
		return b
	}
	var v [maxCoordValues]float64
	for j := range c.valueCount() {
		v[j] = c.value(j)
	}
	off := 0
	for i := range int(c.n) {
		l := int(c.lens[i])
		one(i, coordKeyOrder[c.keys[i]], v[off:off+l])
		off += l
	}
	return b
}

// String prints coordinates as "global_invocation_id (0,0,0)" or
// "vertex_index 3, instance_index 0".
func (c Coords) String() string { return string(c.appendKeys(make([]byte, 0, 48), true)) }

// Values prints only the numbers: "(0,0,0)" for one key, and
// "(vertex_index 3, instance_index 0)" for several.
func (c Coords) Values() string {
	if c.Len() != 1 {
		return "(" + c.String() + ")"
	}
	v := c.appendKeys(make([]byte, 0, 32), false) // "3" or "(0,0,0)"
	if v[0] == '(' {
		return string(v)
	}
	return "(" + string(v) + ")"
}
