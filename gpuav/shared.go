package gpuav

// MaxSlot is the highest descriptor-set slot the layer ever uses: its set
// goes at min(maxBoundDescriptorSets, MaxSlot+1) - 1
// (docs/decisions/reserve-slot.md).
const MaxSlot = 32

// Constants the C half shares with package gpuav, by the names the
// generated C headers give them (GPUAVDBG_ prefix; the GLSL's -D, GPUAV_
// prefix, where a shader needs them): go generate ./layer writes them
// (layer/internal/genshared), and its test fails when a header is stale.
var (
	// RecordConstants: the output buffer and the action buffer
	// (record.go), and the highest slot of the layer's set.
	RecordConstants = []Constant{
		{"HEADER_WORDS", OutputHeaderWords}, {"RECORD_WORDS", RecordWords},
		{"OUTPUT_BINDING", OutputBinding}, {"ACTION_BINDING", ActionBinding},
		{"MAX_SLOT", MaxSlot},
	}
	// FactConstants: the facts a fast variant takes for granted, as
	// goModuleFacts hands them to C (action_bound.go, facts.h).
	FactConstants = []Constant{
		{"FACT_BUFFER_ACTION", uint32(FactBufferAction)}, {"FACT_INDEX_ACTION", uint32(FactIndexAction)},
		{"FACT_TERMS", MaxFactTerms}, {"PARAM_WG_X", ParamWorkgroupX}, {"PARAM_PC", ParamPushConstant},
		{"PC_WORDS", PushConstantWords}, {"ACTION_LIMIT", ActionLimit},
	}
)
