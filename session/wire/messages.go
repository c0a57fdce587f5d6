// Package wire is the protocol between the layer (inside the app) and the
// launcher: versioned, length-prefixed frames over a unix socket, one message
// per frame. Unknown or corrupt frames are rejected with an error, never a
// crash.
package wire

// ProtocolVersion is sent in Hello; a reader refuses other versions.
// Version 2: the layer sends its records packed (KindErrorsPacked) and
// says what it could not deliver (KindLost).
const ProtocolVersion = 2

// MinProtocolVersion is the oldest protocol a reader reads: protocol 1
// sent its records as JSON, which still decode (session files keep it).
const MinProtocolVersion = 1

// Kind says which message a frame carries.
type Kind uint8

// Message kinds: the layer's (1-63). The launcher's are in launcher.go, the
// packed errors of session files in packed.go; every kind has one row in
// messageTypes.
const (
	KindHello    Kind = 1
	KindDevice   Kind = 2
	KindShader   Kind = 3
	KindPipeline Kind = 4
	KindName     Kind = 5
	KindErrors   Kind = 6
	KindLog      Kind = 7
	KindBye      Kind = 8
	KindLabel    Kind = 9
	KindLost     Kind = 10
)

// messageTypes is the one list of message kinds: each kind's name and
// message type (and, for a payload that is not JSON, its codec). Adding a
// message is a constant, a struct and a row here; docs/architecture-cli.md
// walks through it.
var messageTypes = []kindInfo{
	message[Hello](KindHello, "hello"),
	message[Device](KindDevice, "device"),
	message[Shader](KindShader, "shader"),
	message[Pipeline](KindPipeline, "pipeline"),
	message[Name](KindName, "name"),
	message[Errors](KindErrors, "errors"),
	message[Log](KindLog, "log"),
	message[Bye](KindBye, "bye"),
	message[Label](KindLabel, "label"),
	message[Printf](KindPrintf, "printf"),
	message[Hang](KindHang, "hang"),
	message[HangFinished](KindHangFinished, "hang_finished"),
	message[Busy](KindBusy, "busy"),
	message[Lost](KindLost, "lost"),
	message[Paused](KindPaused, "paused"),

	message[AppStarted](KindAppStarted, "app_started"),
	message[AppOutput](KindAppOutput, "app_output"),
	message[AppExited](KindAppExited, "app_exited"),
	message[Notice](KindNotice, "notice"),
	message[Time](KindTime, "time"),
	message[Capabilities](KindCapabilities, "capabilities"),
	message[SourceFile](KindSourceFile, "source_file"),
	message[StreamCut](KindStreamCut, "stream_cut"),
	message[AppOutputBlock](KindAppOutputBlock, "app_output_block").with(outputBlockCodec),
	message[Continue](KindContinue, "continue"),

	message[Errors](KindErrorsPacked, "errors_packed").with(packedCodec),
}

// Settings are the validation settings of a run: what the launcher asks
// for, what the layer runs with (its hello) and what a session shows.
type Settings struct {
	// Checks maps each check id (gpuav.Check*) to on/off.
	Checks      map[string]bool `json:"checks"`
	ReserveSlot bool            `json:"reserve_slot"`
	// OnError is what a failed access does: "skip", "clamp" or "execute"
	// (gpuav.OnError). Sessions recorded before it carry "" (skip, the
	// only behaviour then) and a "safe_mode" field, which is ignored.
	OnError string `json:"on_error"`
	// Robust is the robust-only mode: every enabled check clamps and
	// nothing is reported.
	Robust bool `json:"robust,omitempty"`
	// PrintfOff: debugPrintfEXT calls are removed, not instrumented
	// (printf is on by default, for every module that uses it).
	PrintfOff bool `json:"printf_off,omitempty"`
	// PrintfBufferBytes is the size of each command buffer's printf
	// buffer; 0 in a hello from a layer that has none.
	PrintfBufferBytes uint32 `json:"printf_buffer_bytes,omitempty"`
	// PrintfAt is the printf coordinate filter the layer applies before
	// lines are written (gpuav.PrintfAt's text; "" keeps every line).
	PrintfAt string `json:"printf_at,omitempty"`
	// LoopBudget is loop_budget's budget, the iterations an invocation
	// may run in one entry of an unproven loop (gpuav.DefaultLoopBudget
	// when the launcher asks for none); 0 in a hello from a layer that has
	// none.
	LoopBudget uint32 `json:"loop_budget_iterations,omitempty"`
	// WatchdogSeconds is how long a submission may stay unfinished before
	// the layer reports a hang; WatchdogOff: no watchdog and no
	// breadcrumbs (both absent in a hello from a layer that has none).
	WatchdogSeconds uint32 `json:"watchdog_seconds,omitempty"`
	WatchdogOff     bool   `json:"watchdog_off,omitempty"`
	// Breadcrumbs is the breadcrumbs' granularity asked for
	// (BreadcrumbsAuto, BreadcrumbsActions, BreadcrumbsPasses; absent in
	// a hello from a layer that has no such setting); each hang says
	// what its device's breadcrumbs marked (Hang.Granularity).
	Breadcrumbs string `json:"breadcrumbs,omitempty"`
	// Options are the values of the options table's rows that have no
	// field of their own (package options), by key, as text: a row added
	// to the table travels from the flags to the layer and back in the
	// hello with no further field.
	Options map[string]string `json:"options,omitempty"`
}

// Hello is the first message: who is talking.
type Hello struct {
	Protocol     int      `json:"protocol"`
	RecordFormat int      `json:"record_format"`
	LayerVersion string   `json:"layer_version"`
	App          string   `json:"app"`
	Args         []string `json:"args,omitempty"`
	PID          int      `json:"pid"`
	Settings     Settings `json:"settings"`
}

// Device describes a VkDevice the app created.
type Device struct {
	Handle                 uint64 `json:"handle"`
	Name                   string `json:"name"`
	APIVersion             string `json:"api_version"`
	DriverVersion          uint32 `json:"driver_version"`
	VendorID               uint32 `json:"vendor_id"`
	DeviceID               uint32 `json:"device_id"`
	MaxBoundDescriptorSets uint32 `json:"max_bound_descriptor_sets"`
	// DescriptorSlot is the set index the layer binds its descriptor set at.
	DescriptorSlot uint32 `json:"descriptor_slot"`
	// Instrumenting is false when the layer could not set up (allocation
	// failure, missing features); Reason says why.
	Instrumenting bool   `json:"instrumenting"`
	Reason        string `json:"reason,omitempty"`
}

// Shader is sent once per shader module: its id, handle and original SPIR-V.
type Shader struct {
	ID     uint32 `json:"id"`
	Module uint64 `json:"module"`
	// Object is the VkShaderEXT of a shader object (VK_EXT_shader_object);
	// Module is 0 then.
	Object uint64 `json:"shader_object,omitempty"`
	// SPIRV is the original module as the app passed it (little-endian bytes).
	SPIRV        []byte `json:"spirv"`
	Instrumented bool   `json:"instrumented"`
	// Warning says why a module was left uninstrumented (or partly so).
	Warning string `json:"warning,omitempty"`
	// InstrumentMicros is how long instrumentation took.
	InstrumentMicros int64 `json:"instrument_us,omitempty"`
	// Sites counts, per check id, the accesses the instrumentation
	// guards for that check (a site that reports two checks counts for
	// each); nil from layers before it, and for modules left
	// uninstrumented.
	Sites map[string]int `json:"sites,omitempty"`
	// PID is the process that made the shader: set by the launcher from
	// its connection's hello (the layer leaves it 0), written to the
	// session file with the id the session gave the shader.
	PID int `json:"pid,omitempty"`
}

// Pipeline is sent when a pipeline is created.
type Pipeline struct {
	Handle uint64 `json:"handle"`
	// Serial is the layer's number for this pipeline, never reused: a
	// driver may give a later pipeline the handle of a destroyed one.
	// Records and names carry it (0 from layers before it).
	Serial    uint64        `json:"serial,omitempty"`
	Layout    uint64        `json:"layout"`
	BindPoint string        `json:"bind_point"` // graphics, compute, ray_tracing
	Stages    []PipelineRef `json:"stages"`
	// Instrumented is false when the pipeline runs the original shaders
	// (e.g. its layout already uses the layer's descriptor-set slot).
	Instrumented bool   `json:"instrumented"`
	Warning      string `json:"warning,omitempty"`
}

// PipelineRef names one shader of a pipeline.
type PipelineRef struct {
	Stage    string `json:"stage"`
	ShaderID uint32 `json:"shader_id"`
	Module   uint64 `json:"module"`
	Entry    string `json:"entry"`
}

// Name is a debug-utils object name (vkSetDebugUtilsObjectNameEXT).
type Name struct {
	Handle     uint64 `json:"handle"`
	ObjectType string `json:"object_type"`
	Name       string `json:"name"`
	// Serial is the serial of the live pipeline (Pipeline.Serial) or
	// command buffer (Errors.CommandBufferSerial) the name was given to;
	// 0 for other objects, and from layers before it.
	Serial uint64 `json:"serial,omitempty"`
}

// Errors carries the decoded records of one command buffer of one submit,
// identical records grouped with a count.
type Errors struct {
	Submit        uint64 `json:"submit"`
	Queue         uint64 `json:"queue"`
	CommandBuffer uint64 `json:"command_buffer"`
	// CommandBufferSerial is the layer's number for the command buffer,
	// given at allocation and never reused (its handle may be); 0 from
	// layers before it.
	CommandBufferSerial uint64   `json:"command_buffer_serial,omitempty"`
	Records             []Record `json:"records"`
	// Dropped counts records the buffer had no room for.
	Dropped uint32 `json:"dropped,omitempty"`
	// FirstSubmit, when not 0, says that the records were coalesced by the
	// layer while the launcher fell behind: they come from submits
	// FirstSubmit to Submit, and each record's group started in
	// FirstSubmit (see Client).
	FirstSubmit uint64 `json:"first_submit,omitempty"`
	// Primary is, for a secondary command buffer, the primary that ran it
	// (vkCmdExecuteCommands), and PrimaryAction the number of actions the
	// primary had recorded before that vkCmdExecuteCommands.
	Primary       uint64 `json:"primary,omitempty"`
	PrimarySerial uint64 `json:"primary_serial,omitempty"`
	PrimaryAction uint32 `json:"primary_action,omitempty"`
}

// Record is one decoded error record plus the layer's attribution.
type Record struct {
	Check       string    `json:"check"`
	Code        uint32    `json:"code"`
	ShaderID    uint32    `json:"shader_id"`
	Instruction uint32    `json:"instruction"`
	Stage       uint32    `json:"stage"` // SPIR-V ExecutionModel
	StageWords  [3]uint32 `json:"stage_words"`
	ActionIndex uint32    `json:"action_index"`
	Action      string    `json:"action"` // vkCmdDispatch, vkCmdDraw...
	Pipeline    uint64    `json:"pipeline"`
	// PipelineSerial is the pipeline's serial (Pipeline.Serial) as the
	// action was recorded with, 0 without one.
	PipelineSerial uint64   `json:"pipeline_serial,omitempty"`
	Labels         []string `json:"labels,omitempty"`
	Params         []uint32 `json:"params"`
	// Count is how many failed accesses the record stands for: the
	// records the layer grouped into it, a folded one counting its
	// failures.
	Count int `json:"count"`
	// Loop is, when the record is folded (its site is inside a loop and
	// reported once after it, docs/decisions/loop-failures-folded.md) and
	// failed more than once there, how many times its invocation failed in
	// that run of the loop; its values are the last failure's. 0 otherwise.
	Loop int `json:"loop,omitempty"`
}

// Log is a line from the layer: an info, a warning or an error.
// Unchecked marks a warning that says what the layer left unchecked
// besides shaders and pipelines (the command checks' commands): the
// session counts it as unchecked, so a run exits 4. Kind says what it
// left unchecked: "" for commands, LogUncheckedRecords for records it
// could not read (submits that had not finished when the app exited or
// destroyed its device), Count how many (0: one).
type Log struct {
	Level     string `json:"level"` // info, warning, error
	Text      string `json:"text"`
	Unchecked bool   `json:"unchecked,omitempty"`
	Kind      string `json:"kind,omitempty"`
	Count     int    `json:"count,omitempty"`
	// Pipeline is, for LogUncheckedPipeline, the serial of the pipeline
	// (Pipeline.Serial) left out, and Subject the pipeline as the notice
	// names it (its handle; the session adds its debug name).
	Pipeline uint64 `json:"pipeline,omitempty"`
	Subject  string `json:"subject,omitempty"`
}

// Log kinds of unchecked things other than commands.
const (
	// LogUncheckedRecords: records the layer could not read.
	LogUncheckedRecords = "records"
	// LogUncheckedPipeline: a pipeline the scope (scope_include,
	// scope_exclude) left out; Text is the cause, the same for every
	// pipeline it left out.
	LogUncheckedPipeline = "pipeline"
)

// Bye is the last message, sent when the instance is destroyed.
type Bye struct {
	Submits uint64 `json:"submits"`
	// Counts are what the process's submits held so far (nil from layers
	// before them). Like Submits, they count the whole process: a later
	// connection's bye has the earlier ones' too.
	Counts *SubmitCounts `json:"counts,omitempty"`
	// Lost counted the messages a layer of protocol 1 could not send;
	// layers now send Lost messages instead (read from older files).
	Lost uint64 `json:"lost,omitempty"`
}

// SubmitCounts are what the submits of a process held: the command
// buffers submitted (a secondary once per primary that executed it),
// their actions (draws, dispatches, trace rays), the actions whose
// pipeline (or shader objects) ran instrumented, and of those the actions
// of a pipeline with a fast variant that ran its precise variant
// (docs/decisions/precise-variant.md).
type SubmitCounts struct {
	CommandBuffers uint64 `json:"command_buffers"`
	Actions        uint64 `json:"actions"`
	Instrumented   uint64 `json:"instrumented"`
	Precise        uint64 `json:"precise"`
}

// Lost counts what the layer could not deliver since its previous Lost
// message: error records (in total, and per check, shader and instruction
// where it still knew them) and other messages by kind. The counts add up
// over a connection's Lost messages.
type Lost struct {
	// Records is every error record lost; Groups break down those whose
	// check, shader and instruction the layer kept (the rest of Records
	// is unattributed).
	Records uint64      `json:"records,omitempty"`
	Groups  []LostGroup `json:"groups,omitempty"`
	// Messages counts other messages by kind name ("shader": 2), but for
	// printf messages, whose lines are counted in PrintfLines.
	Messages map[string]uint64 `json:"messages,omitempty"`
	// PrintfLines is every printf line lost on the way (the lines of the
	// printf messages that could not be delivered, and the lines those
	// messages counted as lost in the printf buffer).
	PrintfLines uint64 `json:"printf_lines,omitempty"`
}

// LostGroup is the count of lost records of one check at one instruction
// of one shader.
type LostGroup struct {
	Code        uint32 `json:"code"`
	Check       string `json:"check"`
	ShaderID    uint32 `json:"shader_id"`
	Instruction uint32 `json:"instruction"`
	Count       uint64 `json:"count"`
}
