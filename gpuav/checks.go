package gpuav

import (
	"fmt"
	"slices"
	"strings"
)

// Check is one check a user switches on and off: everything the rest of
// the project knows about it. The settings (launcher flags, layer
// environment, the manifest's settings, the TUI's settings pane), the
// JSON and SARIF reports, the device requirements of doctor and the
// record decoder all read Checks.
type Check struct {
	// ID is the check's stable name, as settings, reports and the TUI
	// spell it.
	ID string
	// Codes are the record codes its check functions write.
	Codes []RecordCode
	// Default says the check is on when nothing says otherwise.
	Default bool
	// Title names the check in a few words (SARIF rule, manifest label,
	// settings pane).
	Title string
	// Help says in one line what the check finds and what gpuav-dbg does
	// about it (SARIF rule help, manifest description).
	Help string
	// Device is what the check needs of a device.
	Device DeviceRequirement
	// Command says the layer checks the action commands themselves (on
	// the CPU or in a pre-pass of its own, cmdchecks.go); it has no pass
	// unless part of it runs in shaders (vertex_fetch_oob).
	Command bool
	// noClamp, when set, says why on_error clamp has no meaning for any
	// of the check's accesses (they are skipped, FailedAccess says why).
	noClamp string
	// describe fills in the check-specific part of a record's description.
	describe func(d *Description, code CheckCode, p [RecordParams]uint32)
	// pass adds the check to shaders; checks may share one.
	pass *passSpec
}

// RecordCode is a check code with the name the check functions give it
// (the GLSL macro GPUAV_CODE_<GLSL>, defined by genlib).
type RecordCode struct {
	Code CheckCode
	GLSL string
}

// DeviceRequirement is what one check needs of a device beyond the base
// (Vulkan 1.1, a free descriptor-set slot, and fragmentStoresAndAtomics /
// vertexPipelineStoresAndAtomics for the stages they cover). Package
// device assesses it against a device's features.
type DeviceRequirement struct {
	// Features must all be supported, or the check cannot run.
	Features []string
	// Extension is the device extension that provides Features, named in
	// the reason when it is missing ("" for core features).
	Extension string
	// WarnWith are features that, when the app enables them, make the
	// accesses the check finds defined behaviour: reported as warnings.
	WarnWith []string
	// GatedBy are the features without which no shader on the device can
	// contain what the check looks at (no ray queries without rayQuery, no
	// device addresses without bufferDeviceAddress): when one is missing the
	// check is not needed rather than missing, and does not make the device
	// unready.
	GatedBy []string
}

// Check ids: the stable names of the checks a user switches on and off, as
// they appear in settings, the JSON report and the TUI.
const (
	CheckDescriptorIndexOOB  = "descriptor_index_oob"
	CheckDescriptorUninit    = "descriptor_uninitialized"
	CheckDescriptorDestroyed = "descriptor_destroyed"
	CheckBufferOOB           = "buffer_oob"
	CheckTexelBufferOOB      = "texel_buffer_oob"
	CheckBDAOOB              = "bda_oob"
	CheckRayQuery            = "ray_query"
	CheckLoopBudget          = "loop_budget"
)

// Check codes (word 8 of a record) and their parameters (words 9..).
const (
	// CodeDescriptorIndexOOB: p0 set, p1 binding, p2 index, p3 array length;
	// under clamp, p7 the code the clamped element failed with (0: the
	// access went there).
	CodeDescriptorIndexOOB CheckCode = 1
	// CodeDescriptorUninitialized: p0 set, p1 binding, p2 index.
	CodeDescriptorUninitialized CheckCode = 2
	// CodeDescriptorDestroyed: p0 set, p1 binding, p2 index.
	CodeDescriptorDestroyed CheckCode = 3
	// CodeBufferOOB: p0 set, p1 binding, p2 index, p3 offset, p4 access
	// size, p5 bound range, p6 flags (Buffer* bits) and array length; p7
	// the byte offset a clamp used, or BufferNoClamp.
	CodeBufferOOB CheckCode = 4
	// CodeTexelBufferOOB: p0 set, p1 binding, p2 index, p3 texel coordinate
	// (bits), p4 texel count, p5 flags (Texel* bits), p6 array length.
	CodeTexelBufferOOB CheckCode = 5
	// CodeBDAOOB: p0/p1 address low/high, p2 access size, p3 flags (BDA*
	// bits), p4..p6 the nearest buffer (BDANearest).
	CodeBDAOOB CheckCode = 6
	// Ray query codes (OpRayQueryInitializeKHR operands), one per rule:
	// p0 RayTmin bits, p1 RayTmax bits, p2..p4 RayDirection's bits for
	// CodeRayQueryDirectionNonFinite and RayOrigin's otherwise, p5 Rayflags,
	// p6 CullMask. A shader reports only the first rule broken, in the order
	// origin, direction, NaN t, negative RayTmin, negative RayTmax,
	// RayTmin > RayTmax.
	CodeRayQueryTminGreaterThanTmax CheckCode = 7  // VUID-...-06350
	CodeRayQueryNegativeTmin        CheckCode = 8  // VUID-...-06349
	CodeRayQueryOriginNonFinite     CheckCode = 9  // VUID-...-06348
	CodeRayQueryDirectionNonFinite  CheckCode = 10 // VUID-...-06348
	CodeRayQueryTNaN                CheckCode = 11 // VUID-...-06351 (+inf is allowed)
	CodeRayQueryNegativeTmax        CheckCode = 12 // VUID-...-06349
	// Ray query Rayflags codes, same parameters; checked after the rules
	// above, in this order.
	CodeRayQuerySkipTrianglesAndAABBs CheckCode = 13 // VUID-...-06889
	CodeRayQueryTriangleFlags         CheckCode = 14 // VUID-...-06890
	CodeRayQueryOpaqueFlags           CheckCode = 15 // VUID-...-06891
	// CodeLoopBudget (120-127 are loop_budget's): p0 the iterations the
	// invocation completed in this entry of the loop, p1 the budget, p2
	// flags (LoopLeft).
	CodeLoopBudget CheckCode = 120
)

// Device features and extensions the requirements name.
var (
	descriptorIndexing = DeviceRequirement{Features: []string{"runtimeDescriptorArray", "descriptorBindingPartiallyBound"},
		Extension: "VK_EXT_descriptor_indexing"}
	robustWarnings = DeviceRequirement{WarnWith: []string{"robustBufferAccess", "robustBufferAccess2"}}
)

// Checks is the check registry, in the order users see the checks: the
// shader checks, then the command checks (cmdchecks.go).
var Checks = append([]Check{
	{
		ID:      CheckDescriptorIndexOOB,
		Codes:   []RecordCode{{CodeDescriptorIndexOOB, "DESCRIPTOR_INDEX_OOB"}},
		Default: true,
		Title:   "Descriptor array index out of bounds",
		Help: "A shader indexed a descriptor array (an array of buffers, images or samplers) with an index at or past the array's length, " +
			"as bound in the descriptor set layout (or the variable count of the set). The access is undefined behaviour; gpuav-dbg skipped it " +
			"(a load yields zero). Clamp or check the index, or make the array larger.",
		describe: describeDescriptorIndex,
		pass:     descriptorIndexPass,
	},
	{
		// Unwritten and destroyed descriptors can only be legal (and so
		// only be reached) with partially bound, runtime-sized arrays; the
		// layer's descriptor-state buffer is indexed by the same rules.
		ID:      CheckDescriptorUninit,
		Codes:   []RecordCode{{CodeDescriptorUninitialized, "DESCRIPTOR_UNINIT"}},
		Default: true,
		Title:   "Descriptor not written",
		Help: "A shader used a descriptor that was never written (partially bound descriptor arrays must only be used where written). " +
			"Runtime (bindless) arrays, sized arrays and plain bindings are checked; VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS=0 limits it to runtime arrays.",
		Device:   descriptorIndexing,
		describe: describeDescriptorState,
		pass:     descriptorIndexPass,
	},
	{
		ID:      CheckDescriptorDestroyed,
		Codes:   []RecordCode{{CodeDescriptorDestroyed, "DESCRIPTOR_DESTROYED"}},
		Default: true,
		Title:   "Descriptor uses a destroyed resource",
		Help: "A shader used a descriptor whose buffer, image view or sampler was destroyed after the descriptor was written. " +
			"Runtime (bindless) arrays, sized arrays and plain bindings are checked; VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS=0 limits it to runtime arrays.",
		Device:   descriptorIndexing,
		describe: describeDescriptorState,
		pass:     descriptorIndexPass,
	},
	{
		// On by default since its checks were made cheap
		// (docs/decisions/cheap-checks.md).
		ID:      CheckBufferOOB,
		Codes:   []RecordCode{{CodeBufferOOB, "BUFFER_OOB"}},
		Default: true,
		Title:   "Buffer access out of bounds",
		Help: "A shader read or wrote a storage or uniform buffer past the range bound to its descriptor (its offset and range, " +
			"VK_WHOLE_SIZE and dynamic offsets resolved). gpuav-dbg skipped the access (a load yields zero). Bind a larger range or " +
			"keep the access inside it. Under robustBufferAccess the access is defined and reported as a warning.",
		Device:   robustWarnings,
		describe: describeBuffer,
		pass:     bufferOOBPass,
	},
	{
		ID:      CheckTexelBufferOOB,
		Codes:   []RecordCode{{CodeTexelBufferOOB, "TEXEL_BUFFER_OOB"}},
		Default: true,
		Title:   "Texel buffer access out of bounds",
		Help: "A shader read or wrote a uniform or storage texel buffer (fetch, load, store or atomic) at a texel past the end of the " +
			"buffer view bound to its descriptor. gpuav-dbg skipped the access (a load yields zero). Under robustBufferAccess the access " +
			"is defined and reported as a warning.",
		Device:   robustWarnings,
		describe: describeTexel,
		pass:     texelBufferPass,
	},
	{
		// The address check compares 64-bit addresses in the shader.
		ID:      CheckBDAOOB,
		Codes:   []RecordCode{{CodeBDAOOB, "BDA_OOB"}},
		Default: true,
		Title:   "Buffer device address out of bounds",
		Help: "A shader dereferenced a buffer device address outside every live buffer whose address the app obtained. " +
			"gpuav-dbg skipped the access (a load yields zero).",
		Device: DeviceRequirement{Features: []string{"bufferDeviceAddress", "shaderInt64"},
			Extension: "VK_KHR_buffer_device_address", GatedBy: []string{"bufferDeviceAddress"}},
		describe: describeBDA,
		pass:     bdaPass,
		noClamp:  "the address is outside every buffer",
	},
	{
		ID: CheckRayQuery,
		Codes: []RecordCode{
			{CodeRayQueryTminGreaterThanTmax, "RAY_QUERY_TMIN_GT_TMAX"},
			{CodeRayQueryNegativeTmin, "RAY_QUERY_NEGATIVE_TMIN"},
			{CodeRayQueryOriginNonFinite, "RAY_QUERY_ORIGIN"},
			{CodeRayQueryDirectionNonFinite, "RAY_QUERY_DIRECTION"},
			{CodeRayQueryTNaN, "RAY_QUERY_T_NAN"},
			{CodeRayQueryNegativeTmax, "RAY_QUERY_NEGATIVE_TMAX"},
			{CodeRayQuerySkipTrianglesAndAABBs, "RAY_QUERY_SKIP_BOTH"},
			{CodeRayQueryTriangleFlags, "RAY_QUERY_TRI_FLAGS"},
			{CodeRayQueryOpaqueFlags, "RAY_QUERY_OPAQUE_FLAGS"},
		},
		Default: true,
		Title:   "Invalid ray query parameters",
		Help: "A shader started a ray query with an invalid ray: a negative or NaN t_min or t_max, t_min greater than t_max, " +
			"a non-finite origin or direction, or ray flags that contradict each other.",
		Device:   DeviceRequirement{Features: []string{"rayQuery"}, Extension: "VK_KHR_ray_query", GatedBy: []string{"rayQuery"}},
		describe: describeRayQuery,
		pass:     rayQueryPass,
		noClamp:  "a ray's values are not an index",
	},
	{
		// On by default: a loop the analyses prove within the budget gets
		// nothing (pass_loop_budget.go, docs/decisions/loop-budget.md).
		ID:      CheckLoopBudget,
		Codes:   []RecordCode{{CodeLoopBudget, "LOOP_BUDGET"}},
		Default: true,
		Title:   "Runaway loop",
		Help: "An invocation ran a loop for more iterations in one entry than the loop budget (loop_budget_iterations, default 16777216): " +
			"the loop's bound came from data, or its exit is never reached, and the GPU would hang or be reset. gpuav-dbg reported it once per " +
			"invocation and loop and left the loop (with on_error=execute it kept looping). Loops whose trip count the analyses prove within the budget are not counted.",
		describe: describeLoopBudget,
		pass:     loopBudgetPass,
		noClamp:  "a loop's iterations are not an index",
	},
}, commandChecks...)

// AllChecks lists every check id in registry order.
var AllChecks = checkIDs(func(*Check) bool { return true })

// DefaultChecks lists the checks on when nothing says otherwise.
var DefaultChecks = checkIDs(func(c *Check) bool { return c.Default })

func checkIDs(keep func(*Check) bool) []string {
	var ids []string
	for i := range Checks {
		if keep(&Checks[i]) {
			ids = append(ids, Checks[i].ID)
		}
	}
	return ids
}

// CheckByID returns the registry entry of a check id, or nil.
func CheckByID(id string) *Check {
	for i := range Checks {
		if Checks[i].ID == id {
			return &Checks[i]
		}
	}
	return nil
}

// checkOfCode returns the check a record code belongs to, or nil.
func checkOfCode(code CheckCode) *Check {
	for i := range Checks {
		if slices.ContainsFunc(Checks[i].Codes, func(r RecordCode) bool { return r.Code == code }) {
			return &Checks[i]
		}
	}
	return nil
}

// CheckID returns the check id a code belongs to.
func (c CheckCode) CheckID() string {
	if ch := checkOfCode(c); ch != nil {
		return ch.ID
	}
	return fmt.Sprintf("unknown_check_%d", uint32(c))
}

// EnvCheckPrefix + the check id in upper case is the environment variable
// that switches a check in the layer, e.g.
// VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_INDEX_OOB=0.
const EnvCheckPrefix = "VK_LAYER_GPUAV_DBG_CHECK_"

// CheckEnv returns the environment variable that switches check id.
func CheckEnv(id string) string { return EnvCheckPrefix + strings.ToUpper(id) }

// CheckSettingKey returns the layer setting that switches check id in the
// manifest, a settings file or VkLayerSettingsCreateInfoEXT: check_<id>.
func CheckSettingKey(id string) string { return "check_" + id }
