package device

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "probe.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"

	vk "github.com/goki/vulkan"
)

// Device extensions the probe looks at.
const (
	ExtDriverProperties      = "VK_KHR_driver_properties"
	ExtDescriptorIndexing    = "VK_EXT_descriptor_indexing"
	ExtBufferDeviceAddress   = "VK_KHR_buffer_device_address"
	ExtRayQuery              = "VK_KHR_ray_query"
	ExtAccelerationStructure = "VK_KHR_acceleration_structure"
	ExtMeshShader            = "VK_EXT_mesh_shader"
	ExtRobustness2           = "VK_EXT_robustness2"
	ExtRayTracingPipeline    = "VK_KHR_ray_tracing_pipeline"
	ExtCooperativeMatrix     = "VK_KHR_cooperative_matrix"
)

// loaderNames are the Vulkan loader's file names, tried in order: the
// runtime package's soname first (libvulkan1 has no libvulkan.so).
var loaderNames = []string{"libvulkan.so.1", "libvulkan.so"}

// load opens the first loader that loads and returns its
// vkGetInstanceProcAddr and name, or nil and the first failure.
func load() (unsafe.Pointer, string, string) {
	var first string
	var errBuf [512]C.char
	for _, name := range loaderNames {
		cname := C.CString(name)
		gipa := C.gd_load(cname, &errBuf[0], C.size_t(len(errBuf)))
		C.free(unsafe.Pointer(cname))
		if gipa != nil {
			return gipa, name, ""
		}
		if first == "" {
			first = C.GoString(&errBuf[0])
		}
	}
	return nil, "", first
}

// Probe opens the Vulkan loader, lists the instance layers, creates an
// instance with no layer enabled and reads every physical device. It runs in
// this process: a driver that crashes takes the process down, which is why
// the launcher and the doctor run it in a child (RunChild). A missing loader
// or driver is not an error: the report says so (Loader.Found,
// InstanceError); the error is for the probe's own failures.
func Probe() (*Report, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r := &Report{Version: ReportVersion, Layers: []Layer{}, Devices: []*Device{}}
	gipa, lib, loadErr := load()
	if gipa == nil {
		r.Loader.Error = loadErr
		return r, nil
	}
	r.Loader = Loader{Found: true, Library: lib}
	instVersion := uint32(C.gd_instance_version(gipa))
	r.Loader.InstanceVersion = Version(instVersion)

	vk.SetGetInstanceProcAddr(gipa)
	if err := vk.Init(); err != nil {
		return nil, fmt.Errorf("probe: goki vulkan init: %w", err)
	}
	layers, err := instanceLayers()
	if err != nil {
		return nil, err
	}
	r.Layers = layers

	api := vk.MakeVersion(1, 0, 0)
	if _, minor := Minor(instVersion); minor >= 1 {
		api = vk.MakeVersion(1, 3, 0)
		if minor < 3 {
			api = vk.MakeVersion(1, int(minor), 0)
		}
	}
	var inst vk.Instance
	res := vk.CreateInstance(&vk.InstanceCreateInfo{
		SType: vk.StructureTypeInstanceCreateInfo,
		PApplicationInfo: &vk.ApplicationInfo{
			SType:            vk.StructureTypeApplicationInfo,
			PApplicationName: "gpuav-dbg doctor\x00",
			PEngineName:      "gpuav-dbg\x00",
			ApiVersion:       api,
		},
	}, nil, &inst)
	if res != vk.Success {
		r.InstanceError = fmt.Sprintf("vkCreateInstance: %s", resultName(res))
		return r, nil
	}
	defer vk.DestroyInstance(inst, nil)
	if err := vk.InitInstance(inst); err != nil {
		return nil, fmt.Errorf("probe: goki vulkan instance: %w", err)
	}
	var n uint32
	if res := vk.EnumeratePhysicalDevices(inst, &n, nil); res != vk.Success {
		r.InstanceError = fmt.Sprintf("vkEnumeratePhysicalDevices: %s", resultName(res))
		return r, nil
	}
	pds := make([]vk.PhysicalDevice, n)
	if n > 0 {
		if res := vk.EnumeratePhysicalDevices(inst, &n, pds); res != vk.Success && res != vk.Incomplete {
			r.InstanceError = fmt.Sprintf("vkEnumeratePhysicalDevices: %s", resultName(res))
			return r, nil
		}
	}
	for i, pd := range pds[:n] {
		d, err := probeDevice(gipa, inst, pd, instVersion)
		if err != nil {
			return nil, fmt.Errorf("probe device %d: %w", i, err)
		}
		d.Index = i
		r.Devices = append(r.Devices, d)
	}
	return r, nil
}

// instanceLayers lists the instance layers through goki.
func instanceLayers() ([]Layer, error) {
	var n uint32
	if res := vk.EnumerateInstanceLayerProperties(&n, nil); res != vk.Success {
		return nil, fmt.Errorf("probe: vkEnumerateInstanceLayerProperties: %s", resultName(res))
	}
	props := make([]vk.LayerProperties, n)
	if n > 0 {
		if res := vk.EnumerateInstanceLayerProperties(&n, props); res != vk.Success && res != vk.Incomplete {
			return nil, fmt.Errorf("probe: vkEnumerateInstanceLayerProperties: %s", resultName(res))
		}
	}
	layers := []Layer{}
	for _, p := range props[:n] {
		p.Deref()
		layers = append(layers, Layer{
			Name: vk.ToString(p.LayerName[:]), SpecVersion: Version(p.SpecVersion),
			ImplementationVersion: p.ImplementationVersion, Description: vk.ToString(p.Description[:]),
		})
	}
	return layers, nil
}

// deviceExtensions lists a device's extensions through goki.
func deviceExtensions(pd vk.PhysicalDevice) ([]string, error) {
	var n uint32
	if res := vk.EnumerateDeviceExtensionProperties(pd, "", &n, nil); res != vk.Success {
		return nil, fmt.Errorf("vkEnumerateDeviceExtensionProperties: %s", resultName(res))
	}
	props := make([]vk.ExtensionProperties, n)
	if n > 0 {
		if res := vk.EnumerateDeviceExtensionProperties(pd, "", &n, props); res != vk.Success && res != vk.Incomplete {
			return nil, fmt.Errorf("vkEnumerateDeviceExtensionProperties: %s", resultName(res))
		}
	}
	exts := []string{}
	for _, p := range props[:n] {
		p.Deref()
		exts = append(exts, vk.ToString(p.ExtensionName[:]))
	}
	return exts, nil
}

// probeDevice reads one physical device: extensions through goki, the
// property and feature chains through C.
func probeDevice(gipa unsafe.Pointer, inst vk.Instance, pd vk.PhysicalDevice, instVersion uint32) (*Device, error) {
	exts, err := deviceExtensions(pd)
	if err != nil {
		return nil, err
	}
	d := &Device{Extensions: exts}
	var bits C.uint32_t
	for ext, bit := range map[string]C.uint32_t{
		ExtDriverProperties: C.GD_EXT_DRIVER_PROPERTIES, ExtDescriptorIndexing: C.GD_EXT_DESCRIPTOR_INDEXING,
		ExtBufferDeviceAddress: C.GD_EXT_BUFFER_DEVICE_ADDRESS, ExtRayQuery: C.GD_EXT_RAY_QUERY,
		ExtAccelerationStructure: C.GD_EXT_ACCELERATION_STRUCTURE, ExtMeshShader: C.GD_EXT_MESH_SHADER,
		ExtRobustness2: C.GD_EXT_ROBUSTNESS2, ExtRayTracingPipeline: C.GD_EXT_RAY_TRACING_PIPELINE,
		ExtCooperativeMatrix: C.GD_EXT_COOPERATIVE_MATRIX,
	} {
		if d.HasExtension(ext) {
			bits |= bit
		}
	}
	info := (*C.gd_info)(C.calloc(1, C.size_t(unsafe.Sizeof(C.gd_info{}))))
	if info == nil {
		return nil, fmt.Errorf("out of memory")
	}
	defer C.free(unsafe.Pointer(info))
	C.gd_query(gipa, C.VkInstance(unsafe.Pointer(inst)), C.VkPhysicalDevice(unsafe.Pointer(pd)), C.uint32_t(instVersion), bits, info)

	p := &info.props
	d.Name = C.GoString(&p.deviceName[0])
	d.Type = TypeName(uint32(p.deviceType))
	d.VendorID, d.DeviceID = uint32(p.vendorID), uint32(p.deviceID)
	d.APIVersionRaw, d.APIVersion = uint32(p.apiVersion), Version(uint32(p.apiVersion))
	d.DriverVersionRaw = uint32(p.driverVersion)
	d.DriverVersion = DriverVersion(d.VendorID, d.DriverVersionRaw)
	if info.have_driver != 0 {
		d.DriverName = C.GoString(&info.driver.driverName[0])
		d.DriverInfo = C.GoString(&info.driver.driverInfo[0])
		d.DriverID = uint32(info.driver.driverID)
	}
	l := &p.limits
	d.Limits = Limits{
		MaxBoundDescriptorSets:              uint32(l.maxBoundDescriptorSets),
		MaxPerStageDescriptorStorageBuffers: uint32(l.maxPerStageDescriptorStorageBuffers),
		MaxStorageBufferRange:               uint32(l.maxStorageBufferRange),
		MinStorageBufferOffsetAlignment:     uint64(l.minStorageBufferOffsetAlignment),
		MaxUniformBufferRange:               uint32(l.maxUniformBufferRange),
	}
	d.Features = features(info)
	return d, nil
}

// features turns the C structs into the named feature map; a struct the
// driver did not fill leaves its features false.
func features(i *C.gd_info) map[string]bool {
	b := func(v C.VkBool32) bool { return v != 0 }
	c := &i.core
	f := map[string]bool{
		"robustBufferAccess":                      b(c.robustBufferAccess),
		"geometryShader":                          b(c.geometryShader),
		"tessellationShader":                      b(c.tessellationShader),
		"vertexPipelineStoresAndAtomics":          b(c.vertexPipelineStoresAndAtomics),
		"fragmentStoresAndAtomics":                b(c.fragmentStoresAndAtomics),
		"shaderInt64":                             b(c.shaderInt64),
		"shaderStorageBufferArrayDynamicIndexing": b(c.shaderStorageBufferArrayDynamicIndexing),
		"shaderSampledImageArrayDynamicIndexing":  b(c.shaderSampledImageArrayDynamicIndexing),

		"descriptorIndexing":                            b(i.v12.descriptorIndexing),
		"runtimeDescriptorArray":                        b(i.di.runtimeDescriptorArray),
		"descriptorBindingPartiallyBound":               b(i.di.descriptorBindingPartiallyBound),
		"descriptorBindingVariableDescriptorCount":      b(i.di.descriptorBindingVariableDescriptorCount),
		"descriptorBindingUpdateUnusedWhilePending":     b(i.di.descriptorBindingUpdateUnusedWhilePending),
		"descriptorBindingStorageBufferUpdateAfterBind": b(i.di.descriptorBindingStorageBufferUpdateAfterBind),
		"shaderSampledImageArrayNonUniformIndexing":     b(i.di.shaderSampledImageArrayNonUniformIndexing),
		"shaderStorageBufferArrayNonUniformIndexing":    b(i.di.shaderStorageBufferArrayNonUniformIndexing),
		"bufferDeviceAddress":                           b(i.bda.bufferDeviceAddress),
		"timelineSemaphore":                             b(i.v12.timelineSemaphore),

		"robustImageAccess": b(i.v13.robustImageAccess),
		"synchronization2":  b(i.v13.synchronization2),
		"dynamicRendering":  b(i.v13.dynamicRendering),
		"maintenance4":      b(i.v13.maintenance4),

		"rayQuery":              b(i.rq.rayQuery),
		"accelerationStructure": b(i.as.accelerationStructure),
		"meshShader":            b(i.mesh.meshShader),
		"taskShader":            b(i.mesh.taskShader),
		"robustBufferAccess2":   b(i.rob2.robustBufferAccess2),
		"robustImageAccess2":    b(i.rob2.robustImageAccess2),
		"nullDescriptor":        b(i.rob2.nullDescriptor),
		"rayTracingPipeline":    b(i.rt.rayTracingPipeline),
		"cooperativeMatrix":     b(i.coop.cooperativeMatrix),
	}
	if i.have_v12 == 0 && i.have_di != 0 {
		// Before 1.2 there is no aggregate flag: the extension's
		// features stand for it.
		f["descriptorIndexing"] = f["runtimeDescriptorArray"] && f["descriptorBindingPartiallyBound"]
	}
	return f
}

// resultName names a VkResult ("VK_ERROR_INCOMPATIBLE_DRIVER").
func resultName(r vk.Result) string {
	names := map[vk.Result]string{
		vk.Success: "VK_SUCCESS", vk.Incomplete: "VK_INCOMPLETE",
		vk.ErrorOutOfHostMemory: "VK_ERROR_OUT_OF_HOST_MEMORY", vk.ErrorOutOfDeviceMemory: "VK_ERROR_OUT_OF_DEVICE_MEMORY",
		vk.ErrorInitializationFailed: "VK_ERROR_INITIALIZATION_FAILED", vk.ErrorLayerNotPresent: "VK_ERROR_LAYER_NOT_PRESENT",
		vk.ErrorExtensionNotPresent: "VK_ERROR_EXTENSION_NOT_PRESENT", vk.ErrorIncompatibleDriver: "VK_ERROR_INCOMPATIBLE_DRIVER",
	}
	if n, ok := names[r]; ok {
		return n
	}
	return fmt.Sprintf("VkResult %d", int32(r))
}
