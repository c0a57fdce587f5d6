package device

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// MaxSlot is the highest descriptor-set slot the layer uses: its set goes at
// min(maxBoundDescriptorSets, MaxSlot+1) - 1 (docs/decisions/reserve-slot.md).
const MaxSlot = gpuav.MaxSlot

// Support says whether one check can run on one device.
type Support struct {
	Check string `json:"check"`
	// Available: the layer can add this check on the device.
	Available bool `json:"available"`
	// Reason says why not (when not Available).
	Reason string `json:"reason,omitempty"`
	// NotNeeded: not Available, but no shader on the device can contain
	// what the check looks at, so nothing goes unchecked.
	NotNeeded bool `json:"not_needed,omitempty"`
	// Note says what is limited when Available: stages left unchecked,
	// findings reported as warnings under robustness features.
	Note string `json:"note,omitempty"`
}

// Slot is the descriptor-set slot the layer will use on a device and what
// the app sees, without and with reserve-slot.
type Slot struct {
	// Slot is the layer's set index; -1 when the device has no slot to
	// spare (maxBoundDescriptorSets < 2).
	Slot int `json:"slot"`
	// AppSees is maxBoundDescriptorSets as the app sees it without
	// reserve-slot; AppSeesReserved with it.
	AppSees         uint32 `json:"app_sees"`
	AppSeesReserved uint32 `json:"app_sees_reserve_slot"`
}

// SlotOf computes the layer's slot from maxBoundDescriptorSets.
func SlotOf(maxBoundSets uint32) Slot {
	s := Slot{Slot: -1, AppSees: maxBoundSets, AppSeesReserved: maxBoundSets}
	if maxBoundSets >= 2 {
		s.Slot = int(min(maxBoundSets, MaxSlot+1)) - 1
		s.AppSeesReserved = maxBoundSets - 1
	}
	return s
}

// base returns why no check can run on d ("" when they can).
func base(d *Device) string {
	if major, minor := Minor(d.APIVersionRaw); major == 1 && minor < 1 {
		return fmt.Sprintf("the device supports Vulkan %s; the layer needs 1.1", d.APIVersion)
	}
	if SlotOf(d.Limits.MaxBoundDescriptorSets).Slot < 0 {
		return fmt.Sprintf("maxBoundDescriptorSets is %d: no descriptor-set slot left for the layer", d.Limits.MaxBoundDescriptorSets)
	}
	return ""
}

// storesNote is the note on the stages whose shaders the layer cannot
// instrument on d (it writes records from them), for a check whose shader
// part runs in every stage or, vertexOnly, in vertex shaders only.
func storesNote(d *Device, vertexOnly bool) (note string) {
	frag, vert := d.Features["fragmentStoresAndAtomics"] || vertexOnly, d.Features["vertexPipelineStoresAndAtomics"]
	switch {
	case !frag && !vert:
		note = "fragment, vertex, tessellation and geometry shaders are not checked (no fragmentStoresAndAtomics, no vertexPipelineStoresAndAtomics)"
	case !frag:
		note = "fragment shaders are not checked (no fragmentStoresAndAtomics)"
	case !vert:
		note = "vertex, tessellation and geometry shaders are not checked (no vertexPipelineStoresAndAtomics)"
	}
	return note
}

// Assess says, for each check id, whether it can run on d, from the
// check's device requirement in the registry (gpuav.Checks).
func Assess(d *Device, checks []string) []Support {
	baseReason := base(d)
	out := make([]Support, 0, len(checks))
	for _, id := range checks {
		s := Support{Check: id}
		var req gpuav.DeviceRequirement
		if c := gpuav.CheckByID(id); c != nil {
			req = c.Device // a check this build does not know needs only the base
		}
		var missing []string
		for _, f := range req.Features {
			if !d.Features[f] {
				missing = append(missing, f)
			}
		}
		switch {
		case baseReason != "":
			s.Reason = baseReason
		case len(missing) > 0:
			s.Reason = "the device does not support " + strings.Join(missing, ", ")
			if req.Extension != "" && !d.HasExtension(req.Extension) && !coreHas(d, req.Extension) {
				s.Reason += " (no " + req.Extension + ")"
			}
			if slices.ContainsFunc(req.GatedBy, func(f string) bool { return !d.Features[f] }) {
				s.NotNeeded = true
				what := "no shader"
				if !inShaders(id) {
					what = "no command" // a command check (acceleration_structure_build)
				}
				s.Reason += "; " + what + " can use it here, so nothing goes unchecked"
			}
		default:
			s.Available = true
			var notes []string
			// The stores note is about instrumented shaders: a check with
			// no part in them (a command check run on the CPU or in the
			// layer's compute pre-pass only) loses nothing without stores.
			if n := storesNote(d, req.VertexOnly); n != "" && inShaders(id) {
				notes = append(notes, n)
			}
			var robust []string
			for _, f := range req.WarnWith {
				if d.Features[f] {
					robust = append(robust, f)
				}
			}
			if len(robust) > 0 {
				notes = append(notes, "reported as warnings when the app enables "+strings.Join(robust, " or "))
			}
			s.Note = strings.Join(notes, "; ")
		}
		out = append(out, s)
	}
	return out
}

// inShaders reports whether id runs in instrumented shaders
// (gpuav.Check.InShaders); a check this build does not know is assumed to.
func inShaders(id string) bool {
	c := gpuav.CheckByID(id)
	return c == nil || c.InShaders()
}

// coreHas reports whether ext is core in d's Vulkan version (then its
// absence from the extension list is not the reason).
func coreHas(d *Device, ext string) bool {
	major, minor := Minor(d.APIVersionRaw)
	v12 := major > 1 || minor >= 2
	switch ext {
	case ExtDescriptorIndexing, ExtBufferDeviceAddress, ExtDriverProperties:
		return v12
	}
	return false
}
