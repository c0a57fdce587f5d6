package main

import (
	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// Code ids (docs/decisions/deterministic-instrumentation.md). The id an
// instrumented module's records carry in their first word is not the
// shader's id (its creation order, which the session and every message
// use) but its code id: derived from the module's original words and the
// options it is instrumented with (gpuav.Options.Key), so that the same
// module with the same settings is instrumented into the same bytes
// whatever the order and the thread of its creation, and the driver's
// pipeline caches hit. The layer maps a record's code id back to its
// shader: modules of equal key share a code id (their sites are the same),
// and the action's pipeline says which of them ran; a key whose id
// another key has (a 32-bit collision) takes the next free id.

// codeEntry is the modules of one code key, in creation order.
type codeEntry struct {
	key     gpuav.CodeKey
	shaders []*shader
}

// codes and pipelineShaders are guarded by state.mu.
var (
	// codes: by code id.
	codes = map[uint32]*codeEntry{}
	// pipelineShaders: the shader ids of a pipeline's stages (its
	// libraries' included), by pipeline serial (a reused handle is another
	// pipeline), while it lives.
	pipelineShaders = map[uint64][]uint32{}
)

// assignCodeLocked gives s the code id of key: the key's own (ID), or the
// next one that no other key has. Callers hold state.mu.
func assignCodeLocked(s *shader, key gpuav.CodeKey) uint32 {
	id := key.ID()
	for {
		e := codes[id]
		if e == nil {
			e = &codeEntry{key: key}
			codes[id] = e
		}
		if e.key == key {
			e.shaders = append(e.shaders, s)
			s.code = id
			return id
		}
		if id++; id == 0 {
			id = 1
		}
	}
}

// forgetCodeLocked takes s out of its code's modules. Callers hold
// state.mu.
func forgetCodeLocked(s *shader) {
	e := codes[s.code]
	if s.code == 0 || e == nil {
		return
	}
	for i, x := range e.shaders {
		if x == s {
			e.shaders = append(e.shaders[:i:i], e.shaders[i+1:]...)
			break
		}
	}
	if len(e.shaders) == 0 {
		delete(codes, s.code)
	}
}

// shaderOfCodeLocked returns the shader whose module ran a record of code
// id code in an action of the pipeline of that serial: its stage of that
// code, else the newest module of the code (shader objects, and a
// pipeline the layer does not know); nil for a code no known module has. Only shaders
// complete in state.shaders count. Callers hold state.mu.
func shaderOfCodeLocked(code uint32, serial uint64) *shader {
	e := codes[code]
	if e == nil {
		return nil
	}
	if serial != 0 {
		for _, id := range pipelineShaders[serial] {
			if s := state.shaders[id]; s != nil && s.code == code {
				return s
			}
		}
	}
	var found *shader
	for i := len(e.shaders) - 1; i >= 0; i-- {
		if s := e.shaders[i]; state.shaders[s.id] == s {
			if s.instrumented {
				return s
			}
			if found == nil {
				found = s
			}
		}
	}
	return found
}

// codeResolver maps (code id, pipeline serial) to shader ids for one command
// buffer's records, taking the lock once per pair.
type codeResolver struct {
	seen map[[2]uint64]*shader
}

// shader returns the shader of a record (nil: none known).
func (r *codeResolver) shader(code uint32, pipeline uint64) *shader {
	k := [2]uint64{uint64(code), pipeline}
	s, ok := r.seen[k]
	if !ok {
		withLock(func() { s = shaderOfCodeLocked(code, pipeline) })
		if r.seen == nil {
			r.seen = map[[2]uint64]*shader{}
		}
		r.seen[k] = s
	}
	return s
}

// id returns the shader id of a record's code id: 0 stays 0 (the layer's
// own records), and a code no module has keeps its value (the decoder
// has skipped its records already).
func (r *codeResolver) id(code uint32, pipeline uint64) uint32 {
	if code == 0 {
		return 0
	}
	if s := r.shader(code, pipeline); s != nil {
		return s.id
	}
	return code
}

// rememberPipelineShadersLocked keeps the shader ids of a pipeline's
// stages, for shaderOfCodeLocked. Callers hold state.mu.
func rememberPipelineShadersLocked(serial uint64, stages []wire.PipelineRef) {
	ids := make([]uint32, 0, len(stages))
	for _, st := range stages {
		if st.ShaderID != 0 {
			ids = append(ids, st.ShaderID)
		}
	}
	if len(ids) == 0 {
		delete(pipelineShaders, serial)
		return
	}
	pipelineShaders[serial] = ids
}
