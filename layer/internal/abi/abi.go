// Package abi holds the constants of the layer's C ↔ Go boundary that are
// the layer's own (gpuav's and the options table's are theirs): what goLog
// is told, the pipeline layout states, the command-check bits, the label
// separator. The layer's Go code reads them here, and go generate ./layer
// writes them into layer/shared_gen.h for the C half
// (layer/internal/genshared), so each has one definition.
package abi

import (
	"fmt"
	"strconv"
)

// Log levels of goLog. LogUnchecked is a warning that says what the layer
// left unchecked (the launcher counts it: the run exits 4).
const (
	LogInfo      = 0
	LogWarning   = 1
	LogError     = 2
	LogUnchecked = 3
)

// Pipeline layout states (goPipelineCreated's layoutState).
const (
	LayoutUnknown       = 0 // not created through this layer
	LayoutPadded        = 1 // has the layer's set at the slot
	LayoutConflict      = 2 // the app uses the slot (or padding failed)
	LayoutDBUnsupported = 3 // descriptor buffers the layer cannot serve there
	LayoutPaddedPush    = 4 // descriptor buffers: the layer's set is pushed
)

// Command-check bits (goCommandChecks): the command checks that are on,
// and whether a failed one makes its command harmless.
const (
	CCIndex    = 1  // index_buffer_oob
	CCVertex   = 2  // vertex_fetch_oob
	CCIndirect = 4  // indirect_command
	CCSafe     = 8  // a failed check skips (every on_error but execute)
	CCAccel    = 16 // acceleration_structure_build (accel.c)
	CCDepth    = 32 // depth_copy_range (depthcopy.c)
)

// The breadcrumbs' granularity (goBreadcrumbs, goHang, crumbs_marks.h):
// the setting asks for auto, actions or passes (wire.Breadcrumbs*); a
// device marks actions (two marks per action outside render passes, each
// pass as a whole) or passes (regions: the actions between render passes,
// and each pass).
const (
	CrumbsAuto    = 0
	CrumbsActions = 1
	CrumbsPasses  = 2
)

// LabelSep separates the labels of one label path (gpuavdbg_submit_cb's
// labels).
const LabelSep = '\x1f'

// Constant is one constant as C names it (GPUAVDBG_ prefix) and writes it.
type Constant struct {
	Name string
	// C is the constant's text in C: 3, 8u, '\x1f'.
	C string
}

// Constants lists the package's constants for the generated header.
func Constants() []Constant {
	n := func(name string, v int) Constant { return Constant{name, strconv.Itoa(v)} }
	u := func(name string, v int) Constant { return Constant{name, strconv.Itoa(v) + "u"} }
	return []Constant{
		n("LOG_INFO", LogInfo), n("LOG_WARNING", LogWarning), n("LOG_ERROR", LogError), n("LOG_UNCHECKED", LogUnchecked),
		n("LAYOUT_UNKNOWN", LayoutUnknown), n("LAYOUT_PADDED", LayoutPadded), n("LAYOUT_CONFLICT", LayoutConflict),
		n("LAYOUT_DB_UNSUPPORTED", LayoutDBUnsupported), n("LAYOUT_PADDED_PUSH", LayoutPaddedPush),
		u("CC_INDEX", CCIndex), u("CC_VERTEX", CCVertex), u("CC_INDIRECT", CCIndirect), u("CC_SAFE", CCSafe),
		u("CC_ACCEL", CCAccel), u("CC_DEPTH", CCDepth),
		n("CRUMBS_AUTO", CrumbsAuto), n("CRUMBS_ACTIONS", CrumbsActions), n("CRUMBS_PASSES", CrumbsPasses),
		{"LABEL_SEP", fmt.Sprintf(`'\x%02x'`, LabelSep)},
	}
}
