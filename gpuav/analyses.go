package gpuav

import "github.com/gpuav-dbg/gpuav-dbg/spirv"

// analysis names the facts about a module that passes compute once and
// share. A pass declares which ones its edits leave valid
// (passSpec.preserves); after a pass changed the module the driver drops
// the others, and the next pass that asks computes them afresh.
type analysis uint32

const (
	// analysisDefs is the module's definition index (spirv.Module.Def).
	// Instructions a pass adds inside functions (clones, checks) are not
	// in it, so a pass that must see another's guarded code needs it
	// brought up to date.
	analysisDefs analysis = 1 << iota
	// analysisSafeIndex is safe_index.go's value bounds and per-function
	// control-flow facts.
	analysisSafeIndex
	// analysisSameValues is same_value.go's numbering of index values.
	analysisSameValues
	// analysisLayoutSizes is the explicit layout of buffer types (Offset,
	// ArrayStride, MatrixStride decorations): no pass adds or changes a
	// layout decoration, so every pass preserves it.
	analysisLayoutSizes
)

// analyses holds the analyses of one module, each computed on first use.
type analyses struct {
	m     *spirv.Module
	safe  *safeIndex
	same  *sameValues
	sizes *layoutSizes
}

// safeIndex returns the value-bound analysis.
func (a *analyses) safeIndex() *safeIndex {
	if a.safe == nil {
		a.safe = newSafeIndex(a.m)
	}
	return a.safe
}

// sameValues returns the index-value numbering.
func (a *analyses) sameValues() *sameValues {
	if a.same == nil {
		a.same = newSameValues(a.m)
	}
	return a.same
}

// layoutSizes returns the buffer layout analysis.
func (a *analyses) layoutSizes() *layoutSizes {
	if a.sizes == nil {
		a.sizes = newLayoutSizes(a.m)
	}
	return a.sizes
}

// invalidate drops every analysis not in keep.
func (a *analyses) invalidate(keep analysis) {
	if keep&analysisDefs == 0 {
		// Passes only add definitions (and give a guarded access's id to
		// the phi after it): the index is rebuilt the first time a later
		// pass asks for an id it lacks, as texel_buffer_oob does for the
		// descriptor pass's clones.
		a.m.MarkIndexStale()
	}
	if keep&analysisSafeIndex == 0 {
		a.safe = nil
	}
	if keep&analysisSameValues == 0 {
		a.same = nil
	}
	if keep&analysisLayoutSizes == 0 {
		a.sizes = nil
	}
}
