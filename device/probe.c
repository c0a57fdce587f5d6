#include "probe.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

void *gd_load(const char *lib, char *err, size_t errlen) {
	err[0] = 0;
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		snprintf(err, errlen, "%s", e ? e : "dlopen failed");
		return NULL;
	}
	void *gipa = dlsym(h, "vkGetInstanceProcAddr");
	if (!gipa) {
		snprintf(err, errlen, "%s has no vkGetInstanceProcAddr", lib);
		return NULL;
	}
	return gipa;
}

uint32_t gd_instance_version(void *gipa) {
	PFN_vkGetInstanceProcAddr get = (PFN_vkGetInstanceProcAddr)gipa;
	PFN_vkEnumerateInstanceVersion ver = (PFN_vkEnumerateInstanceVersion)get(VK_NULL_HANDLE, "vkEnumerateInstanceVersion");
	uint32_t v = VK_API_VERSION_1_0;
	if (ver && ver(&v) != VK_SUCCESS) {
		v = VK_API_VERSION_1_0;
	}
	return v;
}

// link appends s to the chain whose last pNext is *tail.
static void link(void ***tail, void *s, void **next) {
	**tail = s;
	*tail = next;
}

void gd_query(void *gipa, VkInstance instance, VkPhysicalDevice pd, uint32_t instance_version, uint32_t exts, gd_info *info) {
	PFN_vkGetInstanceProcAddr get = (PFN_vkGetInstanceProcAddr)gipa;
	memset(info, 0, sizeof *info);
	PFN_vkGetPhysicalDeviceProperties props1 = (PFN_vkGetPhysicalDeviceProperties)get(instance, "vkGetPhysicalDeviceProperties");
	PFN_vkGetPhysicalDeviceFeatures feats1 = (PFN_vkGetPhysicalDeviceFeatures)get(instance, "vkGetPhysicalDeviceFeatures");
	if (!props1 || !feats1) {
		return;
	}
	props1(pd, &info->props);
	uint32_t api = info->props.apiVersion;
	PFN_vkGetPhysicalDeviceProperties2 props2 = NULL;
	PFN_vkGetPhysicalDeviceFeatures2 feats2 = NULL;
	if (VK_API_VERSION_MINOR(instance_version) >= 1 && VK_API_VERSION_MINOR(api) >= 1) {
		props2 = (PFN_vkGetPhysicalDeviceProperties2)get(instance, "vkGetPhysicalDeviceProperties2");
		feats2 = (PFN_vkGetPhysicalDeviceFeatures2)get(instance, "vkGetPhysicalDeviceFeatures2");
	}
	if (!props2 || !feats2) {
		feats1(pd, &info->core);
		return;
	}
	int v12 = VK_API_VERSION_MAJOR(api) > 1 || VK_API_VERSION_MINOR(api) >= 2;
	int v13 = VK_API_VERSION_MAJOR(api) > 1 || VK_API_VERSION_MINOR(api) >= 3;

	VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
	if (v12 || (exts & GD_EXT_DRIVER_PROPERTIES)) {
		info->driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
		p2.pNext = &info->driver;
		info->have_driver = 1;
	}
	props2(pd, &p2);

	VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	void **tail = &f2.pNext;
	if (v12) {
		info->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
		info->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
		link(&tail, &info->v11, &info->v11.pNext);
		link(&tail, &info->v12, &info->v12.pNext);
		info->have_v11 = info->have_v12 = 1;
	} else {
		if (exts & GD_EXT_DESCRIPTOR_INDEXING) {
			info->di.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES;
			link(&tail, &info->di, &info->di.pNext);
			info->have_di = 1;
		}
		if (exts & GD_EXT_BUFFER_DEVICE_ADDRESS) {
			info->bda.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES;
			link(&tail, &info->bda, &info->bda.pNext);
			info->have_bda = 1;
		}
	}
	if (v13) {
		info->v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
		link(&tail, &info->v13, &info->v13.pNext);
		info->have_v13 = 1;
	}
	if (exts & GD_EXT_RAY_QUERY) {
		info->rq.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR;
		link(&tail, &info->rq, &info->rq.pNext);
		info->have_rq = 1;
	}
	if (exts & GD_EXT_ACCELERATION_STRUCTURE) {
		info->as.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR;
		link(&tail, &info->as, &info->as.pNext);
		info->have_as = 1;
	}
	if (exts & GD_EXT_MESH_SHADER) {
		info->mesh.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT;
		link(&tail, &info->mesh, &info->mesh.pNext);
		info->have_mesh = 1;
	}
	if (exts & GD_EXT_RAY_TRACING_PIPELINE) {
		info->rt.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR;
		link(&tail, &info->rt, &info->rt.pNext);
		info->have_rt = 1;
	}
	if (exts & GD_EXT_COOPERATIVE_MATRIX) {
		info->coop.sType = GD_STRUCTURE_TYPE_COOPERATIVE_MATRIX_FEATURES;
		link(&tail, &info->coop, &info->coop.pNext);
		info->have_coop = 1;
	}
	if (exts & GD_EXT_ROBUSTNESS2) {
		info->rob2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT;
		link(&tail, &info->rob2, &info->rob2.pNext);
		info->have_rob2 = 1;
	}
	feats2(pd, &f2);
	info->core = f2.features;
	info->have_features2 = 1;
	if (v12) {
		// One view of descriptor indexing and buffer device address
		// whatever the version.
		VkPhysicalDeviceVulkan12Features *v = &info->v12;
		info->di.shaderSampledImageArrayNonUniformIndexing = v->shaderSampledImageArrayNonUniformIndexing;
		info->di.shaderStorageBufferArrayNonUniformIndexing = v->shaderStorageBufferArrayNonUniformIndexing;
		info->di.shaderUniformBufferArrayNonUniformIndexing = v->shaderUniformBufferArrayNonUniformIndexing;
		info->di.descriptorBindingPartiallyBound = v->descriptorBindingPartiallyBound;
		info->di.descriptorBindingVariableDescriptorCount = v->descriptorBindingVariableDescriptorCount;
		info->di.descriptorBindingUpdateUnusedWhilePending = v->descriptorBindingUpdateUnusedWhilePending;
		info->di.descriptorBindingStorageBufferUpdateAfterBind = v->descriptorBindingStorageBufferUpdateAfterBind;
		info->di.runtimeDescriptorArray = v->runtimeDescriptorArray;
		info->have_di = 1;
		info->bda.bufferDeviceAddress = v->bufferDeviceAddress;
		info->have_bda = 1;
	}
	// Chains point into info; clear them so that no caller follows them.
	info->driver.pNext = info->v11.pNext = info->v12.pNext = info->v13.pNext = NULL;
	info->di.pNext = info->bda.pNext = info->rq.pNext = info->as.pNext = info->mesh.pNext = info->rob2.pNext = info->rt.pNext = NULL;
	info->coop.pNext = NULL;
}
