package wire

import (
	"encoding/binary"
	"strings"
)

// backlog holds the error records a Client could not encode while the
// launcher fell behind, coalesced: records that differ only in their stage
// coordinates and their submit add to one entry's count, which keeps up to
// backlogSamples distinct coordinates (the first ones, as the layer's own
// grouping does). Memory is bounded by the number of entries, not records.
type backlog struct {
	index   map[backlogKey]int
	entries []backlogEntry
	// dropped is the records the GPU buffers had no room for, per
	// command buffer attribution, so that coalescing keeps them.
	dropped map[attribution]*overflow
	order   []attribution
	// records is the sum of the entries' counts.
	records uint64
}

// backlogSamples is how many distinct stage coordinates an entry keeps;
// later ones add to the last one's count (the layer's samplesPerGroup).
const backlogSamples = 8

// overflow is the records a command buffer's GPU buffer dropped in
// submits first to last.
type overflow struct{ n, first, last uint64 }

// attribution is where an Errors message's records ran: its command
// buffer (handle and serial), queue and, for a secondary, the primary.
type attribution struct {
	cmdBuf, cmdBufSerial, queue, primary, primarySerial uint64
	primaryAction                                       uint32
}

// backlogKey is a record without its stage words, submit and count.
type backlogKey struct {
	at                                       attribution
	check, action, labels, params            string
	code, shader, instruction, stage, actIdx uint32
	pipeline, pipelineSerial                 uint64
}

type backlogEntry struct {
	key                     backlogKey
	first                   Record // Labels and Params are kept from it
	firstSubmit, lastSubmit uint64
	samples                 [backlogSamples][3]uint32
	counts                  [backlogSamples]int
	nsamples                int
}

func attributionOf(e *Errors) attribution {
	return attribution{cmdBuf: e.CommandBuffer, cmdBufSerial: e.CommandBufferSerial, queue: e.Queue, primary: e.Primary,
		primarySerial: e.PrimarySerial, primaryAction: e.PrimaryAction}
}

func keyOf(at attribution, r *Record) backlogKey {
	params := make([]byte, 0, 4*len(r.Params))
	for _, p := range r.Params {
		params = binary.LittleEndian.AppendUint32(params, p)
	}
	return backlogKey{at: at, check: r.Check, action: r.Action, labels: strings.Join(r.Labels, "\x1f"),
		params: string(params), code: r.Code, shader: r.ShaderID, instruction: r.Instruction, stage: r.Stage,
		actIdx: r.ActionIndex, pipeline: r.Pipeline, pipelineSerial: r.PipelineSerial}
}

// empty reports whether the backlog holds nothing.
func (b *backlog) empty() bool { return len(b.entries) == 0 && len(b.order) == 0 }

// size is how many entries the backlog holds.
func (b *backlog) size() int { return len(b.entries) }

// add coalesces e's records. A record of a new entry when the backlog
// already holds limit entries is not kept: lost receives it.
func (b *backlog) add(e *Errors, limit int, lost func(r *Record)) {
	if b.index == nil {
		b.index = map[backlogKey]int{}
		b.dropped = map[attribution]*overflow{}
	}
	at := attributionOf(e)
	if e.Dropped > 0 {
		o := b.dropped[at]
		if o == nil {
			o = &overflow{first: e.Submit}
			b.dropped[at] = o
			b.order = append(b.order, at)
		}
		o.n += uint64(e.Dropped)
		o.first, o.last = min(o.first, e.Submit), max(o.last, e.Submit)
	}
	for i := range e.Records {
		r := &e.Records[i]
		k := keyOf(at, r)
		j, ok := b.index[k]
		if !ok {
			if len(b.entries) >= limit {
				lost(r)
				continue
			}
			j = len(b.entries)
			b.index[k] = j
			first := *r
			first.Labels = append([]string(nil), r.Labels...)
			first.Params = append([]uint32(nil), r.Params...)
			b.entries = append(b.entries, backlogEntry{key: k, first: first, firstSubmit: e.Submit})
		}
		n := max(r.Count, 1)
		b.entries[j].add(e.Submit, r.StageWords, n)
		b.records += uint64(n)
	}
}

// add counts n records at stage words w from submit.
func (x *backlogEntry) add(submit uint64, w [3]uint32, n int) {
	x.firstSubmit = min(x.firstSubmit, submit)
	x.lastSubmit = max(x.lastSubmit, submit)
	for i := 0; i < x.nsamples; i++ {
		if x.samples[i] == w {
			x.counts[i] += n
			return
		}
	}
	if x.nsamples < backlogSamples {
		x.samples[x.nsamples] = w
		x.counts[x.nsamples] = n
		x.nsamples++
		return
	}
	x.counts[backlogSamples-1] += n
}

// messages turns the backlog into Errors messages, one per attribution and
// first submit, in the order the records came, and empties it. Each
// message's FirstSubmit is the first submit of its records' groups and
// Submit the last submit of any of them.
func (b *backlog) messages() []*Errors {
	type msgKey struct {
		at    attribution
		first uint64
	}
	var out []*Errors
	byKey := map[msgKey]*Errors{}
	get := func(at attribution, first uint64) *Errors {
		k := msgKey{at, first}
		if m, ok := byKey[k]; ok {
			return m
		}
		m := &Errors{Submit: first, FirstSubmit: first, Queue: at.queue, CommandBuffer: at.cmdBuf,
			CommandBufferSerial: at.cmdBufSerial, Primary: at.primary, PrimarySerial: at.primarySerial,
			PrimaryAction: at.primaryAction}
		byKey[k] = m
		out = append(out, m)
		return m
	}
	for i := range b.entries {
		x := &b.entries[i]
		m := get(x.key.at, x.firstSubmit)
		m.Submit = max(m.Submit, x.lastSubmit)
		for s := 0; s < x.nsamples; s++ {
			r := x.first
			r.StageWords, r.Count = x.samples[s], x.counts[s]
			m.Records = append(m.Records, r)
		}
	}
	// Buffer overflows ride on a message of their command buffer.
	for _, at := range b.order {
		o := b.dropped[at]
		var m *Errors
		for _, c := range out {
			if attributionOf(c) == at {
				m = c
				break
			}
		}
		if m == nil {
			// No record kept: a message of the overflow alone.
			m = &Errors{Submit: o.last, FirstSubmit: o.first, Queue: at.queue, CommandBuffer: at.cmdBuf,
				CommandBufferSerial: at.cmdBufSerial, Primary: at.primary, PrimarySerial: at.primarySerial,
				PrimaryAction: at.primaryAction}
			out = append(out, m)
		}
		m.Dropped = uint32(min(uint64(m.Dropped)+o.n, 1<<32-1))
	}
	*b = backlog{}
	return out
}
