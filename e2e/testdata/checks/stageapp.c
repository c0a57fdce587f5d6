/*
 * stageapp: descriptor_index_oob, descriptor_uninitialized,
 * descriptor_destroyed, bda_oob, texel_buffer_oob, buffer_oob and ray_query
 * in every shader stage but compute (C, with the shared
 * checkapp.h). The shader of the stage under test (stage.<stage>) reads
 * data[pc.index].v[0] from a sized array of 4 storage buffers (set 0,
 * binding 1; element i holds 100 + i) and stores it + 1 into result.v[0]
 * (set 0, binding 0), then reads rdata[pc.rindex].v[0] from a runtime array
 * (binding 4: layout count 4, PARTIALLY_BOUND, elements 0, 1, 3 written,
 * the same buffers) into result.v[1] the same way, in exactly one
 * invocation, chosen by its stage coordinates so that they are not all 0:
 *
 *   tesc   vkCmdDraw of 3 patches of 1 point, 2 output points: primitive 2,
 *          invocation 1 (stage_plain.vert, stage_plain.tese, stage_plain.frag)
 *   tese   the same draw, isolines (2 lines of 1 segment): primitive 1,
 *          TessCoord (1, 0.5) (stage_plain.tesc)
 *   geom   vkCmdDraw of 2 points, 3 invocations: primitive 1, invocation 2
 *   task   vkCmdDrawMeshTasksEXT(2, 2, 1), workgroups of 2x1x1: global
 *          invocation (3, 1, 0); no mesh workgroup is launched
 *   mesh   the same, without a task shader
 *   vert   vkCmdDraw of 4 points, 2 instances: vertex 2, instance 1
 *          (stage_plain.frag)
 *   frag   vkCmdDraw of 1 point on the 1x1 target: frag coord (0.5, 0.5)
 *          (stage_plain.vert)
 *   rchit, rahit, rmiss, rint, rcall
 *          vkCmdTraceRaysKHR 4x2x1: launch (3, 1, 0). stage_trace.rgen casts one
 *          ray per launch from the origin along +z at one triangle
 *          (-1,-1,5) (1,-1,5) (0,1,5): opaque for rchit, not opaque for
 *          rahit (any hit), masked out of the instance (mask 0) for rmiss;
 *          for rint the geometry is the box (-1,-1,4)..(1,1,6) with a
 *          procedural hit group. For rcall stage_call.rgen calls callable 0.
 *   rgen   the same trace, but the ray generation shader (PREFIX.rgen)
 *          does the access itself and casts no ray (stage_plain.rmiss and
 *          stage_plain.rchit fill the other groups).
 *
 *   stageapp --shaders DIR --stage STAGE [--index N]
 *            [--case oob|uninitialized|destroyed|bda_oob|texel_buffer_oob|buffer_oob|ray_query|printf]
 *            [--action direct|indirect|indirect-count|indirect2] [--library]
 *
 * --action (default direct) picks the action's form: for task and mesh
 * vkCmdDrawMeshTasksIndirectEXT or vkCmdDrawMeshTasksIndirectCountEXT (a
 * buffer holding 2,2,1 and the count 1), for the ray-tracing stages
 * vkCmdTraceRaysIndirectKHR (4,2,1 at the buffer's device address) or,
 * with indirect2, vkCmdTraceRaysIndirect2KHR (VK_KHR_ray_tracing_maintenance1:
 * a VkTraceRaysIndirectCommand2KHR holding the shader binding tables and
 * 4,2,1); the invocations are the same. --library (ray-tracing stages)
 * links the pipeline from a pipeline library that holds its stages and
 * groups (VK_KHR_pipeline_library; "unsupported STAGE" without it).
 * lavapipe (Mesa 25.0.7) runs such a pipeline with its push constants all
 * 0 (--index 2 reads data[0]: value=101 101, with no validation error
 * from the Khronos layer), so only the printf case, whose shaders read
 * none, uses it.
 *
 * Case oob (the default): pc.index is N (default 4: one past the array's
 * 4), pc.rindex 1. Binding 2 is one more
 * storage buffer holding 900, so that lavapipe alone, which lays the
 * bindings out one after the other, reads it for index 4 (value=901). It
 * gives 1 when the checked load was skipped (it yields 0), 100 + N + 1 for
 * a good index. The TLAS of the
 * ray-tracing stages is binding 3. Case uninitialized: pc.index is N
 * (default 1), pc.rindex 2 (never written). Case destroyed: the same, but
 * element 2 is written with a buffer holding 102 that is destroyed before
 * recording (lavapipe alone reads the stale 102: value=102 103).
 *
 * The other checks' cases use stage_more.<stage> instead (the same
 * invocation), which does one access chosen by pc.kind, into result.v[0]:
 *   bda_oob           pc.ref.v[N] through a buffer_reference to a 64-byte
 *                     buffer (v[i] = 100 + i; default N 16: its end); the
 *                     app prints "bda=0xADDR size=64" first
 *   texel_buffer_oob  texelFetch(texels, N): binding 5, a uniform texel
 *                     buffer of 8 R32_UINT texels 100 + i (default N 10)
 *   buffer_oob        small.v[N]: binding 6, a storage buffer of 64 bytes
 *                     (v[i] = 100 + i) bound with a range of 16 (default N 4)
 *   ray_query         rayQueryInitializeEXT with tmin 6 > tmax 4.5
 * These cases build the scene (submit 1) and bind its TLAS as binding 3 in
 * every stage (each stage_more shader may query rays), with
 * VK_KHR_ray_query; the graphics stages get acceleration structures and
 * ray queries without a ray-tracing pipeline.
 *
 * Case printf uses stage_printf.<stage> instead, in which every invocation
 * of the stage prints values that identify it (debugPrintfEXT; the ray
 * generation shader, which casts no ray, 4 lines from one call and 1 from
 * another per launch); the app makes
 * the debug-utils messenger of printf_messenger.h, which prints each
 * printf message as "printf: TEXT".
 *
 * It prints "value=A B"
 * (result.v[0], result.v[1]) after the submit. Where the device does not
 * report the stage's feature (tessellationShader, geometryShader,
 * vertexPipelineStoresAndAtomics, fragmentStoresAndAtomics,
 * VK_EXT_mesh_shader taskShader/meshShader, VK_KHR_ray_tracing_pipeline;
 * for stage_more also bufferDeviceAddress, accelerationStructure and
 * VK_KHR_ray_query) it prints "unsupported STAGE" and exits 0. Every VkResult is checked; a
 * failure prints "stageapp: <call> failed: <n>" and exits 1. Names: the
 * command buffer is "stage-cmd", the pipeline "stage-pipeline".
 */
#define APP "stageapp"
#include "checkapp.h"
#include "printf_messenger.h"

enum { TESC, TESE, GEOM, TASK, MESH, VERT, FRAG, RCHIT, RAHIT, RMISS, RINT, RCALL, RGEN, NSTAGES };
static const char *const stage_names[NSTAGES] = {"tesc", "tese", "geom", "task", "mesh", "vert", "frag",
                                                 "rchit", "rahit", "rmiss", "rint", "rcall", "rgen"};

/* prefix names the shader of the stage under test: PREFIX.<stage>
 * ("stage", or "stage_more" for the other checks' cases). */
static const char *prefix = "stage";

/* own is PREFIX.EXT (in a buffer that the next call reuses). */
static const char *own(const char *ext)
{
    static char name[64];
    snprintf(name, sizeof name, "%s.%s", prefix, ext);
    return name;
}

/* module creates a shader module from DIR/NAME.spv. */
static VkShaderModule module(const char *dir, const char *name)
{
    char file[256];
    snprintf(file, sizeof file, "%s.spv", name);
    return ca_module(dir, file);
}

/* rt is the ray-tracing pipeline's shader binding table regions. */
typedef struct {
    capp_buffer sbt;
    VkStridedDeviceAddressRegionKHR rgen, miss, hit, call;
    VkPipeline lib; /* --library: the pipeline library */
} rt;

/* library: --library, the ray-tracing pipeline is linked from a pipeline
 * library holding its stages and groups (VK_KHR_pipeline_library). */
static int library;

/* rt_pipeline creates the ray-tracing pipeline of stage: groups raygen,
 * miss, hit (triangles or procedural) and, for RCALL, callable; and its
 * shader binding table, one group per shaderGroupBaseAlignment. */
static VkPipeline rt_pipeline(int stage, const char *dir, VkPipelineLayout layout, rt *t)
{
    VkPipelineShaderStageCreateInfo ss[5];
    uint32_t n = 0;
#define STAGE(bit, name)                                                                                           \
    (ss[n] = (VkPipelineShaderStageCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,      \
                                               .stage = (bit), .module = module(dir, (name)), .pName = "main"},   \
     n++)
    uint32_t rgen = STAGE(VK_SHADER_STAGE_RAYGEN_BIT_KHR, stage == RCALL  ? "stage_call.rgen"
                                                          : stage == RGEN ? own("rgen")
                                                                          : "stage_trace.rgen");
    uint32_t miss = STAGE(VK_SHADER_STAGE_MISS_BIT_KHR, stage == RMISS ? own("rmiss") : "stage_plain.rmiss");
    uint32_t chit = STAGE(VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR, stage == RCHIT ? own("rchit") : "stage_plain.rchit");
    uint32_t ahit = stage == RAHIT ? STAGE(VK_SHADER_STAGE_ANY_HIT_BIT_KHR, own("rahit")) : VK_SHADER_UNUSED_KHR;
    uint32_t isect = stage == RINT ? STAGE(VK_SHADER_STAGE_INTERSECTION_BIT_KHR, own("rint")) : VK_SHADER_UNUSED_KHR;
    uint32_t call = stage == RCALL ? STAGE(VK_SHADER_STAGE_CALLABLE_BIT_KHR, own("rcall")) : VK_SHADER_UNUSED_KHR;
#undef STAGE
    VkRayTracingShaderGroupCreateInfoKHR general = {
        .sType = VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR,
        .type = VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR, .closestHitShader = VK_SHADER_UNUSED_KHR,
        .anyHitShader = VK_SHADER_UNUSED_KHR, .intersectionShader = VK_SHADER_UNUSED_KHR,
    };
    VkRayTracingShaderGroupCreateInfoKHR groups[4] = {general, general, general, general};
    groups[0].generalShader = rgen;
    groups[1].generalShader = miss;
    groups[2].type = stage == RINT ? VK_RAY_TRACING_SHADER_GROUP_TYPE_PROCEDURAL_HIT_GROUP_KHR
                                   : VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR;
    groups[2].generalShader = VK_SHADER_UNUSED_KHR;
    groups[2].closestHitShader = chit;
    groups[2].anyHitShader = ahit;
    groups[2].intersectionShader = isect;
    groups[3].generalShader = call;
    uint32_t ngroups = stage == RCALL ? 4 : 3;
    VkRayTracingPipelineCreateInfoKHR ci = {
        .sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR, .stageCount = n, .pStages = ss,
        .groupCount = ngroups, .pGroups = groups, .maxPipelineRayRecursionDepth = 1, .layout = layout,
    };
    PROC(vkCreateRayTracingPipelinesKHR);
    VkPipeline pipe;
    if (library) {
        /* The stages and groups in a library; the pipeline links it alone
         * (its groups are the library's, in order). */
        VkRayTracingPipelineInterfaceCreateInfoKHR iface = {
            .sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_INTERFACE_CREATE_INFO_KHR,
            .maxPipelineRayPayloadSize = 4, .maxPipelineRayHitAttributeSize = 8};
        ci.flags = VK_PIPELINE_CREATE_LIBRARY_BIT_KHR;
        ci.pLibraryInterface = &iface;
        CHECK(pvkCreateRayTracingPipelinesKHR(ca.dev, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &ci, NULL, &t->lib));
        VkPipelineLibraryCreateInfoKHR li = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR,
                                             .libraryCount = 1, .pLibraries = &t->lib};
        VkRayTracingPipelineCreateInfoKHR linked = {
            .sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR, .pLibraryInfo = &li,
            .pLibraryInterface = &iface, .maxPipelineRayRecursionDepth = 1, .layout = layout};
        CHECK(pvkCreateRayTracingPipelinesKHR(ca.dev, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &linked, NULL, &pipe));
    } else {
        CHECK(pvkCreateRayTracingPipelinesKHR(ca.dev, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &ci, NULL, &pipe));
    }

    t->sbt = ca_shader_table(pipe, ngroups, (VkStridedDeviceAddressRegionKHR *[]){&t->rgen, &t->miss, &t->hit, &t->call});
    return pipe;
}

/* graphics_pipeline creates the pipeline of a graphics stage: vertex,
 * tessellation and geometry for TESC/TESE/GEOM (input: patches of 1 point,
 * or points), task/mesh for TASK/MESH, vertex for VERT; the stage's
 * fragment shader for FRAG, else a plain one, into t. */
static VkPipeline graphics_pipeline(int stage, const char *dir, VkPipelineLayout layout, const capp_image *t)
{
    VkPipelineShaderStageCreateInfo ss[5];
    uint32_t n = 0;
#define STAGE(bit, name)                                                                                           \
    (ss[n++] = (VkPipelineShaderStageCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,    \
                                                 .stage = (bit), .module = module(dir, (name)), .pName = "main"})
    int tess = stage == TESC || stage == TESE, mesh = stage == TASK || stage == MESH;
    if (mesh) {
        if (stage == TASK)
            STAGE(VK_SHADER_STAGE_TASK_BIT_EXT, own("task"));
        STAGE(VK_SHADER_STAGE_MESH_BIT_EXT, stage == MESH ? own("mesh") : "stage_plain.mesh");
    } else {
        STAGE(VK_SHADER_STAGE_VERTEX_BIT, stage == VERT ? own("vert") : "stage_plain.vert");
        if (tess) {
            STAGE(VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, stage == TESC ? own("tesc") : "stage_plain.tesc");
            STAGE(VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, stage == TESE ? own("tese") : "stage_plain.tese");
        } else if (stage == GEOM) {
            STAGE(VK_SHADER_STAGE_GEOMETRY_BIT, own("geom"));
        }
    }
    STAGE(VK_SHADER_STAGE_FRAGMENT_BIT, stage == FRAG ? own("frag") : "stage_plain.frag");
#undef STAGE
    return capp_graphics_pipeline(&ca, &(capp_graphics_info){
                                           .stages = ss, .nstages = n, .layout = layout, .format = t->format,
                                           .width = 1, .height = 1, .patch_points = tess ? 1 : 0, .mesh = mesh,
                                           .topology = tess ? VK_PRIMITIVE_TOPOLOGY_PATCH_LIST
                                                            : VK_PRIMITIVE_TOPOLOGY_POINT_LIST});
}

int main(int argc, char **argv)
{
    const char *dir = ".";
    int stage = -1;
    uint32_t index = UINT32_MAX;
    int uninit = 0, destroyed = 0, pf = 0;
    uint32_t kind = 0; /* the other checks: 1 bda_oob, 2 texel_buffer_oob, 3 buffer_oob, 4 ray_query */
    static const char *const kinds[] = {"", "bda_oob", "texel_buffer_oob", "buffer_oob", "ray_query"};
    const char *action = "direct";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--shaders") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--index") && i + 1 < argc)
            index = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--case") && i + 1 < argc) {
            i++;
            if (!strcmp(argv[i], "uninitialized"))
                uninit = 1;
            else if (!strcmp(argv[i], "destroyed"))
                uninit = destroyed = 1;
            else if (!strcmp(argv[i], "printf"))
                pf = 1;
            for (uint32_t k = 1; k < 5; k++)
                if (!strcmp(argv[i], kinds[k]))
                    kind = k;
            if (!uninit && !kind && !pf && strcmp(argv[i], "oob")) {
                fprintf(stderr, APP ": unknown case %s\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--library")) {
            library = 1;
        } else if (!strcmp(argv[i], "--action") && i + 1 < argc) {
            action = argv[++i];
        } else if (!strcmp(argv[i], "--stage") && i + 1 < argc) {
            i++;
            for (int s = 0; s < NSTAGES; s++)
                if (!strcmp(argv[i], stage_names[s]))
                    stage = s;
            if (stage < 0) {
                fprintf(stderr, APP ": unknown stage %s\n", argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, APP ": unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (stage < 0) {
        fprintf(stderr, APP ": --stage tesc|tese|geom|task|mesh|vert|frag|rchit|rahit|rmiss|rint|rcall|rgen is required\n");
        return 2;
    }
    if (index == UINT32_MAX)
        index = kind == 1 ? 16 : kind == 2 ? 10 : uninit ? 1 : 4;
    int tess = stage == TESC || stage == TESE, mesh = stage == TASK || stage == MESH, ray = stage >= RCHIT;
    /* as: the app builds the scene and binds the TLAS (the ray-tracing
     * stages, and every stage_more.* shader: they all may query rays). */
    int as = ray || kind;
    if (kind)
        prefix = "stage_more";
    if (pf)
        prefix = "stage_printf";
    /* The push constants (stage.* use index and rindex; stage_more.* all):
     * ref is the device address of the BDA case's buffer, tmin and tmax
     * the ray query's (6 > 4.5). */
    struct {
        uint32_t index, rindex, kind, pad;
        VkDeviceAddress ref;
        float tmin, tmax;
    } pcs = {index, uninit ? 2 : 1, kind, 0, 0, 6.0f, 4.5f};
    int indirect = !strcmp(action, "indirect"), count = !strcmp(action, "indirect-count");
    int indirect2 = !strcmp(action, "indirect2");
    if ((!indirect && !count && !indirect2 && strcmp(action, "direct")) || ((indirect || count) && !mesh && !ray) ||
        (count && ray) || (indirect2 && !ray)) {
        fprintf(stderr, APP ": --action %s is not one of stage %s's\n", action, stage_names[stage]);
        return 2;
    }
    if (library && !ray) {
        fprintf(stderr, APP ": --library is for the ray-tracing stages, not %s\n", stage_names[stage]);
        return 2;
    }

    capp_create_instance(&ca, NULL);
    VkDebugUtilsMessengerEXT messenger = pf ? pm_add_messenger(&ca) : VK_NULL_HANDLE;

    /* What the device reports. */
    VkPhysicalDeviceMeshShaderFeaturesEXT qmesh = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT};
    VkPhysicalDeviceRayTracingPipelineFeaturesKHR qrt = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR};
    VkPhysicalDeviceAccelerationStructureFeaturesKHR qas = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR};
    VkPhysicalDeviceVulkan12Features q12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 q2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &q12};
    int has_mesh = capp_has_device_extension(&ca, VK_EXT_MESH_SHADER_EXTENSION_NAME);
    int has_rt = capp_has_device_extension(&ca, VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME) &&
                 capp_has_device_extension(&ca, VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME);
    if (has_rt) {
        qrt.pNext = &qas;
        qas.pNext = q2.pNext;
        q2.pNext = &qrt;
    }
    if (has_mesh) {
        qmesh.pNext = q2.pNext;
        q2.pNext = &qmesh;
    }
    VkPhysicalDeviceRayTracingMaintenance1FeaturesKHR qm1 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_MAINTENANCE_1_FEATURES_KHR};
    int has_m1 = capp_has_device_extension(&ca, VK_KHR_RAY_TRACING_MAINTENANCE_1_EXTENSION_NAME);
    if (has_m1) {
        qm1.pNext = q2.pNext;
        q2.pNext = &qm1;
    }
    vkGetPhysicalDeviceFeatures2(ca.pd, &q2);
    int supported = tess   ? q2.features.tessellationShader
                    : stage == GEOM ? q2.features.geometryShader
                    : stage == TASK ? has_mesh && qmesh.taskShader && qmesh.meshShader
                    : stage == MESH ? has_mesh && qmesh.meshShader
                    : stage == VERT ? q2.features.vertexPipelineStoresAndAtomics
                    : stage == FRAG ? q2.features.fragmentStoresAndAtomics
                                    : has_rt && qrt.rayTracingPipeline && qas.accelerationStructure;
    if (count && !q12.drawIndirectCount)
        supported = 0;
    if (ray && indirect && !qrt.rayTracingPipelineTraceRaysIndirect)
        supported = 0;
    if (indirect2 && (!has_m1 || !qm1.rayTracingPipelineTraceRaysIndirect2))
        supported = 0;
    if (library && !capp_has_device_extension(&ca, VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME))
        supported = 0;
    if (kind && (!has_rt || !qas.accelerationStructure || !capp_has_device_extension(&ca, VK_KHR_RAY_QUERY_EXTENSION_NAME)))
        supported = 0;
    if (!supported || (kind && !q12.bufferDeviceAddress) || ((tess || stage == GEOM) && !q2.features.vertexPipelineStoresAndAtomics) ||
        !q12.descriptorBindingPartiallyBound || !q12.runtimeDescriptorArray) {
        printf("unsupported %s\n", stage_names[stage]);
        return 0;
    }

    /* The device, with only the features of the stage's family. */
    VkPhysicalDeviceMeshShaderFeaturesEXT fmesh = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT,
                                                   .taskShader = stage == TASK, .meshShader = VK_TRUE};
    VkPhysicalDeviceRayQueryFeaturesKHR frq = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR,
                                               .rayQuery = VK_TRUE};
    VkPhysicalDeviceRayTracingPipelineFeaturesKHR frt = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR, .rayTracingPipeline = VK_TRUE,
        .rayTracingPipelineTraceRaysIndirect = (VkBool32)(ray && indirect)};
    VkPhysicalDeviceAccelerationStructureFeaturesKHR fas = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR, .pNext = &frt,
        .accelerationStructure = VK_TRUE};
    VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                            .pNext = mesh ? (void *)&fmesh : ray ? (void *)&fas : NULL,
                                            .dynamicRendering = VK_TRUE};
    VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                            .pNext = &f13, .bufferDeviceAddress = (VkBool32)(ray || kind),
                                            .drawIndirectCount = (VkBool32)count,
                                            .descriptorBindingPartiallyBound = VK_TRUE,
                                            .runtimeDescriptorArray = VK_TRUE};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12};
    f2.features.tessellationShader = (VkBool32)tess;
    f2.features.geometryShader = stage == GEOM;
    f2.features.vertexPipelineStoresAndAtomics = (VkBool32)(tess || stage == GEOM || stage == VERT);
    f2.features.fragmentStoresAndAtomics = stage == FRAG;
    if (kind && ray)
        frt.pNext = &frq;
    if (kind && !ray) {
        /* Ray queries in a graphics stage: acceleration structures and
         * rayQuery, no ray-tracing pipeline. */
        fas.pNext = &frq;
        if (mesh)
            fmesh.pNext = &fas;
        else
            f13.pNext = &fas;
    }
    /* indirect2: VK_KHR_ray_tracing_maintenance1's TraceRaysIndirect2. */
    VkPhysicalDeviceRayTracingMaintenance1FeaturesKHR fm1 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_MAINTENANCE_1_FEATURES_KHR,
        .rayTracingPipelineTraceRaysIndirect2 = VK_TRUE};
    if (indirect2) {
        fm1.pNext = frt.pNext;
        frt.pNext = &fm1;
    }
    const char *mesh_exts[] = {VK_EXT_MESH_SHADER_EXTENSION_NAME};
    const char *rt_exts[6] = {VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME,
                              VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME,
                              VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME, VK_KHR_RAY_QUERY_EXTENSION_NAME};
    uint32_t nrt = kind ? 4 : 3;
    if (indirect2)
        rt_exts[nrt++] = VK_KHR_RAY_TRACING_MAINTENANCE_1_EXTENSION_NAME;
    if (library)
        rt_exts[nrt++] = VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME;
    const char *rq_exts[] = {VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME,
                             VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME, VK_KHR_RAY_QUERY_EXTENSION_NAME,
                             VK_EXT_MESH_SHADER_EXTENSION_NAME};
    if (kind && !ray)
        ca_create_device(VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT, &f2, rq_exts, mesh ? 4 : 3);
    else
        ca_create_device(ray ? VK_QUEUE_COMPUTE_BIT : VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT, &f2,
                         mesh ? mesh_exts : rt_exts, mesh ? 1 : ray ? nrt : 0);

    VkCommandBuffer cbs[2];
    VkCommandPool pool = ca_command_buffers(0, 2, cbs);
    ca_scene sc = {0};
    if (as)
        sc = ca_make_scene(cbs[0], stage == RINT, stage != RAHIT, stage == RMISS ? 0 : 0xff);

    /* Buffers: the result and the 4 elements (v[0] = 100 + i). */
    capp_buffer result = capp_buffer_create(&ca, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    capp_buffer data[4];
    for (uint32_t i = 0; i < 4; i++) {
        data[i] = capp_buffer_create(&ca, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        ((uint32_t *)data[i].map)[0] = 100 + i;
    }
    capp_buffer after = capp_buffer_create(&ca, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    ((uint32_t *)after.map)[0] = 900;
    /* The other checks' buffers: ref (64 bytes, v[i] = 100 + i, by device
     * address), texels (8 R32_UINT texels, 100 + i, through a view of all
     * of it), small (64 bytes, v[i] = 100 + i, bound with a range of 16). */
    capp_buffer ref = {0}, texels = {0}, small = {0};
    VkBufferView view = VK_NULL_HANDLE;
    if (kind) {
        ref = ca_rt_buffer(64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        texels = capp_buffer_create(&ca, 32, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
        small = capp_buffer_create(&ca, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        for (uint32_t i = 0; i < 16; i++) {
            ((uint32_t *)ref.map)[i] = ((uint32_t *)small.map)[i] = 100 + i;
            if (i < 8)
                ((uint32_t *)texels.map)[i] = 100 + i;
        }
        VkBufferViewCreateInfo bvci = {.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO, .buffer = texels.buf,
                                       .format = VK_FORMAT_R32_UINT, .range = VK_WHOLE_SIZE};
        CHECK(vkCreateBufferView(ca.dev, &bvci, NULL, &view));
        pcs.ref = ref.addr;
        printf("bda=0x%llx size=64\n", (unsigned long long)ref.addr);
    }

    /* Set 0: binding 0 the result, 1 the array of 4, 2 the buffer after it
     * (900), 3 the TLAS (rays). */
    VkDescriptorSetLayoutBinding lb[7] = {
        {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1,
         .stageFlags = VK_SHADER_STAGE_ALL},
        {.binding = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 4,
         .stageFlags = VK_SHADER_STAGE_ALL},
        {.binding = 2, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1,
         .stageFlags = VK_SHADER_STAGE_ALL},
        {.binding = 4, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 4,
         .stageFlags = VK_SHADER_STAGE_ALL},
        {.binding = 3, .descriptorType = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, .descriptorCount = 1,
         .stageFlags = VK_SHADER_STAGE_ALL},
        {.binding = 5, .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, .descriptorCount = 1,
         .stageFlags = VK_SHADER_STAGE_ALL},
        {.binding = 6, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1,
         .stageFlags = VK_SHADER_STAGE_ALL},
    };
    VkDescriptorBindingFlags bflags[7] = {0, 0, 0, VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT, 0, 0, 0};
    /* Bindings 0, 1, 2, 4; 3 for rays; 5 and 6 for the other checks. */
    uint32_t nb = as ? 5 : 4;
    if (kind) {
        if (!as) {
            lb[4] = lb[5];
            lb[5] = lb[6];
        }
        nb += 2;
    }
    VkDescriptorSetLayoutBindingFlagsCreateInfo bfci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO, .bindingCount = nb,
        .pBindingFlags = bflags};
    VkDescriptorSetLayoutCreateInfo dslci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                             .pNext = &bfci, .bindingCount = nb, .pBindings = lb};
    VkDescriptorSetLayout dsl;
    CHECK(vkCreateDescriptorSetLayout(ca.dev, &dslci, NULL, &dsl));
    VkDescriptorPoolSize sizes[3] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 11},
                                     {VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, 1},
                                     {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1}};
    if (!as)
        sizes[1] = sizes[2];
    VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
                                       .poolSizeCount = (as ? 2 : 1) + (kind ? 1 : 0), .pPoolSizes = sizes};
    VkDescriptorPool dpool;
    CHECK(vkCreateDescriptorPool(ca.dev, &dpci, NULL, &dpool));
    VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                        .descriptorPool = dpool, .descriptorSetCount = 1, .pSetLayouts = &dsl};
    VkDescriptorSet set;
    CHECK(vkAllocateDescriptorSets(ca.dev, &dsai, &set));
    VkDescriptorBufferInfo infos[6] = {{result.buf, 0, VK_WHOLE_SIZE}};
    for (uint32_t i = 0; i < 4; i++)
        infos[1 + i] = (VkDescriptorBufferInfo){data[i].buf, 0, VK_WHOLE_SIZE};
    infos[5] = (VkDescriptorBufferInfo){after.buf, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSetAccelerationStructureKHR was = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR,
        .accelerationStructureCount = 1, .pAccelerationStructures = &sc.tlas};
    VkWriteDescriptorSet w[4] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 0, .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = infos},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 1, .descriptorCount = 4,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = infos + 1},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 2, .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = infos + 5},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .pNext = &was, .dstSet = set, .dstBinding = 3,
         .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR},
    };
    vkUpdateDescriptorSets(ca.dev, as ? 4 : 3, w, 0, NULL);
    /* The runtime array: elements 0, 1 and 3; element 2 stays unwritten. */
    VkWriteDescriptorSet rw[2] = {w[1], w[1]};
    rw[0].dstBinding = rw[1].dstBinding = 4;
    rw[0].descriptorCount = 2;
    rw[1].dstArrayElement = 3;
    rw[1].descriptorCount = 1;
    rw[1].pBufferInfo = infos + 4;
    vkUpdateDescriptorSets(ca.dev, 2, rw, 0, NULL);
    if (kind) {
        VkDescriptorBufferInfo si = {small.buf, 0, 16};
        VkWriteDescriptorSet kw[2] = {
            {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 5, .descriptorCount = 1,
             .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, .pTexelBufferView = &view},
            {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 6, .descriptorCount = 1,
             .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &si},
        };
        vkUpdateDescriptorSets(ca.dev, 2, kw, 0, NULL);
    }
    if (destroyed) {
        /* Case destroyed: element 2 is written with a buffer holding 102,
         * destroyed before recording (legal with PARTIALLY_BOUND as long
         * as it is not used; the shader uses it). Its memory stays. */
        capp_buffer gone = capp_buffer_create(&ca, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        ((uint32_t *)gone.map)[0] = 102;
        VkDescriptorBufferInfo gi = {gone.buf, 0, VK_WHOLE_SIZE};
        VkWriteDescriptorSet gw = rw[1];
        gw.dstArrayElement = 2;
        gw.pBufferInfo = &gi;
        vkUpdateDescriptorSets(ca.dev, 1, &gw, 0, NULL);
        vkDestroyBuffer(ca.dev, gone.buf, NULL);
    }

    VkPushConstantRange pcr = {.stageFlags = VK_SHADER_STAGE_ALL, .size = sizeof pcs};
    VkPipelineLayout layout = capp_pipeline_layout(&ca, 1, &dsl, &pcr);

    capp_image t = {0};
    rt tables = {0};
    VkPipeline pipe;
    VkPipelineBindPoint bp = ray ? VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR : VK_PIPELINE_BIND_POINT_GRAPHICS;
    if (ray) {
        pipe = rt_pipeline(stage, dir, layout, &tables);
    } else {
        t = capp_image_create(&ca, 1, 1, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
        pipe = graphics_pipeline(stage, dir, layout, &t);
    }
    ca_name_cmd_pipeline(cbs[1], "stage-cmd", pipe, "stage-pipeline");

    capp_begin(cbs[1], 0);
    if (!ray)
        capp_begin_rendering(cbs[1], &t, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    vkCmdBindPipeline(cbs[1], bp, pipe);
    vkCmdBindDescriptorSets(cbs[1], bp, layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cbs[1], layout, VK_SHADER_STAGE_ALL, 0, sizeof pcs, &pcs);
    /* The indirect arguments: 4,2,1 rays or 2,2,1 workgroups, then the
     * draw count 1 (word 3). */
    capp_buffer args = capp_buffer_create(&ca, sizeof(VkTraceRaysIndirectCommand2KHR),
                                 VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                                     (ray ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0));
    memcpy(args.map, ray ? (uint32_t[4]){4, 2, 1, 1} : (uint32_t[4]){2, 2, 1, 1}, 16);
    if (indirect2) {
        /* The tables and 4,2,1 rays, all in the indirect command. */
        VkTraceRaysIndirectCommand2KHR cmd2 = {
            .raygenShaderRecordAddress = tables.rgen.deviceAddress,
            .raygenShaderRecordSize = tables.rgen.size,
            .missShaderBindingTableAddress = tables.miss.deviceAddress,
            .missShaderBindingTableSize = tables.miss.size,
            .missShaderBindingTableStride = tables.miss.stride,
            .hitShaderBindingTableAddress = tables.hit.deviceAddress,
            .hitShaderBindingTableSize = tables.hit.size,
            .hitShaderBindingTableStride = tables.hit.stride,
            .callableShaderBindingTableAddress = tables.call.deviceAddress,
            .callableShaderBindingTableSize = tables.call.size,
            .callableShaderBindingTableStride = tables.call.stride,
            .width = 4, .height = 2, .depth = 1};
        memcpy(args.map, &cmd2, sizeof cmd2);
        PROC(vkCmdTraceRaysIndirect2KHR);
        pvkCmdTraceRaysIndirect2KHR(cbs[1], args.addr);
    } else if (ray && indirect) {
        PROC(vkCmdTraceRaysIndirectKHR);
        pvkCmdTraceRaysIndirectKHR(cbs[1], &tables.rgen, &tables.miss, &tables.hit, &tables.call, args.addr);
    } else if (ray) {
        PROC(vkCmdTraceRaysKHR);
        pvkCmdTraceRaysKHR(cbs[1], &tables.rgen, &tables.miss, &tables.hit, &tables.call, 4, 2, 1);
    } else if (mesh && indirect) {
        PROC(vkCmdDrawMeshTasksIndirectEXT);
        pvkCmdDrawMeshTasksIndirectEXT(cbs[1], args.buf, 0, 1, 12);
    } else if (mesh && count) {
        PROC(vkCmdDrawMeshTasksIndirectCountEXT);
        pvkCmdDrawMeshTasksIndirectCountEXT(cbs[1], args.buf, 0, args.buf, 12, 1, 12);
    } else if (mesh) {
        PROC(vkCmdDrawMeshTasksEXT);
        pvkCmdDrawMeshTasksEXT(cbs[1], 2, 2, 1);
    } else {
        vkCmdDraw(cbs[1], tess ? 3 : stage == VERT ? 4 : stage == FRAG ? 1 : 2, stage == VERT ? 2 : 1, 0, 0);
    }
    if (!ray)
        vkCmdEndRendering(cbs[1]);
    CHECK(vkEndCommandBuffer(cbs[1]));
    ca_submit_wait(cbs[1]);
    printf("value=%u %u\n", ((uint32_t *)result.map)[0], ((uint32_t *)result.map)[1]);
    fflush(stdout);

    /* Tear-down is left to process exit, except for the device-level
     * objects the layer tracks. */
    if (view)
        vkDestroyBufferView(ca.dev, view, NULL);
    ca_teardown(pipe, layout, pool, dpool, dsl, &t);
    if (tables.lib)
        vkDestroyPipeline(ca.dev, tables.lib, NULL);
    pm_destroy_messenger(&ca, messenger);
    return 0;
}
