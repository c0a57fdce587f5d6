// Package session is the model of one run of an app under the layer: its
// settings, device, shaders, pipelines and the error groups the user browses;
// the collector that builds it from the wire; the session file written as
// messages arrive; and the headless JSON report.
package session

import (
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// AppState says where the app is in its life.
type AppState string

// App states.
const (
	AppStarting AppState = "starting"
	AppRunning  AppState = "running"
	AppExited   AppState = "exited"
	AppCrashed  AppState = "crashed" // killed by a signal
	AppFailed   AppState = "failed"  // could not be started
	// AppStopped: the user stopped the app (Ctrl-C, quitting the UI, a
	// re-run), and it ended by that signal or with a failure status.
	AppStopped AppState = "stopped"
	// AppUnknown: a session file ends before the app's end was recorded
	// (the launcher was killed, or the file is cut short).
	AppUnknown AppState = "unknown"
)

// App is the program under test.
type App struct {
	Path     string   `json:"path"`
	Args     []string `json:"args"`
	PID      int      `json:"pid,omitempty"`
	State    AppState `json:"state"`
	ExitCode int      `json:"exit_code"`
	Signal   string   `json:"signal,omitempty"`
	// LayerLoaded is true once the layer said hello.
	LayerLoaded bool `json:"layer_loaded"`
	// OutputFiles are the files the app wrote its output to (standard
	// output, then error): the session holds what the launcher read of
	// them, and they keep what the app printed if the launcher died.
	OutputFiles []string `json:"output_files,omitempty"`
}

// Device is the device the app created (the last one, when several).
type Device struct {
	Name           string `json:"name"`
	APIVersion     string `json:"api_version"`
	DescriptorSlot uint32 `json:"descriptor_slot"`
	MaxBoundSets   uint32 `json:"max_bound_descriptor_sets"`
}

// Settings are the validation settings of a run (the wire's type: what
// the launcher asks for is what the layer's hello says it runs with).
type Settings = wire.Settings

// Handle is a Vulkan handle with its debug-utils name, if any. Serial,
// for a pipeline or a command buffer, is the layer's number for the object
// (never reused; a driver may give a later object the handle of a
// destroyed one): the name is that object's
// (docs/decisions/attribution-by-identity.md). 0 for other objects and in
// sessions from layers before it.
type Handle struct {
	Handle string `json:"handle"` // "0x..." hex
	Name   string `json:"name"`
	Serial uint64 `json:"serial,omitempty"`
}

// Source is where an error's instruction comes from in the shader source.
type Source struct {
	File string `json:"file"`
	// Path is the file on disk the source came from (absolute): File found
	// in the app's working directory or the source search path, with the
	// same text at Line when the module carries its text; "" when not
	// found. SARIF locates results by it.
	Path   string `json:"path,omitempty"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Text   string `json:"text"`
	// Language names the source language for highlighting (glsl, hlsl...).
	Language string `json:"language,omitempty"`
	// Note explains a degraded answer (no debug info, text not found).
	Note string `json:"note,omitempty"`
	// Function is the source function holding the instruction (the
	// inlined callee for inlined code).
	Function string `json:"function,omitempty"`
	// InlinedAt is the call-site chain of inlined code, innermost first.
	InlinedAt []SourceFrame `json:"inlined_at,omitempty"`
	// Context is the source from line ContextLine on: a few lines either
	// side of Line.
	Context     []string `json:"context,omitempty"`
	ContextLine int      `json:"context_line,omitempty"`
}

// SourceFrame is one call site of an inlined function.
type SourceFrame struct {
	Function string `json:"function"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Text     string `json:"text"`
}

// Descriptor is the descriptor an error is about.
type Descriptor struct {
	Set         uint32 `json:"set"`
	Binding     uint32 `json:"binding"`
	Index       uint32 `json:"index"`
	ArrayLength uint32 `json:"array_length"`
}

// ErrorGroup is the records of one check at one instruction of one shader
// in one action of one command buffer, de-duplicated with a count.
type ErrorGroup struct {
	Check string `json:"check"`
	// Level is "error", or "warning" for defined behaviour the app
	// probably did not mean (buffer_oob under robustBufferAccess).
	// Sessions from before it was carried read "" (an error).
	Level string `json:"level"`
	VUID  string `json:"vuid,omitempty"`
	// MessageText is the message as a JSON report carries it, kept when
	// a report is read back. A session the collector builds leaves it
	// empty: Message builds the message from the group when asked.
	MessageText string `json:"message"`
	// Count is how many accesses failed: every failing iteration of a
	// loop counts (a folded record counts its failures).
	Count int `json:"count"`
	// Loop is, where the group's first record is folded (its site is
	// inside a loop and reports once after it) and its invocation failed
	// more than once in that run of the loop, how many times: the values
	// shown are the last failure's. 0 otherwise
	// (docs/decisions/loop-failures-folded.md).
	Loop    int      `json:"loop,omitempty"`
	Stage   string   `json:"stage"`
	Coords  Coords   `json:"coords"`
	Samples []Coords `json:"samples,omitempty"`
	// LastCoords are the coordinates of the group's latest record.
	LastCoords Coords      `json:"last_coords,omitzero"`
	Descriptor *Descriptor `json:"descriptor,omitempty"`
	// Ray holds the ray operands of a ray_query or trace_ray error.
	Ray *Ray `json:"ray,omitempty"`
	// SBT holds the shader binding table operands of a trace_ray error
	// on OpTraceRayKHR.
	SBT *SBT `json:"sbt,omitempty"`
	// Intersection holds the operands of a trace_ray error on
	// OpReportIntersectionKHR (its hit kind).
	Intersection *Intersection `json:"intersection,omitempty"`
	// BDA holds the access of a bda_oob error.
	BDA *BDA `json:"bda,omitempty"`
	// Buffer holds the access of a buffer_oob error.
	Buffer *Buffer `json:"buffer,omitempty"`
	// Texel holds the access of a texel_buffer_oob error.
	Texel *Texel `json:"texel,omitempty"`
	// Sanitizer holds the operation of a shader sanitizer error.
	Sanitizer *Sanitizer `json:"sanitizer,omitempty"`
	// Mesh holds the counts of a mesh_outputs error.
	Mesh *Mesh `json:"mesh,omitempty"`
	// Race holds the two accesses of a shared_memory_race hazard.
	Race *Race `json:"race,omitempty"`
	// Barrier holds the arrivals of a barrier_divergence report.
	Barrier *Barrier `json:"barrier,omitempty"`
	// IndexBuffer, Vertex and Indirect hold the values of the command
	// checks (index_buffer_oob, vertex_fetch_oob, indirect_command), whose
	// groups have no shader (Shader.ID 0) and no source.
	IndexBuffer *IndexBuffer `json:"index_buffer,omitempty"`
	Vertex      *VertexFetch `json:"vertex,omitempty"`
	Indirect    *Indirect    `json:"indirect,omitempty"`
	// Accel and DepthCopy hold the values of acceleration_structure_build
	// and depth_copy_range (buildvalues.go).
	Accel     *AccelBuild `json:"acceleration_structure_build,omitempty"`
	DepthCopy *DepthCopy  `json:"depth_copy,omitempty"`
	// LoopBudget holds the iterations and the budget of a loop_budget
	// error.
	LoopBudget *LoopBudget `json:"loop_budget,omitempty"`
	// Outcome is what the failed access did (a shader's check; nil for
	// the layer's own checks and in reports from before it was recorded).
	Outcome *Outcome `json:"outcome,omitempty"`
	// Where is the command buffer, submit, action, pipeline, shader
	// and source line of the group (its first record).
	Where

	// code and params are the first record's check code and parameters,
	// to describe the error again (Message, Summary); described says they
	// are set (a group read from a report has only MessageText).
	code      gpuav.CheckCode
	params    [gpuav.RecordParams]uint32
	described bool
}

// ShaderRef identifies a shader module in an error.
type ShaderRef struct {
	ID     uint32 `json:"id"`
	Module string `json:"module"`
	// Object is the VkShaderEXT of a shader object (VK_EXT_shader_object),
	// which has no module (Module "") and runs without a pipeline.
	Object string `json:"shader_object,omitempty"`
	Name   string `json:"name"`
	// PID is the process that made the shader (a child process that uses
	// Vulkan has shaders of its own); 0 when unknown.
	PID int `json:"pid,omitempty"`
}

// Shader is a shader module the app created, with its original SPIR-V.
type Shader struct {
	ID           uint32
	Module       uint64
	Object       uint64 // the VkShaderEXT of a shader object; Module is 0
	SPIRV        []uint32
	Instrumented bool
	Warning      string
	// Sites counts the accesses each check guards in the shader (the
	// layer's wire.Shader.Sites; nil from layers that did not send them).
	Sites map[string]int
	PID   int // the process that made it (0: unknown)
}

// Notice is a message from the layer or the launcher that is not an error
// record: a slot conflict, an uninstrumented shader, dropped records, a layer
// that never loaded.
type Notice struct {
	Level string    `json:"level"` // info, warning, error
	Text  string    `json:"text"`
	Time  time.Time `json:"time"`
}

// OutputLine is a line the app printed.
type OutputLine struct {
	Stream string `json:"stream"` // stdout or stderr
	Text   string `json:"text"`
}

// Session is one run: everything the launcher learned, in arrival order
// where order matters. It is built by a Collector from wire messages; the
// TUI reads it (under the Collector's lock, or from a snapshot).
type Session struct {
	Version  int      `json:"version"`
	App      App      `json:"app"`
	Device   Device   `json:"device"`
	Settings Settings `json:"settings"`
	// Groups are the error groups in the order their first record arrived.
	Groups  []*ErrorGroup `json:"errors"`
	Notices []Notice      `json:"notices,omitempty"`
	// Dropped counts the failed accesses whose records the layer's buffers had
	// no room for (a folded record that did not fit counts its failures).
	Dropped uint64 `json:"dropped_records,omitempty"`
	// LostRecords counts the error records the layer could not deliver
	// (its Lost messages); LostGroups break them down per check, shader
	// and instruction where the layer knew them (stream.go).
	LostRecords uint64      `json:"lost_records,omitempty"`
	LostGroups  []LostGroup `json:"lost_groups,omitempty"`
	// LostMessages counts the other messages the layer could not deliver.
	LostMessages uint64 `json:"lost_messages,omitempty"`
	// StreamsCut counts the layer's connections that ended without their
	// bye: records on their way then are missing, uncounted.
	StreamsCut int `json:"streams_cut,omitempty"`
	// Hangs are the hang groups: a submission the layer's watchdog saw not
	// finish in time, or a lost device (hang.go).
	Hangs []Hang `json:"hangs,omitempty"`
	// Busy are the submissions pending long enough for the TUI to count
	// the watchdog down (wire.Busy), while the app runs; not in the
	// report: a hang or the submission's finish ends each.
	Busy []BusySubmit `json:"-"`
	// Pauses are the stops at the first error (the stop_on_error
	// setting, pause.go): one per process whose layer paused the app.
	// StoppedAtFirstError: the launcher ended the app at such a stop (a
	// headless run), so the app did not run to its end.
	Pauses              []Pause `json:"pauses,omitempty"`
	StoppedAtFirstError bool    `json:"stopped_at_first_error,omitempty"`
	// Unchecked lists what the layer left unchecked, one entry per cause:
	// a device without instrumentation, shaders and pipelines that run
	// unchecked. UncheckedAll adds what the rest of the session says.
	Unchecked []Unchecked `json:"unchecked,omitempty"`
	Submits   uint64      `json:"submits"`
	// Counts are what the submits held, from the layer's bye (the
	// largest of its connections': each counts the whole process); nil
	// when no bye counted them (an older layer, or an app that ended
	// without one). Coverage reports them.
	Counts *wire.SubmitCounts `json:"-"`
	// Capabilities is the launcher's device probe: which checks the app's
	// device can run (nil when the session has no probe).
	Capabilities *Capabilities `json:"capabilities,omitempty"`
	// Pipelines are the pipelines the app created, by handle ("0x77"); a
	// pipeline given the handle of an earlier one is "0x77#<serial>".
	Pipelines map[string]*Pipeline `json:"pipelines,omitempty"`
	// Timeline is the errors in submit order: submit → command buffer →
	// action → groups with that submit's record counts.
	Timeline []SubmitNode `json:"timeline,omitempty"`
	// Printf are the debugPrintfEXT groups in the order their first line
	// arrived (printf.go); PrintfLost counts the lines the layer's printf
	// buffers had no room for, PrintfNotKept those the session counted
	// but did not keep one by one.
	Printf        []*PrintfGroup `json:"printf,omitempty"`
	PrintfLost    uint64         `json:"printf_lines_lost,omitempty"`
	PrintfNotKept uint64         `json:"printf_lines_not_kept,omitempty"`
	// CoverageReport is the coverage a JSON report carries: the report
	// writer fills it from Coverage(), and a report read back gives it
	// to Coverage(). A session the collector builds leaves it nil.
	CoverageReport *Coverage `json:"coverage,omitempty"`
	// createdPipelines are the Pipeline messages in arrival order, for
	// the coverage (Pipelines is by handle, which a driver may reuse).
	createdPipelines []createdPipeline

	Shaders map[uint32]*Shader `json:"-"`
	// Sources holds the lines of each shader source file the errors point
	// into, for the TUI's source pane (line N is Sources[k][N-1]).
	Sources map[SourceKey][]string `json:"-"`
	Output  []OutputLine           `json:"-"`
}

// SourceKey names one source file of one shader.
type SourceKey struct {
	ShaderID uint32
	File     string
}

// Pipeline is a pipeline the app created.
type Pipeline struct {
	Handle    Handle          `json:"handle"`
	Layout    string          `json:"layout"`
	BindPoint string          `json:"bind_point"` // graphics, compute, ray_tracing
	Stages    []PipelineStage `json:"stages"`
	// Instrumented is false when the pipeline runs its original, unchecked
	// shaders (a descriptor-set slot conflict); Warning says why.
	Instrumented bool   `json:"instrumented"`
	Warning      string `json:"warning,omitempty"`
}

// PipelineStage is one shader of a pipeline.
type PipelineStage struct {
	Stage    string `json:"stage"`
	ShaderID uint32 `json:"shader_id"`
	Module   string `json:"module"`
	Entry    string `json:"entry"`
}

// SubmitNode is the errors of one submit (numbered from 1).
type SubmitNode struct {
	Submit         uint64              `json:"submit"`
	CommandBuffers []CommandBufferNode `json:"command_buffers"`
}

// CommandBufferNode is the errors of one command buffer in one submit.
type CommandBufferNode struct {
	CommandBuffer Handle `json:"command_buffer"`
	// Queue is the queue of the submit; PrimaryCommandBuffer and
	// PrimaryActionIndex, for a secondary, the primary that executed it in
	// this submit and that primary's action count before it (see
	// ErrorGroup).
	Queue                Handle  `json:"queue,omitzero"`
	PrimaryCommandBuffer Handle  `json:"primary_command_buffer,omitzero"`
	PrimaryActionIndex   *uint32 `json:"primary_action_index,omitempty"`
	// Dropped counts the records its buffer had no room for.
	Dropped uint32       `json:"dropped,omitempty"`
	Actions []ActionNode `json:"actions"`
}

// ActionNode is the errors of one action (draw, dispatch, trace) of a
// command buffer in one submit, in the order the layer reported them.
type ActionNode struct {
	Index    uint32       `json:"index"`
	Action   string       `json:"action"`
	Labels   []string     `json:"labels,omitempty"`
	Pipeline Handle       `json:"pipeline"`
	Groups   []GroupCount `json:"groups"`
}

// GroupCount is one error group's records in one action of one submit.
type GroupCount struct {
	// Group indexes Session.Groups.
	Group int `json:"group"`
	Count int `json:"count"`
}
