package gpuav

import (
	"fmt"
	"math"
)

// Two command checks read what the GPU reads from memory when the app
// records no shader for it: the instances and geometry of an
// acceleration-structure build (acceleration_structure_build), and the
// depth values a buffer-to-image copy writes (depth_copy_range). Both run
// in the layer's pre-pass before the command (prepass/accel.comp for the
// builds, which reads the app's memory through device addresses;
// prepass/indirect.comp for the copies, which reads a copy of the app's
// bytes), and record layer records (layerrecord.go) with their own stage
// models so that a record names its build info, geometry and primitive, or
// its copy region and texel. docs/decisions/build-and-copy-checks.md says
// why each runs where it does and what on_error does to the command.

// Command check ids.
const (
	CheckAccelBuild = "acceleration_structure_build"
	CheckDepthCopy  = "depth_copy_range"
)

// Record codes of the two checks (144-175 are theirs).
const (
	// CodeAccelReference: an instance's accelerationStructureReference is
	// not 0 and not the address of a live bottom-level acceleration
	// structure. p0/p1 the reference low/high, p2 the reason (Ref*) |
	// Accel* flags << 8, p3 the instances the geometry builds, p4 the
	// reference's alignment remainder (reference % 16).
	CodeAccelReference CheckCode = 144
	// CodeAccelInstanceTransform: an instance's transform holds a value
	// that is not finite. p0 the element (row × 4 + column), p1 its bits,
	// p2 Accel* flags, p3 the instances the geometry builds.
	CodeAccelInstanceTransform CheckCode = 145
	// CodeAccelAABB: an AABB's min is above its max on one axis. p0 the
	// axis (0 x, 1 y, 2 z), p1 min's bits, p2 max's bits, p3 Accel* flags,
	// p4 the stride in bytes, p5 the primitives the geometry builds.
	CodeAccelAABB CheckCode = 146
	// CodeAccelTransform: a triangle geometry's transformData holds a value
	// that is not finite. p0 the element, p1 its bits, p2 Accel* flags.
	CodeAccelTransform CheckCode = 147
	// CodeAccelIndex: a triangle's index + firstVertex is above maxVertex.
	// p0 the index, p1 firstVertex, p2 maxVertex, p3 the index type
	// (VkIndexType), p4 the index's position in the geometry's indices, p5
	// Accel* flags.
	CodeAccelIndex CheckCode = 148

	// CodeDepthCopyRange: a texel a copy writes into a depth aspect that
	// requires [0, 1] is outside it (the record's coordinates are the first
	// such texel of the region). p0 its value's bits, p1 the texels of the
	// region outside [0, 1], p2 the region's texels, p3 Depth* flags, p4
	// the image's VkFormat, p5 the region's bufferOffset (32 bits,
	// saturated), p6 the region index (the record's site: one group per
	// region).
	CodeDepthCopyRange CheckCode = 152
)

// Stage models of the two checks' records (after ModelCommand).
const (
	// ModelBuild: a record about a build's geometry: its stage words are
	// the info index (pInfos[i]), the geometry index and the primitive
	// (instance, AABB, triangle index position) index.
	ModelBuild = ModelCommand + 1
	// ModelCopy: a record about a copy region: its stage words are the
	// region index, the texel's x | y << 16 and its z (or array layer).
	ModelCopy = ModelCommand + 2
)

// Reasons of CodeAccelReference (p2 & 0xff).
const (
	RefUnknown    = 1 // no acceleration structure has this address
	RefDestroyed  = 2 // the acceleration structure was destroyed
	RefNotBottom  = 3 // it is a top-level acceleration structure
	RefSelf       = 4 // it is the acceleration structure this info builds
	RefOtherDst   = 5 // it is built by another info of the same command
	RefMisaligned = 6 // not a multiple of 16
	RefBufferGone = 7 // its buffer was destroyed
)

// Flags of the build records (p2 >> 8 of CodeAccelReference; the flags
// parameter of the others).
const (
	// AccelSkipped: the layer made the instance inactive in its copy of
	// the instances, which the build read instead of the app's.
	AccelSkipped = 1 << 0
	// AccelPointers: the geometry's instances are an array of pointers
	// (arrayOfPointers).
	AccelPointers = 1 << 1
	// AccelIndirect: found in a vkCmdBuildAccelerationStructuresIndirectKHR
	// (not used yet: its builds are not checked).
	AccelIndirect = 1 << 2
	// AccelUpdate: the build is an update (VK_BUILD_ACCELERATION_STRUCTURE_MODE_UPDATE_KHR).
	AccelUpdate = 1 << 3
)

// Flags of CodeDepthCopyRange (p3).
const (
	// DepthClamped: the layer copied the region's bytes, clamped its values
	// into [0, 1] in its copy, and the image was written from the copy.
	DepthClamped = 1 << 0
	// DepthLayer: the texel's third coordinate is an array layer (a 2D
	// image), not a z.
	DepthLayer = 1 << 1
	// DepthCopy2: the command was vkCmdCopyBufferToImage2(KHR).
	DepthCopy2 = 1 << 2
)

// AccelValues describe a bad instance or geometry of an acceleration
// structure build.
type AccelValues struct {
	// Info, Geometry and Primitive locate it: pInfos[Info], its geometry
	// Geometry, the instance, AABB or index position Primitive.
	Info, Geometry, Primitive uint32
	// Struct and Field name what is wrong ("VkAccelerationStructureInstanceKHR",
	// "accelerationStructureReference"); Value is its value as text.
	Struct, Field, Value string
	// Reference is an instance's accelerationStructureReference.
	Reference uint64
	// Reason says why the reference is bad ("unknown", "destroyed",
	// "top_level", "self", "built_in_same_command", "misaligned",
	// "buffer_destroyed").
	Reason string
	// Skipped says the layer made the instance inactive in the copy the
	// build read.
	Skipped bool
	// Pointers says the geometry's instances are an array of pointers.
	Pointers bool
}

// DepthValues describe a depth value outside [0, 1] that a buffer-to-image
// copy writes.
type DepthValues struct {
	Region  uint32
	Texel   [3]uint32
	Layer   bool // Texel[2] is an array layer
	Value   float32
	Outside uint32 // texels of the region outside [0, 1]
	Texels  uint32 // texels of the region
	Format  string
	Clamped bool
}

var buildCopyChecks = []Check{
	{
		ID: CheckAccelBuild,
		Codes: []RecordCode{{CodeAccelReference, "ACCEL_REFERENCE"}, {CodeAccelInstanceTransform, "ACCEL_INSTANCE_TRANSFORM"},
			{CodeAccelAABB, "ACCEL_AABB"}, {CodeAccelTransform, "ACCEL_TRANSFORM"}, {CodeAccelIndex, "ACCEL_INDEX"}},
		Default: true,
		Command: true,
		Title:   "Invalid acceleration structure build input",
		Help: "What vkCmdBuildAccelerationStructuresKHR reads, checked on the GPU before the build: each instance's " +
			"accelerationStructureReference is 0 or the address of a live bottom-level acceleration structure (not an unknown or " +
			"destroyed one, not a top-level one or the one being built, a multiple of 16), instance and geometry transforms are " +
			"finite, AABBs have min <= max, triangle indices stay within maxVertex. gpuav-dbg builds from a copy of the instances in " +
			"which a bad one is inactive.",
		skipWords: []string{" gpuav-dbg builds from a copy of the instances in which a bad one is inactive."},
		// No build can happen on a device without accelerationStructure:
		// not needed there, rather than missing.
		Device: DeviceRequirement{Features: []string{"accelerationStructure"}, Extension: "VK_KHR_acceleration_structure",
			GatedBy: []string{"accelerationStructure"}},
		describe: describeAccel,
		noClamp:  "a reference or a geometry value has no clamped form that means what the app meant",
	},
	{
		ID:      CheckDepthCopy,
		Codes:   []RecordCode{{CodeDepthCopyRange, "DEPTH_COPY_RANGE"}},
		Default: true,
		Command: true,
		Title:   "Depth copied out of [0, 1]",
		Help: "vkCmdCopyBufferToImage(2) into the depth aspect of a D32_SFLOAT or D32_SFLOAT_S8_UINT image from a buffer holding a " +
			"value outside [0, 1] (without VK_EXT_depth_range_unrestricted), checked on the GPU before the copy: the region, the first " +
			"such texel and its value. gpuav-dbg copies from its own copy of the region with the values clamped into [0, 1].",
		skipWords: []string{" gpuav-dbg copies from its own copy of the region with the values clamped into [0, 1]."},
		describe:  describeDepthCopy,
	},
}

var refReasons = map[uint32]string{RefUnknown: "unknown", RefDestroyed: "destroyed", RefNotBottom: "top_level", RefSelf: "self",
	RefOtherDst: "built_in_same_command", RefMisaligned: "misaligned", RefBufferGone: "buffer_destroyed"}

// describeAccel fills in an acceleration_structure_build error; the
// record's coordinates (ModelBuild) locate it, the describe function sees
// only the parameters, so the message says "this instance".
func describeAccel(d *Description, code CheckCode, p [RecordParams]uint32) {
	v := &AccelValues{}
	d.Accel = v
	f := math.Float32frombits
	flags := func(w uint32) {
		v.Skipped, v.Pointers = w&AccelSkipped != 0, w&AccelPointers != 0
	}
	vuid := func(s string) {
		d.vuid = func(action string) string {
			if action == "" {
				action = "vkCmdBuildAccelerationStructuresKHR"
			}
			return "VUID-" + action + "-" + s
		}
	}
	switch code {
	case CodeAccelReference:
		v.Struct, v.Field = "VkAccelerationStructureInstanceKHR", "accelerationStructureReference"
		v.Reference = uint64(p[0]) | uint64(p[1])<<32
		v.Value = fmt.Sprintf("0x%x", v.Reference)
		reason := p[2] & 0xff
		flags(p[2] >> 8)
		v.Reason = refReasons[reason]
		why := map[uint32]string{
			RefUnknown:    "is not the device address of any acceleration structure the app created (vkGetAccelerationStructureDeviceAddressKHR)",
			RefDestroyed:  "is the address of an acceleration structure destroyed before this submit",
			RefNotBottom:  "is the address of a top-level acceleration structure, not a bottom-level one",
			RefSelf:       "is the address of the top-level acceleration structure this build writes",
			RefOtherDst:   "is the address of an acceleration structure that another pInfos element of the same command builds",
			RefMisaligned: fmt.Sprintf("is not a multiple of 16 (remainder %d)", p[4]),
			RefBufferGone: "is the address of an acceleration structure whose buffer was destroyed before this submit",
		}[reason]
		if why == "" {
			why = fmt.Sprintf("is invalid (reason %d)", reason)
		}
		switch reason {
		case RefMisaligned:
			vuid("pInfos-03717")
		case RefOtherDst:
			vuid("dstAccelerationStructure-03706")
		default:
			vuid("pInfos-12281")
		}
		d.Message = fmt.Sprintf("The accelerationStructureReference of this instance is 0x%x, which %s; it must be 0 (an inactive instance) "+
			"or the address of a live bottom-level acceleration structure (the geometry has %d instances).", v.Reference, why, p[3])
		if v.Skipped {
			d.Message += " gpuav-dbg built the acceleration structure from its own copy of the instances, in which this one is inactive " +
				"(reference 0); the app's buffer is unchanged."
		}
	case CodeAccelInstanceTransform:
		v.Struct, v.Field = "VkAccelerationStructureInstanceKHR", fmt.Sprintf("transform.matrix[%d][%d]", p[0]/4, p[0]%4)
		v.Value = fmtFloat(f(p[1]))
		flags(p[2])
		d.FullVUID = "VUID-VkTransformMatrixKHR-matrix-03799"
		d.Message = fmt.Sprintf("The transform of this instance holds %s at matrix[%d][%d]: its first three columns do not define an "+
			"invertible 3x3 matrix (the geometry has %d instances).", v.Value, p[0]/4, p[0]%4, p[3])
		if v.Skipped {
			d.Message += " gpuav-dbg built the acceleration structure from its own copy of the instances, in which this one is inactive " +
				"(reference 0); the app's buffer is unchanged."
		}
	case CodeAccelAABB:
		axis := min(p[0], 2)
		xyz := [3]string{"X", "Y", "Z"}[axis]
		v.Struct, v.Field = "VkAabbPositionsKHR", "min"+xyz
		v.Value = fmtFloat(f(p[1]))
		flags(p[3])
		d.FullVUID = "VUID-VkAabbPositionsKHR-min" + xyz + "-" + [3]string{"03546", "03547", "03548"}[axis]
		d.Message = fmt.Sprintf("This AABB's min%s (%s) is greater than its max%s (%s) (stride %d, the geometry has %d AABBs). "+
			"The build ran as recorded.", xyz, fmtFloat(f(p[1])), xyz, fmtFloat(f(p[2])), p[4], p[5])
	case CodeAccelTransform:
		v.Struct, v.Field = "VkTransformMatrixKHR", fmt.Sprintf("matrix[%d][%d]", p[0]/4, p[0]%4)
		v.Value = fmtFloat(f(p[1]))
		flags(p[2])
		d.FullVUID = "VUID-VkTransformMatrixKHR-matrix-03799"
		d.Message = fmt.Sprintf("The triangle geometry's transformData holds %s at matrix[%d][%d]: its first three columns do not "+
			"define an invertible 3x3 matrix. The build ran as recorded.", v.Value, p[0]/4, p[0]%4)
	case CodeAccelIndex:
		v.Struct, v.Field = "VkAccelerationStructureGeometryTrianglesDataKHR", "indexData"
		v.Value = fmt.Sprint(p[0])
		flags(p[5])
		d.FullVUID = "VUID-VkAccelerationStructureBuildRangeInfoKHR-maxVertex-10774"
		d.Message = fmt.Sprintf("Index %d (at position %d of the geometry's %s indices) + firstVertex %d = %d is above maxVertex %d. "+
			"The build ran as recorded.", p[0], p[4], indexTypeOfVk(p[3]), p[1], uint64(p[0])+uint64(p[1]), p[2])
	}
}

// indexTypeOfVk names a VkIndexType value.
func indexTypeOfVk(t uint32) string {
	switch t {
	case 0:
		return "VK_INDEX_TYPE_UINT16"
	case 1:
		return "VK_INDEX_TYPE_UINT32"
	case 1000265000:
		return "VK_INDEX_TYPE_UINT8"
	}
	return fmt.Sprintf("VkIndexType(%d)", t)
}

// depthFormats names the VkFormats the copy check looks at.
var depthFormats = map[uint32]string{126: "VK_FORMAT_D32_SFLOAT", 130: "VK_FORMAT_D32_SFLOAT_S8_UINT"}

// describeDepthCopy fills in a depth_copy_range error; the texel is in the
// record's coordinates (ModelCopy), repeated in the values by Decode's
// caller through DepthTexel.
func describeDepthCopy(d *Description, _ CheckCode, p [RecordParams]uint32) {
	v := &DepthValues{Value: math.Float32frombits(p[0]), Outside: p[1], Texels: p[2], Clamped: p[3]&DepthClamped != 0,
		Layer: p[3]&DepthLayer != 0}
	v.Format = depthFormats[p[4]]
	if v.Format == "" {
		v.Format = fmt.Sprintf("VkFormat(%d)", p[4])
	}
	d.Depth = v
	copy2 := p[3]&DepthCopy2 != 0
	d.vuid = func(action string) string {
		if copy2 || action == "vkCmdCopyBufferToImage2" || action == "vkCmdCopyBufferToImage2KHR" {
			return "VUID-VkCopyBufferToImageInfo2-pRegions-07931"
		}
		return "VUID-vkCmdCopyBufferToImage-pRegions-07931"
	}
	d.Message = fmt.Sprintf("The source buffer holds %s for the first texel of this region outside [0, 1] (%d of the region's %d "+
		"texels are outside it, from bufferOffset %d), copied into the depth aspect of a %s image; VK_EXT_depth_range_unrestricted is "+
		"not enabled.", fmtFloat(v.Value), v.Outside, v.Texels, p[5], v.Format)
	if v.Clamped {
		d.Message += " gpuav-dbg copied the region from its own copy of the buffer's bytes with the values clamped into [0, 1] " +
			"(NaN to 0); the app's buffer is unchanged."
	}
}

// SetDepthTexel copies a depth_copy_range record's coordinates (ModelCopy
// stage words) into its values.
func (v *DepthValues) SetDepthTexel(region uint32, texel [3]uint32) {
	v.Region, v.Texel = region, texel
}

// SetBuildSite copies a build record's coordinates (ModelBuild stage
// words) into its values.
func (v *AccelValues) SetBuildSite(w [3]uint32) {
	v.Info, v.Geometry, v.Primitive = w[0], w[1], w[2]
}
