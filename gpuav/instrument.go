package gpuav

// Options tell Instrument what to add.
type Options struct {
	// ShaderID is written into every record the module produces. The
	// layer gives the module's code id (Options.Key's ID), not its
	// creation order, so that the words depend only on the module and the
	// options (docs/decisions/deterministic-instrumentation.md).
	ShaderID uint32
	// DescriptorSet is the set index the layer binds its descriptor set at.
	DescriptorSet uint32
	// Checks maps check ids to on/off; a nil map means every check is on.
	Checks map[string]bool
	// Int64 says the device runs shaders with the Int64 capability
	// (shaderInt64 enabled): the bda_oob check may then add it to a module
	// of SPIR-V < 1.5 to read a pointer's address.
	Int64 bool
	// Robust says the device enabled robustBufferAccess (or
	// robustBufferAccess2): out-of-range buffer accesses are defined, and
	// buffer_oob records carry BufferRobust so they read as warnings.
	Robust bool
	// SizedElementChecks adds descriptor_uninitialized and
	// descriptor_destroyed to sized arrays and plain bindings too (runtime
	// arrays always get them when those checks are on): every access then
	// reads the descriptor state, which multiplies compile time for
	// check-dense shaders, so it is opt-in (layer setting
	// VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS).
	SizedElementChecks bool
	// OnError is what a failed access does ("": OnErrorSkip); a pass
	// without a clamp for a site skips it (Site.OnError says what each
	// site does).
	OnError OnError
	// RobustOnly is the robust-only mode: failed accesses clamp and no
	// record is written.
	RobustOnly bool
	// Printf instruments debugPrintfEXT calls (pass_printf.go); false
	// removes them, with a warning. The driver never sees them.
	Printf bool
	// PrintfAt is the printf coordinate filter: a call writes a line only
	// in the invocations it keeps (the zero filter: every invocation).
	PrintfAt PrintfAt
	// PreciseLater defers the precise variant of a module that has a
	// fast one (Result.Precise): Result.Words and ReadsLayerSet are then
	// unset, and Result.Precise.PreciseWords builds them on first need
	// (the layer creates the fast variant's pipelines without them).
	PreciseLater bool
	// MaxSharedMemory is the device's maxComputeSharedMemorySize (0:
	// DefaultMaxSharedMemory, which every device has): shared_memory_race
	// leaves a shader unchecked whose shared memory and shadow exceed it.
	MaxSharedMemory uint32
	// LoopBudget is loop_budget's budget: the iterations an invocation
	// may run in one entry of a loop whose trip count is not proven
	// (0: DefaultLoopBudget).
	LoopBudget uint32
}

// Result is an instrumented module and what happened to it.
type Result struct {
	// Words is the module to give the driver: the instrumented module, or
	// the original words when nothing was added; nil with
	// Options.PreciseLater when Precise is set (Precise.PreciseWords).
	Words []uint32
	// Instrumented says whether any check or printf call was added: the
	// module then uses the layer's descriptor set.
	Instrumented bool
	// ReadsLayerSet says whether Words use the layer's descriptor set
	// (ReadsSet): false for the original words, and for instrumented ones
	// whose entry points call nothing of the layer's.
	ReadsLayerSet bool
	// ChecksAdded counts the guarded instructions (len(Sites)).
	ChecksAdded int
	// Sites lists the guarded instructions in the order they were guarded:
	// the site table that Decode needs to read the module's records.
	Sites []Site
	// Printf lists the debugPrintfEXT calls that write lines, by
	// PrintfSite.ID.
	Printf []PrintfSite
	// Stage is the execution model of the module's entry points.
	Stage uint32
	// Precise is the module's precise switch and the facts its fast
	// variant takes for granted (precise.go); nil when it has none.
	Precise *PreciseSwitch
	// Warnings name constructs that were left uninstrumented and why.
	Warnings []string
	// Notes say what was changed on purpose and is no check skipped (the
	// printf calls removed with printf off).
	Notes []string
}

// Site is one instruction a pass guarded.
type Site struct {
	// ID is the site's position in Result.Sites.
	ID int
	// Pass names the pass that guarded it ("descriptor_index", "buffer_oob"...).
	Pass string
	// Instruction is the instruction's index in the original module, as
	// records carry it.
	Instruction int
	// Checks are the check ids the guard reports; none when it reuses an
	// earlier guard's result (the same descriptor and index in one block)
	// and reports nothing itself.
	Checks []string
	// Record is the static part of the site's records.
	Record SiteRecord
	// OnError is what the site's guard makes a failed access do: the
	// behaviour asked for, or skip where the pass has no clamp for it.
	OnError OnError
	// RaceTag is the access's number in shared_memory_race's shadow tags
	// (1..510; 0 for other sites and accesses past the 510th): a hazard
	// record names the other access by it, and Decode turns it into that
	// access's instruction.
	RaceTag uint16
	// Loop says the site is inside a loop and reports once after it: one
	// record per invocation and run of the loop, with the last failure's
	// values and the count of failures (docs/decisions/loop-failures-folded.md).
	Loop bool
}

// Instrument adds the enabled checks to a module. On any error the caller
// must pass the original module through untouched and report the error as
// a warning; Instrument never panics on malformed input.
func Instrument(words []uint32, opt Options) (res Result, err error) {
	return instrument(words, opt)
}
