package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// KindErrorsPacked is an Errors message in a compact binary encoding: the
// layer sends its records so (protocol 2) and session files keep them so.
// It reads about thirty times faster than the JSON of KindErrors and takes
// a quarter of the space; the launcher writes the payload it received to
// the session file as it is.
const KindErrorsPacked Kind = 80

// PackedVersion is the first byte of a KindErrorsPacked payload, the
// version AppendPackedErrors writes. A reader also reads version 1 (files
// written before the primary command buffer was carried: Primary and
// PrimaryAction decode as 0), 2 (before FirstSubmit: 0), 3 (before a
// record's Loop: 0) and 4 (before the serials: CommandBufferSerial,
// PrimarySerial and a record's PipelineSerial 0), and refuses any other.
const PackedVersion = 5

// packedVersion1 is the first packed format, without the header's primary
// and primary action; packedVersion2 has them but no first submit;
// packedVersion3 has no record's loop count; packedVersion4 no serials.
const (
	packedVersion1 = 1
	packedVersion2 = 2
	packedVersion3 = 3
	packedVersion4 = 4
)

// ErrPacked: a KindErrorsPacked payload does not decode.
var ErrPacked = errors.New("bad packed errors payload")

// packedCodec is KindErrorsPacked's payload codec.
var packedCodec = binaryCodec{
	decode: func(p []byte) (any, error) { return DecodePackedErrors(p) },
	encode: func(msg any) ([]byte, error) {
		switch m := msg.(type) {
		case *Errors:
			return AppendPackedErrors(nil, m), nil
		case Errors:
			return AppendPackedErrors(nil, &m), nil
		}
		return nil, fmt.Errorf("got a %T: %w", msg, ErrMismatch)
	},
}

// AppendPackedErrors appends the packed encoding of e to b:
//
//	u8       PackedVersion
//	uvarint  submit, queue, command buffer, dropped, primary, primary
//	         action, first submit, command buffer serial, primary serial
//	         (version 1 stops after dropped, version 2 after primary
//	         action, versions 3 and 4 after first submit)
//	uvarint  number of strings, then each: uvarint length, bytes
//	uvarint  number of label paths, then each: uvarint n, n string indices
//	uvarint  number of records, then each record as uvarints: check
//	         (string index), code, shader id, instruction, stage, stage
//	         words 0-2, action index, action (string index), pipeline,
//	         label path (index + 1, 0 = none), number of params, params,
//	         count (zigzag), loop (version 4), pipeline serial (version 5)
//
// Strings (check ids, action names, labels) and label paths are stored once
// per message.
func AppendPackedErrors(b []byte, e *Errors) []byte {
	return appendPacked(b, e, PackedVersion)
}

// appendPacked is AppendPackedErrors in a given version from 3 on (the
// tests write version 3 to read it back).
func appendPacked(b []byte, e *Errors, version byte) []byte {
	var p packer
	// Strings first, so that records can refer to them; the second look-up
	// below finds them again (the packer's last answer, mostly).
	for i := range e.Records {
		r := &e.Records[i]
		p.str(r.Check)
		p.str(r.Action)
		p.path(r.Labels)
	}
	b = append(b, version)
	b = binary.AppendUvarint(b, e.Submit)
	b = binary.AppendUvarint(b, e.Queue)
	b = binary.AppendUvarint(b, e.CommandBuffer)
	b = binary.AppendUvarint(b, uint64(e.Dropped))
	b = binary.AppendUvarint(b, e.Primary)
	b = binary.AppendUvarint(b, uint64(e.PrimaryAction))
	b = binary.AppendUvarint(b, e.FirstSubmit)
	if version > packedVersion4 {
		b = binary.AppendUvarint(b, e.CommandBufferSerial)
		b = binary.AppendUvarint(b, e.PrimarySerial)
	}
	b = binary.AppendUvarint(b, uint64(len(p.table)))
	for _, s := range p.table {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, uint64(len(p.pathTable)))
	for _, path := range p.pathTable {
		b = binary.AppendUvarint(b, uint64(len(path)))
		for _, id := range path {
			b = binary.AppendUvarint(b, id)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(e.Records)))
	for i := range e.Records {
		r := &e.Records[i]
		b = binary.AppendUvarint(b, p.str(r.Check))
		b = binary.AppendUvarint(b, uint64(r.Code))
		b = binary.AppendUvarint(b, uint64(r.ShaderID))
		b = binary.AppendUvarint(b, uint64(r.Instruction))
		b = binary.AppendUvarint(b, uint64(r.Stage))
		for _, w := range r.StageWords {
			b = binary.AppendUvarint(b, uint64(w))
		}
		b = binary.AppendUvarint(b, uint64(r.ActionIndex))
		b = binary.AppendUvarint(b, p.str(r.Action))
		b = binary.AppendUvarint(b, r.Pipeline)
		b = binary.AppendUvarint(b, p.path(r.Labels))
		b = binary.AppendUvarint(b, uint64(len(r.Params)))
		for _, v := range r.Params {
			b = binary.AppendUvarint(b, uint64(v))
		}
		b = binary.AppendVarint(b, int64(r.Count))
		if version > packedVersion3 {
			b = binary.AppendUvarint(b, uint64(r.Loop))
		}
		if version > packedVersion4 {
			b = binary.AppendUvarint(b, r.PipelineSerial)
		}
	}
	return b
}

// packer builds the string and label-path tables of one packed message.
// Records of one action share its strings and label slice, so the last
// answer of each is kept: a message costs a map look-up per action, not
// per record.
type packer struct {
	strs      map[string]uint64
	table     []string
	paths     map[string]uint64
	pathTable [][]uint64

	// recent are the last two strings looked up (a record's check and
	// action) and their indices, plus one.
	recent        [2]string
	recentIndex   [2]uint64
	next          int
	lastLabels    []string
	lastPathIndex uint64
}

// str returns the table index of s.
func (p *packer) str(s string) uint64 {
	for k := range p.recent {
		if p.recentIndex[k] != 0 && s == p.recent[k] {
			return p.recentIndex[k] - 1
		}
	}
	if p.strs == nil {
		p.strs = map[string]uint64{}
	}
	i, ok := p.strs[s]
	if !ok {
		i = uint64(len(p.table))
		p.strs[s] = i
		p.table = append(p.table, s)
	}
	p.recent[p.next], p.recentIndex[p.next] = s, i+1
	p.next ^= 1
	return i
}

// path returns the label path's index + 1, or 0 for none.
func (p *packer) path(labels []string) uint64 {
	if len(labels) == 0 {
		return 0
	}
	if len(labels) == len(p.lastLabels) && &labels[0] == &p.lastLabels[0] {
		return p.lastPathIndex
	}
	ids := make([]uint64, len(labels))
	key := make([]byte, 0, 8*len(labels))
	for i, l := range labels {
		ids[i] = p.str(l)
		key = binary.AppendUvarint(key, ids[i])
	}
	if p.paths == nil {
		p.paths = map[string]uint64{}
	}
	i, ok := p.paths[string(key)]
	if !ok {
		i = uint64(len(p.pathTable))
		p.paths[string(key)] = i
		p.pathTable = append(p.pathTable, ids)
	}
	p.lastLabels, p.lastPathIndex = labels, i+1
	return i + 1
}

// packedReader reads uvarints from a payload, remembering the first error.
type packedReader struct {
	b   []byte
	off int
	err error
}

func (r *packedReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s at byte %d", ErrPacked, what, r.off)
	}
}

func (r *packedReader) uvarint(what string) uint64 {
	if r.err != nil {
		return 0
	}
	if r.off < len(r.b) && r.b[r.off] < 0x80 { // one byte: most values
		r.off++
		return uint64(r.b[r.off-1])
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.fail(what)
		return 0
	}
	r.off += n
	return v
}

// u32 reads a uvarint that must fit 32 bits.
func (r *packedReader) u32(what string) uint32 {
	v := r.uvarint(what)
	if v > math.MaxUint32 {
		r.fail(what + " over 32 bits")
		return 0
	}
	return uint32(v)
}

// count reads a uvarint count of items of at least min bytes each, bounded
// by what is left of the payload.
func (r *packedReader) count(what string, min int) int {
	v := r.uvarint(what)
	if r.err == nil && v > uint64(len(r.b)-r.off)/uint64(min) {
		r.fail(fmt.Sprintf("%s %d larger than the payload", what, v))
		return 0
	}
	return int(v)
}

// Bounds of a packed payload, checked before anything is allocated for
// it, so that what a crafted payload that passes every other check costs
// is bounded by its size with a small factor (a 60 MB frame of empty
// strings and label paths allocated 1.49 GB): far above what the layer
// sends (a message holds one command buffer's records of a submit, or up
// to ClientMaxGroups coalesced entries of 8 samples each).
const (
	// MaxPackedStrings bounds the strings of a message (check ids, action
	// names, labels).
	MaxPackedStrings = 1 << 16
	// MaxPackedPaths bounds its label paths, MaxLabelDepth each path's
	// depth, and MaxPackedLabels the labels of all its paths.
	MaxPackedPaths  = 1 << 16
	MaxLabelDepth   = 256
	MaxPackedLabels = 1 << 20
	// MaxPackedRecords bounds its records, MaxRecordParams each record's
	// parameters.
	MaxPackedRecords = 1 << 21
	MaxRecordParams  = 16
)

// bounded is count with an upper bound: a count past max fails.
func (r *packedReader) bounded(what string, min, max int) int {
	n := r.count(what, min)
	if r.err == nil && n > max {
		r.fail(fmt.Sprintf("%s %d (max %d)", what, n, max))
		return 0
	}
	return n
}

// DecodePackedErrors decodes a KindErrorsPacked payload. Records share
// their strings, label paths and one params array, so a message of n
// records costs a handful of allocations, not n.
func DecodePackedErrors(p []byte) (*Errors, error) {
	var d PackedDecoder
	return d.Decode(p)
}

// PackedDecoder decodes KindErrorsPacked payloads one after the other into
// the same room: the message it returns, its records and their params are
// overwritten by the next call, so a reader that keeps nothing of them
// decodes a whole file with no allocation per message beyond its strings.
// The zero value is ready to use.
type PackedDecoder struct {
	e      Errors
	params []uint32
}

// Decode decodes one payload; the message is valid until the next call.
func (d *PackedDecoder) Decode(p []byte) (*Errors, error) {
	if err := d.decode(p); err != nil {
		d.e = Errors{}
		return nil, err
	}
	return &d.e, nil
}

func (d *PackedDecoder) decode(p []byte) error {
	if len(p) == 0 {
		return fmt.Errorf("decode errors_packed: %w: empty", ErrPacked)
	}
	if p[0] < packedVersion1 || p[0] > PackedVersion {
		return fmt.Errorf("decode errors_packed: %w: version %d, this reader reads %d to %d", ErrPacked, p[0],
			packedVersion1, PackedVersion)
	}
	r := &packedReader{b: p, off: 1}
	e := &d.e
	*e = Errors{Records: e.Records[:0]}
	e.Submit = r.uvarint("submit")
	e.Queue = r.uvarint("queue")
	e.CommandBuffer = r.uvarint("command buffer")
	e.Dropped = r.u32("dropped")
	if p[0] >= packedVersion2 {
		e.Primary = r.uvarint("primary")
		e.PrimaryAction = r.u32("primary action")
	}
	if p[0] >= packedVersion3 {
		e.FirstSubmit = r.uvarint("first submit")
	}
	if p[0] > packedVersion4 {
		e.CommandBufferSerial = r.uvarint("command buffer serial")
		e.PrimarySerial = r.uvarint("primary serial")
	}
	table := make([]string, r.bounded("string count", 1, MaxPackedStrings))
	for i := range table {
		n := r.count("string length", 1)
		if r.err != nil {
			break
		}
		table[i] = string(r.b[r.off : r.off+n])
		r.off += n
	}
	str := func(what string) string {
		i := r.uvarint(what)
		if r.err == nil && i >= uint64(len(table)) {
			r.fail(fmt.Sprintf("%s string %d of %d", what, i, len(table)))
		}
		if r.err != nil {
			return ""
		}
		return table[i]
	}
	paths := make([][]string, r.bounded("label path count", 1, MaxPackedPaths))
	labels := 0
	for i := range paths {
		n := r.bounded("label path length", 1, MaxLabelDepth)
		if labels += n; r.err == nil && labels > MaxPackedLabels {
			r.fail(fmt.Sprintf("%d labels in the label paths (max %d)", labels, MaxPackedLabels))
		}
		if r.err != nil {
			break
		}
		paths[i] = make([]string, n)
		for j := range paths[i] {
			paths[i][j] = str("label")
		}
	}
	// A record takes at least 15 bytes.
	n := r.bounded("record count", 15, MaxPackedRecords)
	if r.err != nil {
		return fmt.Errorf("decode errors_packed: %w", r.err)
	}
	d.records(r, n, str, paths, p[0] > packedVersion3, p[0] > packedVersion4)
	if r.err == nil && r.off != len(r.b) {
		r.fail(fmt.Sprintf("%d bytes after the last record", len(r.b)-r.off))
	}
	if r.err != nil {
		return fmt.Errorf("decode errors_packed: %w", r.err)
	}
	return nil
}

// records decodes the n records of a payload into d.e.Records, sharing
// one params array; str reads a string index, paths are the label paths,
// loop says the records end with their loop count (version 4), serial
// with their pipeline serial after it (version 5). It stops at the first
// error, which r keeps.
func (d *PackedDecoder) records(r *packedReader, n int, str func(what string) string, paths [][]string, loop, serial bool) {
	e := &d.e
	params := d.params[:0]
	if cap(e.Records) < n {
		e.Records = make([]Record, n)
	}
	e.Records = e.Records[:n]
	for i := range e.Records {
		rec := &e.Records[i]
		*rec = Record{}
		rec.Check = str("check")
		rec.Code = r.u32("code")
		rec.ShaderID = r.u32("shader id")
		rec.Instruction = r.u32("instruction")
		rec.Stage = r.u32("stage")
		for j := range rec.StageWords {
			rec.StageWords[j] = r.u32("stage word")
		}
		rec.ActionIndex = r.u32("action index")
		rec.Action = str("action")
		rec.Pipeline = r.uvarint("pipeline")
		if pi := r.uvarint("label path"); pi > 0 {
			if pi > uint64(len(paths)) {
				r.fail(fmt.Sprintf("label path %d of %d", pi-1, len(paths)))
			} else {
				rec.Labels = paths[pi-1]
			}
		}
		np := r.bounded("params", 1, MaxRecordParams)
		if r.err != nil {
			return
		}
		if cap(params)-len(params) < np {
			params = make([]uint32, 0, max(np, min(np*(n-i), (len(r.b)-r.off)/4)))
			d.params = params
		}
		start := len(params)
		for range np {
			params = append(params, r.u32("param"))
		}
		rec.Params = params[start:len(params):len(params)]
		if r.err != nil {
			return
		}
		v, k := binary.Varint(r.b[r.off:])
		if k <= 0 || v < math.MinInt32 || v > math.MaxInt32 {
			r.fail("count")
			return
		}
		r.off += k
		rec.Count = int(v)
		if loop {
			rec.Loop = int(r.u32("loop"))
		}
		if serial {
			rec.PipelineSerial = r.uvarint("pipeline serial")
		}
	}
}
