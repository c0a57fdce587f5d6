package device

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ReportVersion is the version of the probe's JSON (Report).
const ReportVersion = 1

// Report is what one probe found: the loader, the instance layers and every
// physical device, in the order the loader enumerates them (the order an app
// sees, after Mesa's device-select layer has sorted them).
type Report struct {
	Version int    `json:"version"`
	Loader  Loader `json:"loader"`
	// Layers are the instance layers the loader lists.
	Layers []Layer `json:"layers"`
	// InstanceError is set when no instance could be created (no driver).
	InstanceError string    `json:"instance_error,omitempty"`
	Devices       []*Device `json:"devices"`
}

// Loader is the Vulkan loader the probe opened.
type Loader struct {
	Found bool `json:"found"`
	// Library is the file name opened (libvulkan.so.1).
	Library string `json:"library,omitempty"`
	// InstanceVersion is vkEnumerateInstanceVersion's answer ("1.3.239").
	InstanceVersion string `json:"instance_version,omitempty"`
	// Error says why the loader could not be opened.
	Error string `json:"error,omitempty"`
}

// Layer is one instance layer as the loader lists it.
type Layer struct {
	Name                  string `json:"name"`
	SpecVersion           string `json:"spec_version"`
	ImplementationVersion uint32 `json:"implementation_version"`
	Description           string `json:"description"`
}

// Device is one physical device: identity, driver, the limits and features
// the checks depend on, and its extensions.
type Device struct {
	Index    int    `json:"index"`
	Name     string `json:"name"`
	Type     string `json:"type"` // discrete_gpu, integrated_gpu, virtual_gpu, cpu, other
	VendorID uint32 `json:"vendor_id"`
	DeviceID uint32 `json:"device_id"`
	// APIVersion is the device's Vulkan version ("1.4.305").
	APIVersion    string `json:"api_version"`
	APIVersionRaw uint32 `json:"api_version_raw"`
	// DriverVersion is driverVersion decoded the vendor's way; the raw
	// number is DriverVersionRaw.
	DriverVersion    string `json:"driver_version"`
	DriverVersionRaw uint32 `json:"driver_version_raw"`
	// DriverName and DriverInfo come from VkPhysicalDeviceDriverProperties
	// (empty on a device without it).
	DriverName string `json:"driver_name,omitempty"`
	DriverInfo string `json:"driver_info,omitempty"`
	DriverID   uint32 `json:"driver_id,omitempty"`
	Limits     Limits `json:"limits"`
	// Features maps Vulkan feature names (the struct members' names, as
	// vulkaninfo prints them) to their value. Every name in FeatureNames
	// is present.
	Features   map[string]bool `json:"features"`
	Extensions []string        `json:"extensions"`
}

// Limits are the device limits the layer cares about.
type Limits struct {
	MaxBoundDescriptorSets              uint32 `json:"maxBoundDescriptorSets"`
	MaxPerStageDescriptorStorageBuffers uint32 `json:"maxPerStageDescriptorStorageBuffers"`
	MaxStorageBufferRange               uint32 `json:"maxStorageBufferRange"`
	MinStorageBufferOffsetAlignment     uint64 `json:"minStorageBufferOffsetAlignment"`
	MaxUniformBufferRange               uint32 `json:"maxUniformBufferRange"`
}

// FeatureNames are the features the probe reads, grouped by the struct they
// come from.
var FeatureNames = []string{
	// VkPhysicalDeviceFeatures
	"robustBufferAccess", "geometryShader", "tessellationShader", "vertexPipelineStoresAndAtomics",
	"fragmentStoresAndAtomics", "shaderInt64", "shaderStorageBufferArrayDynamicIndexing",
	"shaderSampledImageArrayDynamicIndexing",
	// VkPhysicalDeviceVulkan12Features / descriptor indexing / buffer device address
	"descriptorIndexing", "runtimeDescriptorArray", "descriptorBindingPartiallyBound",
	"descriptorBindingVariableDescriptorCount", "descriptorBindingUpdateUnusedWhilePending",
	"descriptorBindingStorageBufferUpdateAfterBind", "shaderSampledImageArrayNonUniformIndexing",
	"shaderStorageBufferArrayNonUniformIndexing", "bufferDeviceAddress", "timelineSemaphore",
	// VkPhysicalDeviceVulkan13Features
	"robustImageAccess", "synchronization2", "dynamicRendering", "maintenance4",
	// extensions
	"rayQuery", "accelerationStructure", "meshShader", "taskShader", "robustBufferAccess2",
	"robustImageAccess2", "nullDescriptor", "rayTracingPipeline", "cooperativeMatrix",
}

// Version formats a Vulkan API version number: "1.3.239".
func Version(v uint32) string {
	return fmt.Sprintf("%d.%d.%d", (v>>22)&0x7f, (v>>12)&0x3ff, v&0xfff)
}

// Minor returns a Vulkan version's major and minor numbers.
func Minor(v uint32) (major, minor uint32) { return (v >> 22) & 0x7f, (v >> 12) & 0x3ff }

// Vendor ids of the drivers whose driverVersion is not a Vulkan version.
const (
	VendorNVIDIA = 0x10de
	VendorIntel  = 0x8086
)

// DriverVersion decodes driverVersion: NVIDIA packs 10.8.8.6 bits,
// everyone else (Mesa, AMD) uses the Vulkan version encoding. Intel's
// Windows scheme does not apply on Linux, where Intel's driver is Mesa.
func DriverVersion(vendor, v uint32) string {
	if vendor == VendorNVIDIA {
		return fmt.Sprintf("%d.%d.%d.%d", v>>22, (v>>14)&0xff, (v>>6)&0xff, v&0x3f)
	}
	return Version(v)
}

// TypeName names a VkPhysicalDeviceType.
func TypeName(t uint32) string {
	switch t {
	case 1:
		return "integrated_gpu"
	case 2:
		return "discrete_gpu"
	case 3:
		return "virtual_gpu"
	case 4:
		return "cpu"
	}
	return "other"
}

// ParseReport reads a probe's JSON output. It checks the version and the
// fields the assessment relies on, so that a child that printed garbage or
// another version's report gives an error, not a wrong answer.
func ParseReport(data []byte) (*Report, error) {
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("parse probe report: %w", err)
	}
	if r.Version != ReportVersion {
		return nil, fmt.Errorf("parse probe report: version %d, want %d", r.Version, ReportVersion)
	}
	if r.Loader.Found && r.Loader.Library == "" {
		return nil, errors.New("parse probe report: loader found but no library named")
	}
	for i, d := range r.Devices {
		if d == nil {
			return nil, fmt.Errorf("parse probe report: device %d is null", i)
		}
		if d.Name == "" {
			return nil, fmt.Errorf("parse probe report: device %d has no name", i)
		}
		if d.Features == nil {
			d.Features = map[string]bool{}
		}
	}
	return &r, nil
}

// Layer returns the layer called name, or nil.
func (r *Report) Layer(name string) *Layer {
	for i := range r.Layers {
		if r.Layers[i].Name == name {
			return &r.Layers[i]
		}
	}
	return nil
}

// HasExtension reports whether the device lists the extension.
func (d *Device) HasExtension(name string) bool {
	for _, e := range d.Extensions {
		if e == name {
			return true
		}
	}
	return false
}
