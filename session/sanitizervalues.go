package session

import (
	"encoding/json"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// Sanitizer is the operation of a shader sanitizer error (the sanitizer_*
// checks): its operands in the failing lane, exactly.
type Sanitizer struct {
	// Op names the operation as SPIR-V does: "OpUDiv", "OpFMod", "Pow",
	// "Atan2", "FMin", "FClamp", "OpImageGather".
	Op string `json:"op"`
	// Type is the operands' scalar type ("int32", "uint16", "float32"...),
	// omitted for a gather's component.
	Type string `json:"type,omitempty"`
	// Components is a vector operation's size and Lane its first failing
	// lane; both omitted for a scalar.
	Components int  `json:"components,omitempty"`
	Lane       *int `json:"lane,omitempty"`
	// Operands are the checked operands in the instruction's order.
	Operands []SanitizerOperand `json:"operands"`
}

// SanitizerOperand is one operand: its name in the specification
// ("dividend", "divisor", "x", "y", "minVal", "maxVal", "component") and
// its exact value, a JSON number, or "NaN", "+Inf", "-Inf" for a float
// that is not finite; NaN marks the NaN operands of a min, max or clamp.
type SanitizerOperand struct {
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`
	NaN   bool            `json:"nan,omitempty"`
}

// sanitizerOf converts the decoder's sanitizer values, or returns nil.
func sanitizerOf(v *gpuav.SanitizerValues) *Sanitizer {
	if v == nil {
		return nil
	}
	s := &Sanitizer{Op: v.Op, Type: v.Type, Components: v.Components}
	if v.Components > 0 {
		lane := v.Lane
		s.Lane = &lane
	}
	for _, o := range v.Operands {
		val := json.RawMessage(o.Value)
		switch o.Value {
		case "NaN", "+Inf", "-Inf":
			val, _ = json.Marshal(o.Value)
		}
		s.Operands = append(s.Operands, SanitizerOperand{Name: o.Name, Value: val, NaN: o.NaN})
	}
	return s
}

// Mesh is a mesh_outputs error: OpSetMeshOutputsEXT's counts and the
// mesh shader's declared maxima (max_vertices, max_primitives).
type Mesh struct {
	VertexCount    uint32 `json:"vertex_count"`
	PrimitiveCount uint32 `json:"primitive_count"`
	MaxVertices    uint32 `json:"max_vertices"`
	MaxPrimitives  uint32 `json:"max_primitives"`
}

// meshOf converts the decoder's mesh values, or returns nil.
func meshOf(v *gpuav.MeshValues) *Mesh {
	if v == nil {
		return nil
	}
	return &Mesh{VertexCount: v.VertexCount, PrimitiveCount: v.PrimitiveCount, MaxVertices: v.MaxVertices,
		MaxPrimitives: v.MaxPrimitives}
}
