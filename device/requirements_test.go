package device

import (
	"reflect"
	"slices"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// dev builds a device of Vulkan 1.minor with maxBoundDescriptorSets sets and
// the features named on.
func dev(minor, sets uint32, exts []string, features ...string) *Device {
	d := &Device{Name: "test gpu", APIVersionRaw: 1<<22 | minor<<12, Limits: Limits{MaxBoundDescriptorSets: sets},
		Features: map[string]bool{}, Extensions: exts}
	d.APIVersion = Version(d.APIVersionRaw)
	for _, f := range features {
		d.Features[f] = true
	}
	return d
}

var stores = []string{"fragmentStoresAndAtomics", "vertexPipelineStoresAndAtomics"}

func with(extra ...string) []string { return append(append([]string{}, stores...), extra...) }

func TestAssess(t *testing.T) {
	const robustNote = "reported as warnings when the app enables robustBufferAccess"
	tests := []struct {
		name  string
		d     *Device
		check string
		want  Support
	}{
		{"index on a 1.1 device", dev(1, 8, nil, stores...), gpuav.CheckDescriptorIndexOOB, Support{Available: true}},
		{"index on 1.0", dev(0, 8, nil, stores...), gpuav.CheckDescriptorIndexOOB,
			Support{Reason: "the device supports Vulkan 1.0.0; the layer needs 1.1"}},
		{"one set only", dev(3, 1, nil, stores...), gpuav.CheckDescriptorIndexOOB,
			Support{Reason: "maxBoundDescriptorSets is 1: no descriptor-set slot left for the layer"}},
		{"no fragment stores", dev(3, 8, nil, "vertexPipelineStoresAndAtomics"), gpuav.CheckDescriptorIndexOOB,
			Support{Available: true, Note: "fragment shaders are not checked (no fragmentStoresAndAtomics)"}},
		{"no vertex stores", dev(3, 8, nil, "fragmentStoresAndAtomics"), gpuav.CheckDescriptorIndexOOB,
			Support{Available: true, Note: "vertex, tessellation and geometry shaders are not checked (no vertexPipelineStoresAndAtomics)"}},
		{"no stores", dev(3, 8, nil), gpuav.CheckTexelBufferOOB,
			Support{Available: true, Note: "fragment, vertex, tessellation and geometry shaders are not checked (no fragmentStoresAndAtomics, no vertexPipelineStoresAndAtomics)"}},
		{"uninitialized without partially bound, 1.1", dev(1, 8, nil, with("runtimeDescriptorArray")...), gpuav.CheckDescriptorUninit,
			Support{Reason: "the device does not support descriptorBindingPartiallyBound (no VK_EXT_descriptor_indexing)"}},
		{"uninitialized without partially bound, 1.2", dev(2, 8, nil, with("runtimeDescriptorArray")...), gpuav.CheckDescriptorUninit,
			Support{Reason: "the device does not support descriptorBindingPartiallyBound"}},
		{"uninitialized", dev(2, 8, nil, with("runtimeDescriptorArray", "descriptorBindingPartiallyBound")...), gpuav.CheckDescriptorUninit,
			Support{Available: true}},
		{"destroyed without indexing", dev(3, 8, nil, stores...), gpuav.CheckDescriptorDestroyed,
			Support{Reason: "the device does not support runtimeDescriptorArray, descriptorBindingPartiallyBound"}},
		{"buffer oob, robust", dev(3, 8, nil, with("robustBufferAccess", "robustBufferAccess2")...), gpuav.CheckBufferOOB,
			Support{Available: true, Note: robustNote + " or robustBufferAccess2"}},
		{"buffer oob, robust, no fragment stores", dev(3, 8, nil, "vertexPipelineStoresAndAtomics", "robustBufferAccess"), gpuav.CheckBufferOOB,
			Support{Available: true, Note: "fragment shaders are not checked (no fragmentStoresAndAtomics); " + robustNote}},
		{"bda without int64", dev(3, 8, nil, with("bufferDeviceAddress")...), gpuav.CheckBDAOOB,
			Support{Reason: "the device does not support shaderInt64"}},
		{"bda", dev(3, 8, nil, with("bufferDeviceAddress", "shaderInt64")...), gpuav.CheckBDAOOB, Support{Available: true}},
		{"ray query without the extension", dev(3, 8, nil, stores...), gpuav.CheckRayQuery,
			Support{NotNeeded: true, Reason: "the device does not support rayQuery (no VK_KHR_ray_query); no shader can use it here, so nothing goes unchecked"}},
		{"ray query, extension but feature off", dev(3, 8, []string{ExtRayQuery}, stores...), gpuav.CheckRayQuery,
			Support{NotNeeded: true, Reason: "the device does not support rayQuery; no shader can use it here, so nothing goes unchecked"}},
		{"ray query", dev(3, 8, []string{ExtRayQuery}, with("rayQuery")...), gpuav.CheckRayQuery, Support{Available: true}},
		{"trace ray without the extension", dev(3, 8, nil, stores...), gpuav.CheckTraceRay,
			Support{NotNeeded: true, Reason: "the device does not support rayTracingPipeline (no VK_KHR_ray_tracing_pipeline); no shader can use it here, so nothing goes unchecked"}},
		{"trace ray", dev(3, 8, []string{ExtRayTracingPipeline}, with("rayTracingPipeline")...), gpuav.CheckTraceRay, Support{Available: true}},
		{"vertex fetch, no vertex stores: its shader half is unchecked", dev(3, 8, nil, "fragmentStoresAndAtomics"), gpuav.CheckVertexFetchOOB,
			Support{Available: true, Note: "vertex, tessellation and geometry shaders are not checked (no vertexPipelineStoresAndAtomics)"}},
		{"vertex fetch, no fragment stores: nothing unchecked", dev(3, 8, nil, "vertexPipelineStoresAndAtomics"), gpuav.CheckVertexFetchOOB,
			Support{Available: true}},
		{"index buffers, no stores: CPU only", dev(3, 8, nil), gpuav.CheckIndexBufferOOB, Support{Available: true}},
		{"a future check needs the base only", dev(1, 4, nil, stores...), "future_check", Support{Available: true}},
		{"a future check on 1.0", dev(0, 4, nil, stores...), "future_check",
			Support{Reason: "the device supports Vulkan 1.0.0; the layer needs 1.1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Assess(tt.d, []string{tt.check})
			tt.want.Check = tt.check
			if len(got) != 1 || !reflect.DeepEqual(got[0], tt.want) {
				t.Fatalf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestRequirementsKnownToProbe: every check's requirement names only
// features and extensions the probe reads.
func TestRequirementsKnownToProbe(t *testing.T) {
	known := map[string]bool{}
	for _, f := range FeatureNames {
		known[f] = true
	}
	exts := map[string]bool{"": true}
	for _, e := range []string{ExtDriverProperties, ExtDescriptorIndexing, ExtBufferDeviceAddress, ExtRayQuery,
		ExtAccelerationStructure, ExtMeshShader, ExtRobustness2, ExtRayTracingPipeline, ExtCooperativeMatrix} {
		exts[e] = true
	}
	for _, c := range gpuav.Checks {
		req := c.Device
		for _, f := range slices.Concat(req.Features, req.WarnWith, req.GatedBy) {
			if !known[f] {
				t.Errorf("check %s needs %s, which the probe does not read", c.ID, f)
			}
		}
		if !exts[req.Extension] {
			t.Errorf("check %s names extension %s, which the probe does not read", c.ID, req.Extension)
		}
	}
}

func TestSlotOf(t *testing.T) {
	tests := []struct {
		sets uint32
		want Slot
	}{
		{8, Slot{Slot: 7, AppSees: 8, AppSeesReserved: 7}},     // lavapipe
		{32, Slot{Slot: 31, AppSees: 32, AppSeesReserved: 31}}, // NVIDIA
		{33, Slot{Slot: 32, AppSees: 33, AppSeesReserved: 32}},
		{64, Slot{Slot: 32, AppSees: 64, AppSeesReserved: 63}},
		{2, Slot{Slot: 1, AppSees: 2, AppSeesReserved: 1}},
		{1, Slot{Slot: -1, AppSees: 1, AppSeesReserved: 1}},
		{0, Slot{Slot: -1}},
	}
	for _, tt := range tests {
		if got := SlotOf(tt.sets); got != tt.want {
			t.Errorf("SlotOf(%d) = %+v, want %+v", tt.sets, got, tt.want)
		}
	}
}

func TestVersions(t *testing.T) {
	tests := []struct {
		vendor, v uint32
		want      string
	}{
		{0x10005, 1, "0.0.1"},
		{0x10de, 580<<22 | 95<<14 | 5<<6, "580.95.5.0"},
		{0x1002, 2<<22 | 0<<12 | 279, "2.0.279"},
		{0x8086, 25<<22 | 2<<12 | 4, "25.2.4"},
	}
	for _, tt := range tests {
		if got := DriverVersion(tt.vendor, tt.v); got != tt.want {
			t.Errorf("DriverVersion(%#x, %#x) = %s, want %s", tt.vendor, tt.v, got, tt.want)
		}
	}
	if got := Version(4210993); got != "1.4.305" {
		t.Errorf("Version = %s", got)
	}
}
