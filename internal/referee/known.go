package referee

import "strings"

// Known is a message of the Khronos layer that an app causes itself, not
// our layer: the test apps that break a rule on purpose, real apps' own
// mistakes, and what the referee's version (1.3.239) gets wrong about apps
// newer than it.
type Known struct {
	App    string // the executable's base name ("*": any app)
	Args   string // a substring of the app's arguments joined by spaces ("": any)
	ID     string // the message's VUID or UNASSIGNED id
	Text   string // a substring of the message's text ("": any)
	Reason string // why the app, not the layer, causes it
}

// tooNew is why the Khronos layer 1.3.239 reports structures newer than
// itself in a pNext chain.
const tooNew = "the Khronos layer 1.3.239 predates the structure (sType %s) and reports every structure it " +
	"does not know; the app chains it on purpose (a newer feature it tests), and the same comes without our layer"

// coopTooNew is why the Khronos layer 1.3.239 refuses a module with
// cooperative matrices (capability 6022, SPV_KHR_cooperative_matrix): its
// SPIR-V tools predate them; the app's own module, as the app made it,
// gets the same messages without our layer.
const coopTooNew = "the Khronos layer 1.3.239 predates SPV_KHR_cooperative_matrix (CooperativeMatrixKHR, capability " +
	"6022) and calls every module using it invalid; the app's own module gets the same without our layer"

// KnownMessages are the messages the test suites' apps cause themselves.
var KnownMessages = []Known{
	{App: "stageapp", Args: "--action indirect2", ID: "VUID-vkCmdTraceRaysIndirect2KHR-rayTracingPipelineTraceRaysIndirect2-03637",
		Reason: "the Khronos layer 1.3.239 checks rayTracingPipelineTraceRaysIndirect for vkCmdTraceRaysIndirect2KHR; " +
			"the app enables rayTracingPipelineTraceRaysIndirect2 (VK_KHR_ray_tracing_maintenance1), which the VUID " +
			"asks for, and the same message comes without our layer"},
	{App: "cmdapp", Args: "--case draw_indexed_oob", ID: "VUID-vkCmdDrawIndexed-robustBufferAccess2-07825",
		Reason: "the case draws 6 indices from a 3-index buffer on purpose; our layer drops the draw, but with " +
			"index_buffer_oob off (e2e TestCommandChecksSettings) it lets the draw through as the app recorded it"},
	{App: "hangapp", Args: "--mode lost", ID: "VUID-vkDestroyFence-fence-01120",
		Reason: "e2e TestDeviceLost's test layer sits between ours and the referee and answers the lost device's " +
			"fence waits itself (VK_ERROR_DEVICE_LOST), so the referee never sees a fence waited for and calls " +
			"it in use when the app, or the layer at vkDestroyDevice, destroys it"},
	// coopapp's cooperative matrices (e2e TestCooperativeMatrix*, run where
	// the device has them: the NVIDIA GPU) are newer than the referee.
	{App: "coopapp", ID: "VUID-VkDeviceCreateInfo-pNext-pNext", Text: "unknown VkStructureType (1000506000)",
		Reason: strings.Replace(tooNew, "%s", "1000506000, VkPhysicalDeviceCooperativeMatrixFeaturesKHR", 1)},
	{App: "coopapp", ID: "UNASSIGNED-CoreValidation-Shader-InconsistentSpirv", Text: "Invalid capability operand: 6022",
		Reason: coopTooNew},
	{App: "coopapp", ID: "VUID-VkShaderModuleCreateInfo-pCode-01090", Reason: coopTooNew},
	{App: "coopapp", ID: "VUID-VkShaderModuleCreateInfo-pCode-04146", Text: "SPV_KHR_cooperative_matrix",
		Reason: coopTooNew},
	{App: "*", ID: "VUID-VkDeviceCreateInfo-pNext-pNext", Text: "unknown VkStructureType (1000470000)",
		Reason: strings.Replace(tooNew, "%s", "1000470000, VkPhysicalDeviceMaintenance5FeaturesKHR", 1)},
	{App: "*", ID: "VUID-VkDeviceCreateInfo-pNext-pNext", Text: "unknown VkStructureType (1000482000)",
		Reason: strings.Replace(tooNew, "%s", "1000482000, VkPhysicalDeviceShaderObjectFeaturesEXT", 1)},
	{App: "*", ID: "VUID-VkDeviceCreateInfo-pNext-pNext", Text: "unknown VkStructureType (1000545000)",
		Reason: strings.Replace(tooNew, "%s", "1000545000, VkPhysicalDeviceMaintenance6FeaturesKHR", 1)},
	{App: "*", ID: "VUID-VkInstanceCreateInfo-pNext-pNext", Text: "unknown VkStructureType (1000496000)",
		Reason: strings.Replace(tooNew, "%s", "1000496000, VkLayerSettingsCreateInfoEXT", 1)},
}

// KnownFor returns the Known entry that explains m in a run of app with
// args, or nil.
func KnownFor(app string, args []string, m Message) *Known {
	for i := range KnownMessages {
		k := &KnownMessages[i]
		if runOf(k.App, k.Args, app, args) && k.ID == m.ID && strings.Contains(m.Text, k.Text) {
			return k
		}
	}
	return nil
}

// runOf reports whether a run of app with args is one an entry of app
// ("*": any) and args (a substring of them joined by spaces) names.
func runOf(entryApp, entryArgs, app string, args []string) bool {
	return (entryApp == app || entryApp == "*") && strings.Contains(strings.Join(args, " "), entryArgs)
}

// Skip is a run the referee stays out of: the Khronos layer cannot run the
// app as it is, or changes what the test measures.
type Skip struct {
	App    string // the executable's base name
	Args   string // a substring of the app's arguments joined by spaces
	Reason string
}

// Skips are the runs of the test suites the referee stays out of.
var Skips = []Skip{
	{App: "multi", Args: "--mode push",
		Reason: "the Khronos layer 1.3.239 crashes (SIGSEGV) on the app's Vulkan 1.4 push-descriptor commands, " +
			"with or without our layer"},
	{App: "multi", Args: "--mode shaderobj",
		Reason: "the Khronos layer 1.3.239 predates VK_EXT_shader_object and crashes (SIGSEGV) on the app's " +
			"shader-object commands, with or without our layer"},
	{App: "refuseapp", Args: "--case shaderobj",
		Reason: "the Khronos layer 1.3.239 predates VK_EXT_shader_object and crashes (SIGSEGV) on the app's " +
			"shader-object commands, with or without our layer"},
	{App: "multi", Args: "--mode threads",
		Reason: "the Khronos layer 1.3.239 crashes (SIGSEGV or SIGABRT in vkDestroyCommandPool) in about 1 of 100 " +
			"runs of the app's 8 threads without our layer too (5 of 600 runs, thread-safety checks off or on)"},
	{App: "multi", Args: "--mode loop",
		Reason: "the test counts the process's open files across instances, and the Khronos layer 1.3.239 keeps " +
			"its log file of each instance open"},
	{App: "cmdapp", Args: "--case draw_indexed_oob_sized",
		Reason: "the Khronos layer 1.3.239 predates VK_KHR_maintenance5: vkGetDeviceProcAddr gives no " +
			"vkCmdBindIndexBuffer2KHR through it, which the case binds its index buffer with"},
	{App: "vkapp", Args: "--reserve-features",
		Reason: "the app asks the validation layers for GPU-AV and a reserved set (VkValidationFeaturesEXT), which " +
			"the Khronos layer honours too: it would run GPU-AV and reserve a second set"},
}

// SkipFor returns the Skip entry for a run of app with args, or nil.
func SkipFor(app string, args []string) *Skip {
	for i := range Skips {
		if s := &Skips[i]; runOf(s.App, s.Args, app, args) {
			return s
		}
	}
	return nil
}
