package session

import (
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
	"github.com/gpuav-dbg/gpuav-dbg/sourcemap"
)

// Version is the session model's version: the report's "version" field.
const Version = 1

// Collector limits.
const (
	// MaxSamples is how many distinct sample coordinates a group keeps.
	MaxSamples = 8
	// MaxOutputLines is how many app output lines a session keeps in
	// memory; later ones are counted in a notice.
	MaxOutputLines = 100000
)

// groupKey identifies an error group (docs/decisions/all-errors.md) within its
// command buffer (Collector.groups). Its fields leave no padding, so that
// the map hashes and compares it as one block of memory.
type groupKey struct {
	// check is checkSlot of the record's code: a record's check is its
	// code's (validate.go refuses others), and a number hashes faster
	// than a name.
	check       uint32
	shader      uint32
	instruction uint32
	action      uint32
}

// checkSlots numbers the checks of the first check codes: every code of
// one check (the ray query rules) has its check's number.
var checkSlots = func() (slots [64]uint32) {
	for code := range slots {
		id := gpuav.CheckCode(code).CheckID()
		slots[code] = uint32(slices.Index(gpuav.AllChecks, id)) // unknown: MaxUint32
		if slots[code] == ^uint32(0) {
			slots[code] = 1<<31 | uint32(code)
		}
	}
	return slots
}()

// checkSlot is the group key's number for a record's check.
func checkSlot(code uint32) uint32 {
	if code < uint32(len(checkSlots)) {
		return checkSlots[code]
	}
	return 1<<31 | code
}

// groupState is a group plus what the collector needs to update it when
// records or debug names arrive.
type groupState struct {
	g        *ErrorGroup
	cmdBuf   objRef
	pipeline objRef
	module   uint64
	// queue and primary are the handles of g.Queue and
	// g.PrimaryCommandBuffer (0: none).
	queue   uint64
	primary objRef
	// epoch is the Errors message that last touched the group; tlAction
	// and tlGroup are where that message's timeline counts it.
	epoch             uint64
	tlAction, tlGroup int32
	// index is the group's place in Session.Groups.
	index int32
	// changed says that g changed since copy, the copy the last snapshot
	// holds (nil: none yet); snapshots share the copies of groups that did
	// not change (Snapshot).
	changed bool
	copy    *ErrorGroup
}

// groupSlabMax is the most groups (and group states) the collector
// allocates at once: a large session's groups cost one allocation per
// slab, not two per group.
const groupSlabMax = 512

// allocGroup returns a zero group and a zero group state, from slabs that
// grow with the session (a small session allocates little room ahead).
// The session keeps the group slabs; the state slabs go with the
// collector.
func (c *Collector) allocGroup() (*ErrorGroup, *groupState) {
	if len(c.groupSlab) == 0 {
		n := min(max(len(c.order), 8), groupSlabMax)
		c.groupSlab, c.stateSlab = make([]ErrorGroup, n), make([]groupState, n)
	}
	g, st := &c.groupSlab[0], &c.stateSlab[0]
	c.groupSlab, c.stateSlab = c.groupSlab[1:], c.stateSlab[1:]
	st.g = g
	return g, st
}

// Collector builds a Session from wire messages, in arrival order, and
// writes every frame it accepts to the session file, if one is set. It is
// safe for concurrent use: the server's connections, the app's output
// readers and the launcher all feed it while the UI reads snapshots.
type Collector struct {
	// OnChange, when set, is called after every change, outside the
	// collector's lock. Set it before the first message.
	OnChange func()
	// Now is the clock for notice times; nil means time.Now.
	Now func() time.Time

	mu      sync.Mutex
	s       *Session
	file    io.Writer
	fileErr error
	maps    map[uint32]sourceMapper
	// disk finds source files the modules do not carry (sources.go).
	disk *sourcemap.Disk
	// extraDirs are searched after the session's own directories (open
	// --source-path).
	extraDirs []string
	// sourceExt are the extensions the user added to the shader sources'
	// (the run's --source-ext, open's).
	sourceExt []string
	// newMap builds a shader's source map; tests replace it.
	newMap func(words []uint32) sourceMapper
	// groups finds a group by its command buffer (handle and serial: a
	// command buffer allocated in place of a freed one is another), then
	// the rest of its key: an Errors message is one command buffer's, so
	// the look-ups of its records stay in one small map.
	groups map[objRef]map[groupKey]*groupState
	order  []*groupState
	// groupSlab and stateSlab are the room for the next groups
	// (allocGroup).
	groupSlab []ErrorGroup
	stateSlab []groupState
	// epoch counts Errors messages (groupState.epoch).
	epoch uint64
	// names are the debug names by handle (the latest given), and
	// nameSerial the serial of the object each was given to (0: not a
	// pipeline or command buffer, or a layer that sent none);
	// serialNames the names of pipelines and command buffers by serial
	// (nameOf).
	names       map[uint64]string
	nameSerial  map[uint64]uint64
	serialNames map[serialKey]string
	// groupsOf indexes the groups by the handles they name (a command
	// buffer, pipeline, module or shader object, queue, primary), and
	// unnamed the submits whose timeline nodes name a handle that had no
	// debug name then: a debug name touches only those (setName).
	groupsOf map[uint64][]*groupState
	unnamed  map[uint64][]uint64
	// shaderNames are the shaders' debug names by shader id, and newest
	// the id of the latest shader made with a module or shader object
	// handle: a driver may give a new module the handle of a destroyed
	// one, and a name belongs to the shader that had the handle when the
	// app set it.
	shaderNames map[uint32]string
	newest      map[uint64]uint32
	pipelines   map[uint64]*wire.Pipeline
	// causes are the notices that count the subjects of one cause
	// (notices.go).
	causes map[string]*causeNotice
	// hangNotices are the places in Session.Notices of each hang's notice
	// (hang.go).
	hangNotices []int
	// uncheckedIndex finds a cause's entry in Session.Unchecked.
	uncheckedIndex map[string]int
	// scopeSubjects are the pipelines the scope left out that the
	// unchecked list names, by serial.
	scopeSubjects map[uint64]scopeSubject
	// droppedNoticed: the first overflow gets a notice, later ones only
	// add to Session.Dropped.
	droppedNoticed bool
	outputLost     int
	// printfUndelivered counts the printf lines the layer could not
	// deliver (wire.Lost.PrintfLines).
	printfUndelivered uint64
	// tlNodes, tlSubmits, tlSubmitGen and tlUnsorted index the timeline
	// (timeline.go); snapGen counts snapshots, so that what a snapshot may
	// hold is copied before it changes, and only then.
	tlNodes     map[tlKey]*tlNode
	tlSubmits   map[uint64]int
	tlSubmitGen map[uint64]uint64
	tlUnsorted  bool
	snapGen     uint64
	// maxShaderID and idsGiven are the session shader ids given to the
	// connections' shaders so far (process.go).
	maxShaderID uint32
	idsGiven    map[uint32]bool
	// maxSerial and serialsGiven are the same for the serials of
	// pipelines and command buffers (sessionSerial), by kind.
	maxSerial    map[string]uint64
	serialsGiven map[serialKey]bool
	// lastTime is the time of the frames being applied: the clock, to the
	// millisecond, when live; the last wire.Time frame when replaying.
	lastTime time.Time
	// replay: the frames come from a session file, with their own times.
	replay bool
	// packed decodes the packed errors messages of a replay.
	packed *wire.PackedDecoder
	// scratch holds the frame being written.
	scratch []byte
	// sourceFiles are the files read from disk while applying a message,
	// to be written before it (sources.go).
	sourceFiles []*wire.SourceFile
	// intern keeps one copy of the strings, label paths and sources that
	// many groups share (intern.go).
	intern interner
	// printf holds the printf groups' state (printf.go).
	printf printfCollector
}

// NewCollector returns a collector with an empty session.
func NewCollector() *Collector {
	return &Collector{
		s: &Session{
			Version: Version,
			App:     App{State: AppStarting},
			Shaders: map[uint32]*Shader{},
			Sources: map[SourceKey][]string{},
		},
		maps:   map[uint32]sourceMapper{},
		newMap: func(words []uint32) sourceMapper { return sourcemap.New(words) },
		groups: map[objRef]map[groupKey]*groupState{},
		names:  map[uint64]string{},

		nameSerial:   map[uint64]uint64{},
		serialNames:  map[serialKey]string{},
		groupsOf:     map[uint64][]*groupState{},
		idsGiven:     map[uint32]bool{},
		maxSerial:    map[string]uint64{},
		serialsGiven: map[serialKey]bool{},

		tlNodes:     map[tlKey]*tlNode{},
		tlSubmits:   map[uint64]int{},
		tlSubmitGen: map[uint64]uint64{},
		unnamed:     map[uint64][]uint64{},

		shaderNames: map[uint32]string{},
		newest:      map[uint64]uint32{},
		pipelines:   map[uint64]*wire.Pipeline{},
		causes:      map[string]*causeNotice{},

		uncheckedIndex: map[string]int{},
		scopeSubjects:  map[uint64]scopeSubject{},
	}
}

// SetFile makes the collector append every frame it accepts to w (the
// session file, whose header is already written). A write error is kept
// (FileErr), reported once as a notice, and stops further writes; the
// session in memory goes on.
func (c *Collector) SetFile(w io.Writer) {
	c.mu.Lock()
	c.file = w
	c.mu.Unlock()
}

// FileErr returns the first error writing the session file, or nil.
func (c *Collector) FileErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fileErr
}

// Record adds a message of kind k (a wire message value or pointer).
func (c *Collector) Record(k wire.Kind, msg any) error {
	frame, err := wire.Encode(k, msg)
	if err != nil {
		return fmt.Errorf("record %v: %w", k, err)
	}
	return c.RecordFrame(k, frame[wire.HeaderSize:])
}

// RecordFrame decodes a frame's payload and adds it; a payload that does
// not decode, or holds an impossible value (an error wrapping ErrInvalid,
// validate.go), is an error and changes nothing (it is not written to the
// session file either).
func (c *Collector) RecordFrame(k wire.Kind, payload []byte) error {
	var dec *wire.PackedDecoder
	if c.replay {
		// A replay is one goroutine: it decodes every packed message
		// into the same room.
		if c.packed == nil {
			c.packed = &wire.PackedDecoder{}
		}
		dec = c.packed
	}
	return c.recordFrame(k, payload, dec, nil)
}

// recordFrame is RecordFrame with the decoder of the caller's packed
// messages (nil: a new one each time). The groups keep nothing of a
// message's records, so one goroutine's messages can share a decoder.
func (c *Collector) recordFrame(k wire.Kind, payload []byte, dec *wire.PackedDecoder, conn *Connection) error {
	var msg any
	var err error
	if dec != nil && k == wire.KindErrorsPacked {
		msg, err = dec.Decode(payload)
	} else {
		msg, err = wire.Decode(k, payload)
	}
	if err != nil {
		return err
	}
	if err := validate(msg); err != nil {
		return err
	}
	c.mu.Lock()
	if !c.replay {
		// Truncate also drops the monotonic reading, as a file would.
		if t := c.now().Truncate(time.Millisecond); !t.Equal(c.lastTime) {
			c.lastTime = t
			if c.file != nil && c.fileErr == nil {
				if frame, err := wire.Encode(wire.KindTime, &wire.Time{Time: t}); err == nil {
					c.writeFrame(wire.KindTime, frame[wire.HeaderSize:])
				}
			}
		}
	}
	translated := c.translate(conn, msg)
	c.apply(msg)
	// Source files read while applying it go first, so that a replay
	// has them when it applies the message.
	for _, f := range c.sourceFiles {
		if frame, err := wire.Encode(wire.KindSourceFile, f); err == nil {
			c.writeFrame(wire.KindSourceFile, frame[wire.HeaderSize:])
		}
	}
	c.sourceFiles = c.sourceFiles[:0]
	if e, ok := msg.(*wire.Errors); ok && (k == wire.KindErrors || translated) && c.file != nil && c.fileErr == nil {
		// Session files keep records packed (see wire.KindErrorsPacked).
		c.writeFrame(wire.KindErrorsPacked, wire.AppendPackedErrors(nil, e))
	} else if translated && c.file != nil && c.fileErr == nil {
		// The session file holds the session's shader ids (process.go).
		if frame, err := wire.Encode(k, msg); err == nil {
			c.writeFrame(k, frame[wire.HeaderSize:])
		}
	} else {
		c.writeFrame(k, payload)
	}
	c.mu.Unlock()
	c.changed()
	return nil
}

// Notice adds a launcher notice (level info, warning or error).
func (c *Collector) Notice(level, text string) {
	_ = c.Record(wire.KindNotice, &wire.Notice{Level: level, Text: text, Time: c.now()})
}

// changed calls OnChange.
func (c *Collector) changed() {
	if c.OnChange != nil {
		c.OnChange()
	}
}

func (c *Collector) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// writeFrame appends a frame (AppendFileFrame: with its checksums) to the
// session file, in one Write. Called with c.mu held.
func (c *Collector) writeFrame(k wire.Kind, payload []byte) {
	if c.file == nil || c.fileErr != nil {
		return
	}
	c.scratch = AppendFileFrame(c.scratch[:0], k, payload)
	if _, err := c.file.Write(c.scratch); err != nil {
		c.fileErr = fmt.Errorf("session file: write %v frame: %w", k, err)
		c.addNotice("error", fmt.Sprintf("%v; the session is no longer saved", c.fileErr))
	}
	if cap(c.scratch) > 1<<20 {
		c.scratch = nil // keep no large buffer after a large frame
	}
}

// addNotice appends a notice. Called with c.mu held.
func (c *Collector) addNotice(level, text string) {
	if level == "" {
		level = "info"
	}
	c.s.Notices = append(c.s.Notices, Notice{Level: level, Text: text, Time: c.lastTime})
}

// apply changes the session for one decoded message. Called with c.mu held.
func (c *Collector) apply(msg any) {
	s := c.s
	switch m := msg.(type) {
	case *wire.Hello:
		c.applyHello(m)
	case *wire.Device:
		c.applyDevice(m)
	case *wire.Shader:
		c.addShader(m)
	case *wire.Pipeline:
		c.pipelines[m.Handle] = m
		cp := createdPipeline{serial: m.Serial, instrumented: m.Instrumented, warning: m.Warning}
		for _, st := range m.Stages {
			cp.shaders = append(cp.shaders, st.ShaderID)
		}
		s.createdPipelines = append(s.createdPipelines, cp)
		c.addPipeline(m)
		c.noticePipeline(m)
	case *wire.Name:
		c.setName(m.Handle, m.ObjectType, m.Name, m.Serial)
	case *wire.Label:
		// Records carry their label path; nothing to keep.
	case *wire.Errors:
		c.addErrors(m)
	case *wire.Printf:
		c.addPrintf(m)
	case *wire.Lost:
		c.applyLost(m)
	case *wire.Hang:
		c.applyHang(m)
	case *wire.HangFinished:
		c.applyHangFinished(m)
	case *wire.Busy:
		c.applyBusy(m)
	case *wire.Paused:
		c.applyPaused(m)
	case *wire.Continue:
		c.applyContinue(m)
	case *wire.Log:
		if m.Unchecked && m.Kind == wire.LogUncheckedPipeline {
			c.scopeOut(m)
			break
		}
		c.addNotice(m.Level, m.Text)
		if m.Unchecked && m.Kind == wire.LogUncheckedRecords {
			c.uncheckN(UncheckedRecords, m.Text, max(m.Count, 1))
		} else if m.Unchecked {
			c.uncheck(UncheckedCommand, m.Text)
		}
	case *wire.Bye:
		s.Submits = max(s.Submits, m.Submits)
		if m.Counts != nil && (s.Counts == nil || m.Counts.CommandBuffers >= s.Counts.CommandBuffers) {
			counts := *m.Counts
			s.Counts = &counts
		}
		if m.Lost > 0 {
			s.LostMessages += m.Lost
			c.addNotice("warning", fmt.Sprintf("the layer lost %d messages on the way to gpuav-dbg (its socket queue was full or failed): errors may be missing", m.Lost))
		}
	case *wire.Time:
		if c.replay {
			c.lastTime = m.Time
		}
	case *wire.AppStarted:
		c.applyAppStarted(m)
	case *wire.AppOutput:
		c.addOutput(m.Stream, m.Text)
	case *wire.AppOutputBlock:
		for text := m.Text; ; {
			line, rest, more := strings.Cut(text, "\n")
			if len(s.Output) >= MaxOutputLines {
				// Past the cap only the count: no line is made.
				c.addOutput(m.Stream, "")
				c.outputLost += strings.Count(text, "\n")
				break
			}
			c.addOutput(m.Stream, line)
			if !more {
				break
			}
			text = rest
		}
	case *wire.AppExited:
		s.App.ExitCode, s.App.Signal = m.Code, m.Signal
		s.Busy = nil // nothing is counted down once the app is gone
		s.App.State = AppState(m.State)
		if s.App.State == "" {
			s.App.State = AppExited
		}
		c.endPauses()
	case *wire.Capabilities:
		c.applyCapabilities(m)
	case *wire.SourceFile:
		c.recordSource(m)
	case *wire.StreamCut:
		c.applyStreamCut()
	case *wire.Notice:
		level := m.Level
		if level == "" {
			level = "info"
		}
		s.Notices = append(s.Notices, Notice{Level: level, Text: m.Text, Time: m.Time})
	default:
		c.unused(msg)
	}
}

// addOutput keeps a line the app printed, while the session holds fewer
// than MaxOutputLines (they are all in the session file). Called with c.mu
// held.
func (c *Collector) addOutput(stream, text string) {
	s := c.s
	if len(s.Output) < MaxOutputLines {
		s.Output = append(s.Output, OutputLine{Stream: stream, Text: text})
		return
	}
	if c.outputLost == 0 {
		c.addNotice("warning", fmt.Sprintf("the app printed more than %d lines; later lines are not kept in memory", MaxOutputLines))
	}
	c.outputLost++
}

// applyHello applies the layer's hello: the app is running with the layer
// loaded, its settings, and a notice of the layer and its record format.
// Called with c.mu held.
func (c *Collector) applyHello(m *wire.Hello) {
	s := c.s
	s.App.LayerLoaded = true
	if s.App.Path == "" {
		s.App.Path, s.App.Args = m.App, m.Args
	}
	if s.App.PID == 0 {
		s.App.PID = m.PID
	}
	if s.App.State == AppStarting {
		s.App.State = AppRunning
	}
	s.Settings = settingsFrom(m.Settings)
	version := ""
	if m.LayerVersion != "" {
		version = " " + m.LayerVersion
	}
	c.addNotice("info", fmt.Sprintf("layer%s loaded in pid %d (record format %d)", version, m.PID, m.RecordFormat))
	// The layer decodes its records itself; the formats up to this
	// launcher's give the same decoded parameters (format 2 moved the
	// static ones into a site table, docs/decisions/record-format-2.md),
	// so only a newer layer's may be misread.
	if m.RecordFormat > gpuav.RecordFormatVersion {
		c.addNotice("warning", fmt.Sprintf("the layer writes record format %d, this launcher reads %d: errors may be misread",
			m.RecordFormat, gpuav.RecordFormatVersion))
	}
}

// applyAppStarted applies the launcher's word that the app started: its
// path, arguments, pid and output files. Called with c.mu held.
func (c *Collector) applyAppStarted(m *wire.AppStarted) {
	s := c.s
	c.setSourceDirs(m)
	s.App.OutputFiles = nil
	for _, f := range []string{m.Stdout, m.Stderr} {
		if f != "" {
			s.App.OutputFiles = append(s.App.OutputFiles, f)
		}
	}
	s.App.Path, s.App.Args, s.App.PID = m.Path, m.Args, m.PID
	if s.App.Args == nil {
		s.App.Args = []string{}
	}
	if s.App.State == AppStarting {
		s.App.State = AppRunning
	}
	if !s.App.LayerLoaded {
		s.Settings = settingsFrom(m.Settings)
	}
}

// unused says that a message was not applied: a kind the wire knows but
// the collector has no case for. One notice per kind, with the count.
// Called with c.mu held.
func (c *Collector) unused(msg any) {
	what := fmt.Sprintf("%T", msg)
	if k, ok := wire.KindOf(msg); ok {
		what = k.String()
	}
	c.noticeCause("warning", "unused message "+what, "", func(n int, _ string) string {
		return fmt.Sprintf("%s: %d %s not used by this gpuav-dbg (a newer layer or launcher?)", what, n, plural(n, "message was", "messages were"))
	})
}

// settingsFrom copies wire settings, so the session owns its map; a
// session recorded before on_error existed reads skip, its only behaviour
// then.
func settingsFrom(w wire.Settings) Settings {
	w.Checks, w.Options = maps.Clone(w.Checks), maps.Clone(w.Options)
	w.OnError = string(gpuav.OnErrorOrDefault(gpuav.OnError(w.OnError)))
	return w
}

// addShader keeps a shader module's original SPIR-V (the first one sent
// for an id wins).
func (c *Collector) addShader(m *wire.Shader) {
	if _, ok := c.s.Shaders[m.ID]; ok {
		return
	}
	words := make([]uint32, len(m.SPIRV)/4)
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(m.SPIRV[4*i:])
	}
	c.s.Shaders[m.ID] = &Shader{ID: m.ID, Module: m.Module, Object: m.Object, SPIRV: words, Instrumented: m.Instrumented,
		Warning: m.Warning, Sites: m.Sites, PID: m.PID}
	c.maxShaderID = max(c.maxShaderID, m.ID)
	if h := shaderHandle(m.Module, m.Object); h != 0 {
		c.newest[h] = m.ID // a new shader: unnamed until the app names it
	}
	if len(m.SPIRV)%4 != 0 {
		c.addNotice("warning", fmt.Sprintf("shader %d: SPIR-V of %d bytes is not a whole number of words", m.ID, len(m.SPIRV)))
	}
	c.noticeShader(m)
}

// handle formats a handle with its debug name.
func (c *Collector) handle(h uint64) Handle {
	return Handle{Handle: c.intern.hex(h), Name: c.names[h]}
}

// objRef is a pipeline or command buffer as a record names it: its handle
// and the layer's serial for it (0 from layers that send none).
type objRef struct{ h, serial uint64 }

// serialKey names a pipeline or command buffer by its serial: the object
// type (wire.Name's) and the serial (pipelines and command buffers are
// numbered apart).
type serialKey struct {
	kind   string
	serial uint64
}

// Object types of the names the collector keeps by serial.
const (
	objPipeline      = "pipeline"
	objCommandBuffer = "command_buffer"
)

// nameOf is the debug name of the pipeline or command buffer r of kind:
// the name given to its serial; without one, the handle's name unless that
// was given to another object with the handle.
func (c *Collector) nameOf(kind string, r objRef) string {
	if r.serial != 0 {
		if n, ok := c.serialNames[serialKey{kind, r.serial}]; ok {
			return n
		}
		if c.nameSerial[r.h] != 0 {
			return ""
		}
	}
	return c.names[r.h]
}

// objHandle formats a pipeline or command buffer with its serial and the
// debug name it has (nameOf).
func (c *Collector) objHandle(kind string, r objRef) Handle {
	return Handle{Handle: c.intern.hex(r.h), Name: c.nameOf(kind, r), Serial: r.serial}
}

// named says whether a name given to handle h with serial (0: any object
// with the handle) names r.
func (r objRef) named(h, serial uint64) bool {
	return r.h == h && (serial == 0 || r.serial == 0 || r.serial == serial)
}

// shaderHandle is the handle a shader's debug name is given to: its shader
// object, else its module.
func shaderHandle(module, object uint64) uint64 {
	if object != 0 {
		return object
	}
	return module
}

// namesShader reports whether a Name message of objectType may name a
// shader: a module or a shader object ("" from older layers and tests).
func namesShader(objectType string) bool {
	return objectType == "" || objectType == "shader_module" || objectType == "shader_object"
}

// setName records a debug name of an object of objectType and renames the
// groups that refer to it: a pipeline or command buffer of serial (0: any
// with the handle, from layers that send none); a shader's name goes only
// to the newest shader made with the handle.
func (c *Collector) setName(h uint64, objectType, name string, serial uint64) {
	old, had := c.names[h]
	oldSerial := c.nameSerial[h]
	c.names[h] = name
	c.nameSerial[h] = serial
	if serial != 0 {
		c.serialNames[serialKey{objectType, serial}] = name
		if objectType == "pipeline" {
			c.scopeNamed(serial, name)
		}
	}
	shader, named := c.newest[h]
	named = named && namesShader(objectType)
	oldShader, hadShader := "", false
	if named {
		oldShader, hadShader = c.shaderNames[shader]
		c.shaderNames[shader] = name
	} else {
		shader = 0 // no shader's id
	}
	if had && old == name && oldSerial == serial && (!named || (hadShader && oldShader == name)) {
		return // the same name again (an engine naming its objects every frame)
	}
	c.renameModel(h, name, serial)
	c.renamePrintf(h, shader, name, serial)
	if objectType == objPipeline || objectType == "" {
		c.renameNotices(h, serial)
	}
	// Only the groups that name h (an index, not a walk over every group).
	for _, st := range c.groupsOf[h] {
		module := st.module == h && st.g.Shader.ID == shader && shader != 0
		cb, pipeline, primary := st.cmdBuf.named(h, serial), st.pipeline.named(h, serial), st.primary.named(h, serial)
		st.changed = st.changed || cb || pipeline || module || h == st.queue || primary
		if cb {
			st.g.CommandBuffer.Name = name
		}
		if pipeline {
			st.g.Pipeline.Name = name
		}
		if module && (st.g.Shader.Module != "" || st.g.Shader.Object != "") {
			st.g.Shader.Name = name
		}
		if st.queue == h {
			st.g.Queue.Name = name
		}
		if primary {
			st.g.PrimaryCommandBuffer.Name = name
		}
	}
}

// indexGroup notes the handles a new group names (groupsOf), so that a
// debug name given later finds the groups it renames without a walk over
// all of them.
func (c *Collector) indexGroup(st *groupState) {
	hs := [...]uint64{st.cmdBuf.h, st.pipeline.h, st.module, st.queue, st.primary.h}
	for i, h := range hs {
		if h == 0 || slices.Contains(hs[:i], h) {
			continue
		}
		c.groupsOf[h] = append(c.groupsOf[h], st)
	}
}

// addErrors folds one Errors message into the groups and the timeline.
// A record that adds nothing new to its group (a known sample) costs a map
// look-up and no allocation.
func (c *Collector) addErrors(e *wire.Errors) {
	s := c.s
	s.Submits = max(s.Submits, e.Submit)
	if e.Dropped > 0 {
		s.Dropped += uint64(e.Dropped)
		if !c.droppedNoticed {
			c.droppedNoticed = true
			c.addNotice("warning", fmt.Sprintf("the error buffer of command buffer %s overflowed at submit %d: %d records dropped; counts are lower bounds",
				c.handle(e.CommandBuffer), e.Submit, e.Dropped))
		}
	}
	c.noteCoalesced(e)
	c.epoch++
	tl := newTimelineBuilder(c, e)
	cb := objRef{e.CommandBuffer, e.CommandBufferSerial}
	groups := c.groups[cb]
	if groups == nil {
		groups = map[groupKey]*groupState{}
		c.groups[cb] = groups
	}
	for i := range e.Records {
		r := &e.Records[i]
		check := r.Check
		if check == "" {
			check = gpuav.CheckCode(r.Code).CheckID()
		}
		key := groupKey{check: checkSlot(r.Code), shader: r.ShaderID, instruction: r.Instruction, action: r.ActionIndex}
		count := r.Count
		if count <= 0 {
			count = 1
		}
		// Coordinates are a small value: building them costs no
		// allocation, comparing them a few words.
		coords := stageCoords(r.Stage, r.StageWords)
		st, ok := groups[key]
		if !ok {
			st = c.newGroup(e, r, check, coords)
			c.indexGroup(st)
			groups[key] = st
			c.order = append(c.order, st)
			s.Groups = append(s.Groups, st.g)
		}
		g := st.g
		st.changed = true
		g.Count += count
		g.LastSubmit = max(g.LastSubmit, e.Submit)
		g.LastCoords = coords
		if len(g.Samples) < MaxSamples && !hasCoords(g.Samples, coords) {
			g.Samples = append(g.Samples, coords)
		}
		first := st.epoch != c.epoch
		st.epoch = c.epoch
		tl.add(r, st, count, first)
	}
	tl.finish()
}

// hasCoords reports whether list holds c.
func hasCoords(list []Coords, c Coords) bool {
	if c.n == wideN {
		return slices.ContainsFunc(list, c.Equal)
	}
	for _, o := range list {
		if o == c { // one of them inline: Equal is ==
			return true
		}
	}
	return false
}

// newGroup starts a group from its first record.
func (c *Collector) newGroup(e *wire.Errors, r *wire.Record, check string, coords Coords) *groupState {
	var params [gpuav.RecordParams]uint32
	copy(params[:], r.Params)
	d := gpuav.Describe(gpuav.CheckCode(r.Code), params)
	g, st := c.allocGroup()
	*g = ErrorGroup{
		Check:      check,
		VUID:       c.intern.str(d.VUID(r.Action)),
		Stage:      gpuav.StageName(r.Stage),
		Loop:       r.Loop,
		Coords:     coords,
		LastCoords: coords,
		Where: Where{
			CommandBuffer: c.objHandle(objCommandBuffer, objRef{e.CommandBuffer, e.CommandBufferSerial}),
			Submit:        firstSubmit(e),
			ActionIndex:   r.ActionIndex,
			Action:        c.intern.str(r.Action),
			Pipeline:      c.objHandle(objPipeline, objRef{r.Pipeline, r.PipelineSerial}),
			Instruction:   r.Instruction,
		},
	}
	if len(r.Labels) > 0 {
		g.Labels = c.intern.labels(r.Labels)
	}
	g.code, g.params, g.described = gpuav.CheckCode(r.Code), params, true
	if d.HasDescriptor {
		g.Descriptor = &Descriptor{Set: d.Set, Binding: d.Binding, Index: d.Index, ArrayLength: d.Length}
	}
	g.Ray = rayOf(d.Ray)
	g.SBT = sbtOf(d.SBT)
	g.Intersection = intersectionOf(d.HitKind)
	g.BDA = bdaOf(d.BDA)
	g.Buffer = bufferOf(d.Buffer)
	g.Texel = texelOf(d.Texel)
	g.Sanitizer = sanitizerOf(d.Sanitizer)
	g.Mesh = meshOf(d.Mesh)
	g.Barrier = barrierOf(d.Barrier)
	g.IndexBuffer = indexBufferOf(d.IndexBuffer)
	g.Vertex = vertexFetchOf(d.Vertex)
	g.Indirect = indirectOf(d.Indirect)
	g.Accel = accelOf(d.Accel, r.StageWords)
	g.DepthCopy = depthCopyOf(d.Depth, r.StageWords)
	g.LoopBudget = loopBudgetOf(d.LoopBudget)
	if r.ShaderID != 0 {
		g.Outcome = outcomeOf(c.s.Settings, gpuav.CheckCode(r.Code), params)
	}
	g.Level = LevelError
	if d.Warning {
		g.Level = LevelWarning
	}
	g.Samples = []Coords{coords}
	st.cmdBuf, st.pipeline = objRef{e.CommandBuffer, e.CommandBufferSerial}, objRef{r.Pipeline, r.PipelineSerial}
	st.index = int32(len(c.s.Groups))
	// The queue and the primary are the first submit's: they are not part
	// of the group key (docs/decisions/queue-and-primary-not-in-group-key.md).
	if e.Queue != 0 {
		st.queue = e.Queue
		g.Queue = c.handle(e.Queue)
	}
	if e.Primary != 0 {
		st.primary = objRef{e.Primary, e.PrimarySerial}
		g.PrimaryCommandBuffer = c.objHandle(objCommandBuffer, st.primary)
		pa := e.PrimaryAction
		g.PrimaryActionIndex = &pa
	}
	g.Shader, st.module = c.shaderRef(r.ShaderID)
	g.Source = c.sourceOf(r.ShaderID, r.Instruction)
	if d.Race != nil {
		var words []uint32
		if sh, ok := c.s.Shaders[r.ShaderID]; ok {
			words = sh.SPIRV
		}
		g.Race = raceOf(d.Race, words, r.StageWords, func(in uint32) *Source { return c.sourceOf(r.ShaderID, in) })
	}
	return st
}

// shaderRef names a shader in a group, and returns the handle its debug
// name is given to (its module or shader object; 0 when unknown).
func (c *Collector) shaderRef(id uint32) (ShaderRef, uint64) {
	ref := ShaderRef{ID: id}
	sh, ok := c.s.Shaders[id]
	switch {
	case !ok:
		return ref, 0
	}
	ref.PID = sh.PID
	switch {
	case sh.Object != 0:
		ref.Object, ref.Name = c.intern.hex(sh.Object), c.shaderNames[id]
		return ref, sh.Object
	}
	ref.Module, ref.Name = c.intern.hex(sh.Module), c.shaderNames[id]
	return ref, sh.Module
}

// sourceOf is a group's source: kept once per instruction, or, while the
// shader is unknown, a note that says so (it may come later).
func (c *Collector) sourceOf(shader, instruction uint32) *Source {
	if shader == 0 {
		return nil // a layer record, about a command: no shader, no source
	}
	if _, ok := c.s.Shaders[shader]; ok {
		return c.intern.source(shader, instruction, c.source)
	}
	return c.source(shader, instruction)
}

// source looks an instruction up in its shader's source map, building the
// map on first use, and keeps the file's lines for the source pane.
func (c *Collector) source(shaderID, instruction uint32) *Source {
	sh, ok := c.s.Shaders[shaderID]
	if !ok {
		return &Source{Note: fmt.Sprintf("shader %d was never received from the layer", shaderID)}
	}
	loc, lines, err := c.lookup(sh, int(instruction))
	if err != nil {
		return &Source{Note: err.Error()}
	}
	src := sourceFrom(loc)
	src.Path = c.resolve(loc)
	if loc.File != "" {
		key := SourceKey{ShaderID: shaderID, File: loc.File}
		if _, ok := c.s.Sources[key]; !ok && lines != nil {
			c.s.Sources[key] = lines
		}
		if src.Text == "" && loc.Line > 0 && loc.Line <= len(lines) {
			src.Text = lines[loc.Line-1]
		}
	}
	return src
}

// sourceMapper is what the collector needs of a *sourcemap.Map.
type sourceMapper interface {
	Lookup(instruction int) sourcemap.Location
	FileLines(file string) []string
}

// lookup asks the shader's source map, guarding the launcher against a
// panic on a hostile module.
func (c *Collector) lookup(sh *Shader, instruction int) (loc sourcemap.Location, lines []string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("source map of shader %d failed: %v", sh.ID, p)
		}
	}()
	m, ok := c.maps[sh.ID]
	if !ok {
		m = c.newMap(sh.SPIRV)
		c.maps[sh.ID] = m
	}
	loc, lines = c.mapLookup(m, instruction)
	return loc, lines, nil
}

// Snapshot returns a copy of the session that the caller may read while
// messages keep arriving. Groups, notices, the shader and source maps are
// copied; the values they share with the collector (coordinates, SPIR-V,
// source lines, output lines) are never modified once added. A group that
// did not change since the last snapshot is that snapshot's copy: copies
// are never modified either, so snapshots share them, and a snapshot of
// a large session copies only the groups that new records reached.
func (c *Collector) Snapshot() *Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sortTimeline()
	c.snapGen++
	out := c.s.cloneWithout()
	out.Groups = make([]*ErrorGroup, len(c.order))
	for i, st := range c.order {
		if st.changed || st.copy == nil {
			st.copy, st.changed = copyGroup(st.g), false
		}
		out.Groups[i] = st.copy
	}
	return out
}

// finish returns the session of a replay without copying it: the
// collector is done and nothing else holds it (a copy of a million-record
// session would double its memory for a moment).
func (c *Collector) finish() *Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sortTimeline()
	s := c.s
	c.s = nil
	return s
}

// copyGroup copies a group for a snapshot: its samples clipped, so that
// the collector's appends never reach the copy.
func copyGroup(g *ErrorGroup) *ErrorGroup {
	cp := *g
	cp.Samples = slices.Clip(g.Samples)
	return &cp
}

// cloneWithout copies a session, but for its groups, deep enough for one
// writer and many readers.
func (s *Session) cloneWithout() *Session {
	out := *s
	out.Groups = nil
	out.Printf = clonePrintf(s.Printf)
	out.Notices = slices.Clone(s.Notices)
	out.Unchecked = slices.Clone(s.Unchecked)
	out.Hangs = slices.Clip(s.Hangs)
	out.Pauses = slices.Clone(s.Pauses)
	out.Pipelines = maps.Clone(s.Pipelines)
	out.Timeline = slices.Clone(s.Timeline)
	out.Output = slices.Clip(s.Output)
	out.Shaders = maps.Clone(s.Shaders)
	out.Sources = maps.Clone(s.Sources)
	out.createdPipelines = slices.Clip(s.createdPipelines)
	return &out
}
