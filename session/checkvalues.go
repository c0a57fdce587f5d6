package session

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// Ray is the operands of a failed OpRayQueryInitializeKHR (the ray_query
// check). A record has room for one vector: Origin, or Direction when the
// error is about the direction.
type Ray struct {
	Tmin      Float32     `json:"tmin"`
	Tmax      Float32     `json:"tmax"`
	Origin    *[3]Float32 `json:"origin,omitempty"`
	Direction *[3]Float32 `json:"direction,omitempty"`
	Flags     uint32      `json:"flags"`
	CullMask  uint32      `json:"cull_mask"`
}

// Float32 is a shader float in JSON: a number when finite, else the string
// "NaN", "+Inf" or "-Inf" (JSON has no such numbers, and these are exactly
// the values a ray query error is about).
type Float32 float32

// MarshalJSON writes the shortest decimal that reads back exactly.
func (f Float32) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return json.Marshal(strconv.FormatFloat(x, 'g', -1, 32))
	}
	return []byte(strconv.FormatFloat(x, 'g', -1, 32)), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (f *Float32) UnmarshalJSON(b []byte) error {
	var s string
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	} else {
		s = string(b)
	}
	x, err := strconv.ParseFloat(s, 32)
	if err != nil {
		return fmt.Errorf("float %s: %w", b, err)
	}
	*f = Float32(x)
	return nil
}

// rayOf converts the decoder's ray values, or returns nil.
func rayOf(r *gpuav.RayValues) *Ray {
	if r == nil {
		return nil
	}
	vec := func(v *[3]float32) *[3]Float32 {
		if v == nil {
			return nil
		}
		return &[3]Float32{Float32(v[0]), Float32(v[1]), Float32(v[2])}
	}
	return &Ray{Tmin: Float32(r.Tmin), Tmax: Float32(r.Tmax), Origin: vec(r.Origin), Direction: vec(r.Direction),
		Flags: r.Flags, CullMask: r.CullMask}
}
