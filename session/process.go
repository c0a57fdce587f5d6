package session

import "github.com/gpuav-dbg/gpuav-dbg/session/wire"

// Connection is one connection of the layer, as the collector sees it:
// the process behind it and how its shader ids map to the session's.
//
// Every process's layer numbers its shaders from 1: a child process that
// uses Vulkan (fork and exec) has a shader 1 of its own. The collector
// gives each connection's shaders session-wide ids (the layer's own when
// free, the next free one when another connection has it) and translates
// every shader id the connection sends (pipelines, records, printf sites,
// lost counts) before applying it, so that a child's records point at its
// own shaders. The serials of pipelines and command buffers restart at 1
// in every process too, and are translated the same way, so that a name
// the child gives its pipeline 1 never names the parent's. The session
// file holds the translated messages (and each shader's process), so that
// open needs no connection to read them.
type Connection struct {
	pid     int
	ids     map[uint32]uint32
	serials map[serialKey]uint64
}

// NewConnection returns the state of a new connection (Server.serve).
func NewConnection() *Connection {
	return &Connection{ids: map[uint32]uint32{}, serials: map[serialKey]uint64{}}
}

// sessionSerial is the session's serial for the connection's serial of a
// pipeline or command buffer (kind: objPipeline, objCommandBuffer), given
// on its first sight: the layer's own when no connection has it, else the
// next free one. Called with c.mu held.
func (c *Collector) sessionSerial(conn *Connection, kind string, serial uint64) uint64 {
	if serial == 0 {
		return 0
	}
	k := serialKey{kind, serial}
	if s, ok := conn.serials[k]; ok {
		return s
	}
	s := serial
	if c.serialsGiven[k] {
		s = c.maxSerial[kind] + 1
	}
	c.maxSerial[kind] = max(c.maxSerial[kind], s)
	c.serialsGiven[serialKey{kind, s}] = true
	conn.serials[k] = s
	return s
}

// sessionShaderID is the session's id for the connection's shader id,
// given on its first sight. Called with c.mu held.
func (c *Collector) sessionShaderID(conn *Connection, id uint32) uint32 {
	if id == 0 {
		return 0
	}
	if s, ok := conn.ids[id]; ok {
		return s
	}
	s := id
	if c.shaderIDTaken(id) {
		s = c.maxShaderID + 1
	}
	c.maxShaderID = max(c.maxShaderID, s)
	conn.ids[id] = s
	return s
}

// shaderIDTaken reports whether a session shader id is another
// connection's (or one of this session's already). Called with c.mu held.
func (c *Collector) shaderIDTaken(id uint32) bool {
	_, ok := c.s.Shaders[id]
	return ok || id <= c.maxShaderID && c.idsGiven[id]
}

// translate rewrites the shader ids of a message from conn into the
// session's and reports whether it changed anything (the message is then
// written to the session file as translated). A shader gets its process's
// pid. Called with c.mu held.
func (c *Collector) translate(conn *Connection, msg any) bool {
	if conn == nil {
		return false
	}
	changed := false
	tr := func(id *uint32) {
		if *id == 0 {
			return
		}
		s, ok := conn.ids[*id]
		if ok && s != *id {
			*id, changed = s, true
		}
	}
	serial := func(kind string, v *uint64) {
		if s := c.sessionSerial(conn, kind, *v); s != *v {
			*v, changed = s, true
		}
	}
	switch m := msg.(type) {
	case *wire.Hello:
		conn.pid = m.PID
	case *wire.Shader:
		s := c.sessionShaderID(conn, m.ID)
		c.idsGiven[s] = true
		changed = s != m.ID || m.PID != conn.pid
		m.ID, m.PID = s, conn.pid
	case *wire.Pipeline:
		serial(objPipeline, &m.Serial)
		for i := range m.Stages {
			tr(&m.Stages[i].ShaderID)
		}
	case *wire.Name:
		if m.ObjectType == objPipeline || m.ObjectType == objCommandBuffer {
			serial(m.ObjectType, &m.Serial)
		}
	case *wire.Errors:
		serial(objCommandBuffer, &m.CommandBufferSerial)
		serial(objCommandBuffer, &m.PrimarySerial)
		for i := range m.Records {
			tr(&m.Records[i].ShaderID)
			serial(objPipeline, &m.Records[i].PipelineSerial)
		}
	case *wire.Printf:
		serial(objCommandBuffer, &m.CommandBufferSerial)
		serial(objCommandBuffer, &m.PrimarySerial)
		for i := range m.Sites {
			tr(&m.Sites[i].ShaderID)
			serial(objPipeline, &m.Sites[i].PipelineSerial)
		}
	case *wire.Lost:
		for i := range m.Groups {
			tr(&m.Groups[i].ShaderID)
		}
	}
	return changed
}
