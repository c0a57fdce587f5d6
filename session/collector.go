package session

import (
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"slices"
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

// groupKey identifies an error group (DESIGN decision 5).
type groupKey struct {
	check       string
	shader      uint32
	instruction uint32
	cmdBuf      uint64
	action      uint32
}

// groupState is a group plus what the collector needs to rebuild its
// message when its count or a debug name changes.
type groupState struct {
	g        *ErrorGroup
	what     string // the check's own sentence (gpuav.Description.Message)
	cmdBuf   uint64
	pipeline uint64
	module   uint64
	// queue and primary are the handles of g.Queue and
	// g.PrimaryCommandBuffer (0: none).
	queue, primary uint64
	// index is the group's place in Session.Groups.
	index int
	// samples are the stage and stage words of g.Samples, compared
	// before building coordinates, so a record that adds nothing
	// allocates nothing.
	samples []rawCoords
	// last is the latest record's; lastBuilt is what g.LastCoords shows.
	last, lastBuilt rawCoords
	// epoch is the Errors message that last touched the group; tlAction
	// and tlGroup are where that message's timeline counts it.
	epoch             uint64
	tlAction, tlGroup int
	// dirty: the message and last coordinates wait for flush.
	dirty bool
}

// rawCoords are a record's stage and the stage words its coordinates use.
type rawCoords struct {
	stage uint32
	words [3]uint32
}

// rawOf keeps the stage words that the stage's coordinates use (the others
// may hold anything).
func rawOf(stage uint32, w [3]uint32) rawCoords {
	switch stage {
	case gpuav.ModelVertex, gpuav.ModelTessellationControl, gpuav.ModelGeometry, gpuav.ModelFragment:
		w[2] = 0
	}
	return rawCoords{stage, w}
}

// coords builds the coordinates.
func (r rawCoords) coords() Coords { return Coords(gpuav.StageCoords(r.stage, r.words)) }

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
	// newMap builds a shader's source map; tests replace it.
	newMap func(words []uint32) sourceMapper
	groups map[groupKey]*groupState
	order  []*groupState
	// epoch counts Errors messages; touched lists the groups the current
	// one added to.
	epoch   uint64
	touched []*groupState
	// dirty lists the groups flush must bring up to date.
	dirty     []*groupState
	names     map[uint64]string
	pipelines map[uint64]*wire.Pipeline
	// droppedNoticed: the first overflow gets a notice, later ones only
	// add to Session.Dropped.
	droppedNoticed bool
	outputLost     int
	// lastTime is the time of the frames being applied: the clock, to the
	// millisecond, when live; the last wire.Time frame when replaying.
	lastTime time.Time
	// replay: the frames come from a session file, with their own times.
	replay bool
	// packed decodes the packed errors messages of a replay.
	packed *wire.PackedDecoder
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
		maps:      map[uint32]sourceMapper{},
		newMap:    func(words []uint32) sourceMapper { return sourcemap.New(words) },
		groups:    map[groupKey]*groupState{},
		names:     map[uint64]string{},
		pipelines: map[uint64]*wire.Pipeline{},
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
// not decode is an error and changes nothing (it is not written to the
// session file either).
func (c *Collector) RecordFrame(k wire.Kind, payload []byte) error {
	var msg any
	var err error
	if c.replay && k == wire.KindErrorsPacked {
		// A replay is one goroutine, and the groups keep nothing of a
		// message's records: decode every one into the same room.
		if c.packed == nil {
			c.packed = &wire.PackedDecoder{}
		}
		msg, err = c.packed.Decode(payload)
	} else {
		msg, err = wire.Decode(k, payload)
	}
	if err != nil {
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
	if e, ok := msg.(*wire.Errors); ok && k == wire.KindErrors && c.file != nil && c.fileErr == nil {
		// Session files keep records packed (see wire.KindErrorsPacked).
		c.writeFrame(wire.KindErrorsPacked, wire.AppendPackedErrors(nil, e))
	} else {
		c.writeFrame(k, payload)
	}
	c.apply(msg)
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

// writeFrame appends a frame to the session file. Called with c.mu held.
func (c *Collector) writeFrame(k wire.Kind, payload []byte) {
	if c.file == nil || c.fileErr != nil {
		return
	}
	if err := wire.WriteRawFrame(c.file, k, payload); err != nil {
		c.fileErr = fmt.Errorf("session file: %w", err)
		c.addNotice("error", fmt.Sprintf("%v; the session is no longer saved", c.fileErr))
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
		if m.RecordFormat != 0 && m.RecordFormat != gpuav.RecordFormatVersion {
			c.addNotice("warning", fmt.Sprintf("the layer writes record format %d, this launcher reads %d: errors may be misread",
				m.RecordFormat, gpuav.RecordFormatVersion))
		}
	case *wire.Device:
		s.Device = Device{Name: m.Name, APIVersion: m.APIVersion, DescriptorSlot: m.DescriptorSlot, MaxBoundSets: m.MaxBoundDescriptorSets}
		c.deviceCapabilities(m.Name)
		if !m.Instrumenting {
			reason := m.Reason
			if reason == "" {
				reason = "no reason given"
			}
			c.addNotice("warning", fmt.Sprintf("device %s (%s): instrumentation disabled: %s", hexHandle(m.Handle), m.Name, reason))
		}
	case *wire.Shader:
		c.addShader(m)
	case *wire.Pipeline:
		c.pipelines[m.Handle] = m
		c.addPipeline(m)
		if !m.Instrumented {
			w := m.Warning
			if w == "" {
				w = "no reason given"
			}
			c.addNotice("warning", fmt.Sprintf("pipeline %s runs its original, unchecked shaders: %s", c.handle(m.Handle), w))
		} else if m.Warning != "" {
			c.addNotice("warning", fmt.Sprintf("pipeline %s: %s", c.handle(m.Handle), m.Warning))
		}
	case *wire.Name:
		c.setName(m.Handle, m.Name)
	case *wire.Label:
		// Records carry their label path; nothing to keep.
	case *wire.Errors:
		c.addErrors(m)
	case *wire.Log:
		c.addNotice(m.Level, m.Text)
	case *wire.Bye:
		s.Submits = max(s.Submits, m.Submits)
	case *wire.Time:
		if c.replay {
			c.lastTime = m.Time
		}
	case *wire.AppStarted:
		c.setSourceDirs(m)
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
	case *wire.AppOutput:
		if len(s.Output) < MaxOutputLines {
			s.Output = append(s.Output, OutputLine{Stream: m.Stream, Text: m.Text})
		} else {
			if c.outputLost == 0 {
				c.addNotice("warning", fmt.Sprintf("the app printed more than %d lines; later lines are not kept in memory", MaxOutputLines))
			}
			c.outputLost++
		}
	case *wire.AppExited:
		s.App.ExitCode, s.App.Signal = m.Code, m.Signal
		s.App.State = AppState(m.State)
		if s.App.State == "" {
			s.App.State = AppExited
		}
	case *wire.Capabilities:
		c.applyCapabilities(m)
	case *wire.Notice:
		level := m.Level
		if level == "" {
			level = "info"
		}
		s.Notices = append(s.Notices, Notice{Level: level, Text: m.Text, Time: m.Time})
	}
}

// settingsFrom converts wire settings, copying the map.
func settingsFrom(w wire.Settings) Settings {
	return Settings{Checks: maps.Clone(w.Checks), ReserveSlot: w.ReserveSlot, SafeMode: w.SafeMode}
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
		Warning: m.Warning}
	if len(m.SPIRV)%4 != 0 {
		c.addNotice("warning", fmt.Sprintf("shader %d: SPIR-V of %d bytes is not a whole number of words", m.ID, len(m.SPIRV)))
	}
	// A module left alone without a warning had nothing to check.
	what := "module " + c.handle(m.Module).String()
	if m.Object != 0 {
		what = "shader object " + c.handle(m.Object).String()
	}
	switch {
	case !m.Instrumented && m.Warning != "":
		c.addNotice("warning", fmt.Sprintf("shader %d (%s) is not checked: %s", m.ID, what, m.Warning))
	case m.Warning != "":
		c.addNotice("warning", fmt.Sprintf("shader %d (%s): %s", m.ID, what, m.Warning))
	}
}

// handle formats a handle with its debug name.
func (c *Collector) handle(h uint64) Handle {
	return Handle{Handle: hexHandle(h), Name: c.names[h]}
}

// setName records a debug name and renames the groups that refer to the
// handle.
func (c *Collector) setName(h uint64, name string) {
	c.names[h] = name
	c.renameModel(h, name)
	for _, st := range c.order {
		touched := false
		if st.cmdBuf == h {
			st.g.CommandBuffer.Name = name
			touched = true
		}
		if st.pipeline == h {
			st.g.Pipeline.Name = name
			touched = true
		}
		if st.module == h && (st.g.Shader.Module != "" || st.g.Shader.Object != "") {
			st.g.Shader.Name = name
			touched = true
		}
		if st.queue == h {
			st.g.Queue.Name = name
			touched = true
		}
		if st.primary == h {
			st.g.PrimaryCommandBuffer.Name = name
			touched = true
		}
		if touched {
			st.g.Message = buildMessage(st.g, st.what)
		}
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
	c.epoch++
	c.touched = c.touched[:0]
	tl := newTimelineBuilder(c, e)
	for i := range e.Records {
		r := &e.Records[i]
		check := r.Check
		if check == "" {
			check = gpuav.CheckCode(r.Code).CheckID()
		}
		key := groupKey{check: check, shader: r.ShaderID, instruction: r.Instruction, cmdBuf: e.CommandBuffer, action: r.ActionIndex}
		count := r.Count
		if count <= 0 {
			count = 1
		}
		raw := rawOf(r.Stage, r.StageWords)
		st, ok := c.groups[key]
		if !ok {
			st = c.newGroup(e, r, check, raw)
			c.groups[key] = st
			c.order = append(c.order, st)
			s.Groups = append(s.Groups, st.g)
		}
		g := st.g
		g.Count += count
		g.LastSubmit = max(g.LastSubmit, e.Submit)
		st.last = raw
		if len(st.samples) < MaxSamples && !slices.Contains(st.samples, raw) {
			st.samples = append(st.samples, raw)
			g.Samples = append(g.Samples, raw.coords())
		}
		first := st.epoch != c.epoch
		if first {
			st.epoch = c.epoch
			c.touched = append(c.touched, st)
		}
		tl.add(r, st, count, first)
	}
	for _, st := range c.touched {
		if !st.dirty {
			st.dirty = true
			c.dirty = append(c.dirty, st)
		}
	}
	tl.finish()
}

// flush brings the groups that records were added to up to date: their
// last coordinates and their messages. It runs when a snapshot is taken,
// so a burst of messages (or a whole file replayed) builds each message
// once. Called with c.mu held.
func (c *Collector) flush() {
	for _, st := range c.dirty {
		if st.last != st.lastBuilt {
			st.lastBuilt = st.last
			st.g.LastCoords = st.last.coords()
		}
		st.g.Message = buildMessage(st.g, st.what)
		st.dirty = false
	}
	c.dirty = c.dirty[:0]
}

// newGroup starts a group from its first record.
func (c *Collector) newGroup(e *wire.Errors, r *wire.Record, check string, raw rawCoords) *groupState {
	var params [gpuav.RecordParams]uint32
	copy(params[:], r.Params)
	d := gpuav.Describe(gpuav.CheckCode(r.Code), params)
	coords := raw.coords()
	g := &ErrorGroup{
		Check:         check,
		VUID:          d.VUID(r.Action),
		Stage:         gpuav.StageName(r.Stage),
		Coords:        coords,
		LastCoords:    coords,
		CommandBuffer: c.handle(e.CommandBuffer),
		Submit:        e.Submit,
		ActionIndex:   r.ActionIndex,
		Action:        r.Action,
		Pipeline:      c.handle(r.Pipeline),
		Shader:        ShaderRef{ID: r.ShaderID},
		Instruction:   r.Instruction,
	}
	if len(r.Labels) > 0 {
		g.Labels = slices.Clone(r.Labels)
	}
	if d.HasDescriptor {
		g.Descriptor = &Descriptor{Set: d.Set, Binding: d.Binding, Index: d.Index, ArrayLength: d.Length}
	}
	g.Ray = rayOf(d.Ray)
	g.BDA = bdaOf(d.BDA)
	g.Buffer = bufferOf(d.Buffer)
	g.Texel = texelOf(d.Texel)
	g.Level = LevelError
	if d.Warning {
		g.Level = LevelWarning
	}
	g.Samples = []Coords{coords}
	st := &groupState{g: g, what: d.Message, cmdBuf: e.CommandBuffer, pipeline: r.Pipeline,
		index: len(c.s.Groups), samples: []rawCoords{raw}, last: raw, lastBuilt: raw}
	// The queue and the primary are the first submit's: they are not part
	// of the group key (docs/decisions/queue-and-primary-not-in-group-key.md).
	if e.Queue != 0 {
		st.queue = e.Queue
		g.Queue = c.handle(e.Queue)
	}
	if e.Primary != 0 {
		st.primary = e.Primary
		g.PrimaryCommandBuffer = c.handle(e.Primary)
		pa := e.PrimaryAction
		g.PrimaryActionIndex = &pa
	}
	if sh, ok := c.s.Shaders[r.ShaderID]; ok && sh.Object != 0 {
		st.module = sh.Object
		g.Shader.Object = hexHandle(sh.Object)
		g.Shader.Name = c.names[sh.Object]
	} else if ok {
		st.module = sh.Module
		g.Shader.Module = hexHandle(sh.Module)
		g.Shader.Name = c.names[sh.Module]
	}
	g.Source = c.source(r.ShaderID, r.Instruction)
	return st
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
// source lines, output lines) are never modified once added.
func (c *Collector) Snapshot() *Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flush()
	return c.s.clone()
}

// clone copies a session deep enough for one writer and many readers.
func (s *Session) clone() *Session {
	out := *s
	out.Groups = make([]*ErrorGroup, len(s.Groups))
	for i, g := range s.Groups {
		cp := *g
		cp.Samples = slices.Clip(g.Samples)
		out.Groups[i] = &cp
	}
	out.Notices = slices.Clone(s.Notices)
	out.Pipelines = maps.Clone(s.Pipelines)
	out.Timeline = slices.Clone(s.Timeline)
	out.Output = slices.Clip(s.Output)
	out.Shaders = maps.Clone(s.Shaders)
	out.Sources = maps.Clone(s.Sources)
	return &out
}
