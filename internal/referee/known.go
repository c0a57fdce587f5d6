package referee

import "strings"

// Known is a message of the Khronos layer that an app causes itself, not
// our layer: the test apps that break a rule on purpose, and real apps'
// own mistakes.
type Known struct {
	App    string // the executable's base name
	Args   string // a substring of the app's arguments joined by spaces ("": any)
	ID     string // the message's VUID or UNASSIGNED id
	Reason string // why the app, not the layer, causes it
}

// KnownMessages are the messages the test suites' apps cause themselves.
var KnownMessages = []Known{
	{App: "stageapp", Args: "--action indirect2", ID: "VUID-vkCmdTraceRaysIndirect2KHR-rayTracingPipelineTraceRaysIndirect2-03637",
		Reason: "the Khronos layer 1.3.239 checks rayTracingPipelineTraceRaysIndirect for vkCmdTraceRaysIndirect2KHR; " +
			"the app enables rayTracingPipelineTraceRaysIndirect2 (VK_KHR_ray_tracing_maintenance1), which the VUID " +
			"asks for, and the same message comes without our layer"},
}

// KnownFor returns the Known entry that explains m in a run of app with
// args, or nil.
func KnownFor(app string, args []string, m Message) *Known {
	joined := strings.Join(args, " ")
	for i := range KnownMessages {
		k := &KnownMessages[i]
		if k.App == app && k.ID == m.ID && strings.Contains(joined, k.Args) {
			return k
		}
	}
	return nil
}
