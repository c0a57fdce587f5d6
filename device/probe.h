// C side of the device probe: loading libvulkan, and the pNext chains of
// vkGetPhysicalDeviceFeatures2/Properties2 that goki/vulkan cannot build.
#ifndef GPUAV_DBG_DEVICE_PROBE_H
#define GPUAV_DBG_DEVICE_PROBE_H

#define VK_NO_PROTOTYPES
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

// Device extensions that decide which structs go into the chains.
enum {
	GD_EXT_DRIVER_PROPERTIES = 1u << 0,
	GD_EXT_DESCRIPTOR_INDEXING = 1u << 1,
	GD_EXT_BUFFER_DEVICE_ADDRESS = 1u << 2,
	GD_EXT_RAY_QUERY = 1u << 3,
	GD_EXT_ACCELERATION_STRUCTURE = 1u << 4,
	GD_EXT_MESH_SHADER = 1u << 5,
	GD_EXT_ROBUSTNESS2 = 1u << 6,
	GD_EXT_RAY_TRACING_PIPELINE = 1u << 7,
	GD_EXT_COOPERATIVE_MATRIX = 1u << 8,
};

// VkPhysicalDeviceCooperativeMatrixFeaturesKHR (VK_KHR_cooperative_matrix),
// which Debian 12's Vulkan headers (1.3.239) predate.
typedef struct {
	VkStructureType sType;
	void *pNext;
	VkBool32 cooperativeMatrix;
	VkBool32 cooperativeMatrixRobustBufferAccess;
} gd_coop_features;
#define GD_STRUCTURE_TYPE_COOPERATIVE_MATRIX_FEATURES ((VkStructureType)1000506000)

// gd_info is everything the probe reads of one physical device. The have_
// flags say which structs the driver filled; for a Vulkan 1.2 device the
// descriptor-indexing and buffer-device-address structs are copied from
// VkPhysicalDeviceVulkan12Features.
typedef struct {
	VkPhysicalDeviceProperties props;
	VkPhysicalDeviceDriverProperties driver;
	VkPhysicalDeviceFeatures core;
	VkPhysicalDeviceVulkan11Features v11;
	VkPhysicalDeviceVulkan12Features v12;
	VkPhysicalDeviceVulkan13Features v13;
	VkPhysicalDeviceDescriptorIndexingFeatures di;
	VkPhysicalDeviceBufferDeviceAddressFeatures bda;
	VkPhysicalDeviceRayQueryFeaturesKHR rq;
	VkPhysicalDeviceAccelerationStructureFeaturesKHR as;
	VkPhysicalDeviceMeshShaderFeaturesEXT mesh;
	VkPhysicalDeviceRobustness2FeaturesEXT rob2;
	VkPhysicalDeviceRayTracingPipelineFeaturesKHR rt;
	gd_coop_features coop;
	int have_features2, have_driver, have_v11, have_v12, have_v13, have_di, have_bda, have_rq, have_as, have_mesh, have_rob2,
	    have_rt, have_coop;
} gd_info;

// gd_load opens the Vulkan loader lib and returns its
// vkGetInstanceProcAddr, or NULL with the reason in err.
void *gd_load(const char *lib, char *err, size_t errlen);

// gd_instance_version is vkEnumerateInstanceVersion's answer (1.0 when the
// loader has no such function).
uint32_t gd_instance_version(void *gipa);

// gd_query fills info for one physical device.
void gd_query(void *gipa, VkInstance instance, VkPhysicalDevice pd, uint32_t instance_version, uint32_t exts, gd_info *info);

#endif
