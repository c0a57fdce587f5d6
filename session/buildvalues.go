package session

import "github.com/gpuav-dbg/gpuav-dbg/gpuav"

// AccelBuild is an acceleration_structure_build error: an instance or a
// geometry value of a build that the GPU would read (the group's
// coordinates, build_info/geometry/primitive, locate it too).
type AccelBuild struct {
	// Info is the index into pInfos, Geometry the geometry's index in it,
	// Primitive the instance, AABB or index position.
	Info      uint32 `json:"info"`
	Geometry  uint32 `json:"geometry"`
	Primitive uint32 `json:"primitive"`
	// Struct and Field name the member at fault; Value is its value.
	Struct string `json:"struct"`
	Field  string `json:"field"`
	Value  string `json:"value"`
	// Reason says why an accelerationStructureReference is bad: unknown,
	// destroyed, top_level, self, built_in_same_command, misaligned,
	// buffer_destroyed.
	Reason string `json:"reason,omitempty"`
	// Pointers: the instances are an array of pointers (arrayOfPointers).
	Pointers bool `json:"array_of_pointers,omitempty"`
	// Skipped says the build read the layer's copy of the instances, in
	// which this one is inactive.
	Skipped bool `json:"skipped"`
}

// DepthCopy is a depth_copy_range error: a value outside [0, 1] that a
// buffer-to-image copy writes into a depth aspect.
type DepthCopy struct {
	Region uint32 `json:"region"`
	// Texel is the region's first texel outside [0, 1] (x, y and z, or the
	// array layer when Layer), Value its value.
	Texel [3]uint32 `json:"texel"`
	Layer bool      `json:"layer,omitempty"`
	Value Float32   `json:"value"`
	// Outside counts the region's texels outside [0, 1], of Texels.
	Outside uint32 `json:"outside"`
	Texels  uint32 `json:"texels"`
	Format  string `json:"format"`
	// Clamped says the image was written from the layer's copy of the
	// region, its values clamped into [0, 1].
	Clamped bool `json:"clamped"`
}

func accelOf(v *gpuav.AccelValues, w [3]uint32) *AccelBuild {
	if v == nil {
		return nil
	}
	v.SetBuildSite(w)
	return &AccelBuild{Info: v.Info, Geometry: v.Geometry, Primitive: v.Primitive, Struct: v.Struct, Field: v.Field,
		Value: v.Value, Reason: v.Reason, Pointers: v.Pointers, Skipped: v.Skipped}
}

func depthCopyOf(v *gpuav.DepthValues, w [3]uint32) *DepthCopy {
	if v == nil {
		return nil
	}
	v.SetDepthTexel(w[0], [3]uint32{w[1] & 0xffff, w[1] >> 16, w[2]})
	return &DepthCopy{Region: v.Region, Texel: v.Texel, Layer: v.Layer, Value: Float32(v.Value), Outside: v.Outside,
		Texels: v.Texels, Format: v.Format, Clamped: v.Clamped}
}
