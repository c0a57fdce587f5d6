package gpuav

import "encoding/binary"

// KeptResult is an instrumentation Result in a form that outlives the
// process (encoding/gob): the layer keeps the results of a run beside an
// app's pipeline cache, so that a later run with the same modules and
// settings skips the passes (docs/decisions/pipeline-shadow-caches.md).
// A deferred precise variant is kept as its encoding when it was never
// built, else as its words.
//
// Words are kept as little-endian bytes, which gob copies whole.
type KeptResult struct {
	Words                       []byte
	Instrumented, ReadsLayerSet bool
	ChecksAdded                 int
	Sites                       []Site
	Printf                      []PrintfSite
	Stage                       uint32
	Warnings, Notes             []string

	Precise           bool // Result.Precise is set
	FastWords         []byte
	Facts             []Fact
	FastReadsLayerSet bool
	// Later: the precise variant on first need, as its encoding and
	// switch (LaterModule) or, built, its words (LaterWords; LaterErr
	// when it failed).
	Later                         bool
	LaterBuilt                    bool
	LaterModule                   []byte
	LaterID, LaterBound, LaterSet uint32
	LaterWords                    []byte
	LaterReadsSet                 bool
	LaterErr                      string
}

// Keep returns r as a KeptResult. It shares r's other slices, which are
// never changed in place.
func (r Result) Keep() KeptResult {
	k := KeptResult{Words: wordBytes(r.Words), Instrumented: r.Instrumented, ReadsLayerSet: r.ReadsLayerSet,
		ChecksAdded: r.ChecksAdded, Sites: r.Sites, Printf: r.Printf, Stage: r.Stage, Warnings: r.Warnings,
		Notes: r.Notes}
	p := r.Precise
	if p == nil {
		return k
	}
	k.Precise, k.FastWords, k.Facts, k.FastReadsLayerSet = true, wordBytes(p.FastWords), p.Facts, p.FastReadsLayerSet
	if l := p.later; l != nil {
		l.mu.Lock()
		k.Later, k.LaterBuilt = true, l.done
		if l.done {
			k.LaterWords, k.LaterReadsSet = wordBytes(l.words), l.readsSet
			if l.err != nil {
				k.LaterErr = l.err.Error()
			}
		} else {
			k.LaterModule, k.LaterID, k.LaterBound, k.LaterSet = wordBytes(l.module), l.id, l.bound, l.set
		}
		l.mu.Unlock()
	}
	return k
}

// Result returns the Result k was kept from, with a precise switch of its
// own (its precise variant built on first need, or already built).
func (k KeptResult) Result() Result {
	r := Result{Words: bytesWords(k.Words), Instrumented: k.Instrumented, ReadsLayerSet: k.ReadsLayerSet,
		ChecksAdded: k.ChecksAdded, Sites: k.Sites, Printf: k.Printf, Stage: k.Stage, Warnings: k.Warnings,
		Notes: k.Notes}
	if !k.Precise {
		return r
	}
	p := &PreciseSwitch{FastWords: bytesWords(k.FastWords), Facts: k.Facts, FastReadsLayerSet: k.FastReadsLayerSet}
	if k.Later {
		l := &laterPrecise{module: bytesWords(k.LaterModule), id: k.LaterID, bound: k.LaterBound, set: k.LaterSet}
		if k.LaterBuilt {
			l.done, l.module, l.words, l.readsSet = true, nil, bytesWords(k.LaterWords), k.LaterReadsSet
			if k.LaterErr != "" {
				l.err = errorString(k.LaterErr)
			}
		}
		p.later = l
	}
	r.Precise = p
	return r
}

type errorString string

func (e errorString) Error() string { return string(e) }

// wordBytes returns words as little-endian bytes (nil for nil).
func wordBytes(words []uint32) []byte {
	if words == nil {
		return nil
	}
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// bytesWords is wordBytes' inverse (a trailing partial word is dropped).
func bytesWords(b []byte) []uint32 {
	if b == nil {
		return nil
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}
