package session

import (
	"encoding/json"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// TestOutcome: what a failed access did, in the report's JSON and in the
// message, for each behaviour and the clamp's fallbacks.
func TestOutcome(t *testing.T) {
	p := func(v ...uint32) (r [gpuav.RecordParams]uint32) {
		copy(r[:], v)
		return r
	}
	tests := []struct {
		name     string
		set      Settings
		code     gpuav.CheckCode
		params   [gpuav.RecordParams]uint32
		json     string
		sentence string
	}{
		{"skip", Settings{OnError: "skip"}, gpuav.CodeDescriptorIndexOOB, p(0, 1, 5, 4),
			`{"access":"skipped"}`, "The access was skipped (a load read zero, a store or atomic did nothing)."},
		// A command check's description says what the layer did.
		{"skip, command check", Settings{OnError: "skip"}, gpuav.CodeVertexFetchOOB, p(),
			`{"access":"skipped"}`, ""},
		{"execute", Settings{OnError: "execute"}, gpuav.CodeBDAOOB, p(),
			`{"access":"executed"}`, "The access was executed as written."},
		{"clamp index", Settings{OnError: "clamp"}, gpuav.CodeDescriptorIndexOOB, p(0, 1, 5, 4),
			`{"access":"clamped","clamped_to":3}`, "The access was clamped to index 3."},
		{"robust clamps", Settings{OnError: "skip", Robust: true}, gpuav.CodeDescriptorIndexOOB, p(0, 1, 9, 6),
			`{"access":"clamped","clamped_to":5}`, "The access was clamped to index 5."},
		{"clamp, no element", Settings{OnError: "clamp"}, gpuav.CodeDescriptorIndexOOB, p(0, 1, 0, 0),
			`{"access":"skipped","reason":"clamp has no meaning here (the array has no element)"}`,
			"The access was skipped: clamp has no meaning here (the array has no element)."},
		{"clamp, unwritten", Settings{OnError: "clamp"}, gpuav.CodeDescriptorUninitialized, p(0, 1, 2),
			`{"access":"skipped","reason":"clamp has no meaning here (the descriptor was never written)"}`,
			"The access was skipped: clamp has no meaning here (the descriptor was never written)."},
		{"clamp texel", Settings{OnError: "clamp"}, gpuav.CodeTexelBufferOOB, p(0, 2, 0, 10, 8),
			`{"access":"clamped","clamped_to":7}`, "The access was clamped to texel 7."},
		{"clamp negative texel", Settings{OnError: "clamp"}, gpuav.CodeTexelBufferOOB, p(0, 2, 0, 0xFFFFFFFF, 8, gpuav.TexelSigned),
			`{"access":"clamped","clamped_to":0}`, "The access was clamped to texel 0."},
		{"clamp huge unsigned texel", Settings{OnError: "clamp"}, gpuav.CodeTexelBufferOOB, p(0, 2, 0, 0xFFFFFFFF, 8),
			`{"access":"clamped","clamped_to":7}`, "The access was clamped to texel 7."},
		{"clamp, empty view", Settings{OnError: "clamp"}, gpuav.CodeTexelBufferOOB, p(0, 2, 0, 3, 0),
			`{"access":"skipped","reason":"clamp has no meaning here (the view has no texel)"}`,
			"The access was skipped: clamp has no meaning here (the view has no texel)."},
		{"clamp, address", Settings{OnError: "clamp"}, gpuav.CodeBDAOOB, p(),
			`{"access":"skipped","reason":"clamp has no meaning here (the address is outside every buffer)"}`,
			"The access was skipped: clamp has no meaning here (the address is outside every buffer)."},
		{"clamp, ray", Settings{OnError: "clamp"}, gpuav.CodeRayQueryNegativeTmin, p(),
			`{"access":"skipped","reason":"clamp has no meaning here (a ray's values are not an index)"}`,
			"The access was skipped: clamp has no meaning here (a ray's values are not an index)."},
		{"clamp buffer", Settings{OnError: "clamp"}, gpuav.CodeBufferOOB, p(0, 1, 0, 32, 4, 32, 0, 16),
			`{"access":"clamped","clamped_to":16}`, "The access was clamped to byte offset 16."},
		{"clamp buffer, range too small", Settings{OnError: "clamp"}, gpuav.CodeBufferOOB, p(0, 4, 0, 16, 16, 8, 0, gpuav.BufferNoClamp),
			`{"access":"skipped","reason":"clamp has no meaning here (the 8-byte bound range holds no place for the 16-byte access)"}`,
			"The access was skipped: clamp has no meaning here (the 8-byte bound range holds no place for the 16-byte access)."},
		{"clamp index, clamped element unwritten", Settings{OnError: "clamp"}, gpuav.CodeDescriptorIndexOOB,
			p(0, 1, 5, 4, 0, 0, 0, uint32(gpuav.CodeDescriptorUninitialized)),
			`{"access":"skipped","reason":"the element the index clamps to, 3, was never written"}`,
			"The access was skipped: the element the index clamps to, 3, was never written."},
		{"clamp index, clamped element destroyed", Settings{OnError: "clamp"}, gpuav.CodeDescriptorIndexOOB,
			p(0, 1, 7, 2, 0, 0, 0, uint32(gpuav.CodeDescriptorDestroyed)),
			`{"access":"skipped","reason":"the element the index clamps to, 1, has a destroyed resource"}`,
			"The access was skipped: the element the index clamps to, 1, has a destroyed resource."},
		{"clamp index, clamped element's range too small", Settings{OnError: "clamp"}, gpuav.CodeDescriptorIndexOOB,
			p(0, 1, 7, 2, 4, 64, 0, uint32(gpuav.CodeBufferOOB)),
			`{"access":"skipped","reason":"the element the index clamps to, 1, has a bound range with no place for the access"}`,
			"The access was skipped: the element the index clamps to, 1, has a bound range with no place for the access."},
		{"clamp, vertex fetch", Settings{OnError: "clamp"}, gpuav.CodeVertexFetchOOB, p(0, 0, 48, 16, 48, 3, gpuav.VertexInShader),
			`{"access":"skipped","reason":"clamp has no meaning here (the vertex stage fetched the attribute before the shader ran; ` +
				`the shader cannot fetch another vertex's)"}`,
			"The access was skipped: clamp has no meaning here (the vertex stage fetched the attribute before the shader ran; " +
				"the shader cannot fetch another vertex's)."},
	}
	for _, tt := range tests {
		o := outcomeOf(tt.set, tt.code, tt.params)
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.json {
			t.Errorf("%s: %s, want %s", tt.name, b, tt.json)
		}
		if got := o.Sentence(tt.code.CheckID()); got != tt.sentence {
			t.Errorf("%s: sentence %q, want %q", tt.name, got, tt.sentence)
		}
	}
}
