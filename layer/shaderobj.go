package main

/*
#include "layer.h"
*/
import "C"

import (
	"fmt"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// This file is the Go side of shaderobj.c (VK_EXT_shader_object).

// goShaderObjectCreated completes a shader after vkCreateShadersEXT, as
// goShaderCreated does for a module: object is the VkShaderEXT, or 0 when
// creation failed. why, when not empty, replaces the shader's warning (the
// reason the layer did not instrument it); note is appended to it. It
// sends the Shader message, with the object in place of a module.
//
//export goShaderObjectCreated
func goShaderObjectCreated(dev C.uint64_t, id C.uint32_t, object C.uint64_t, instrumented C.int, why, note *C.char) {
	defer recovered("goShaderObjectCreated")
	defer flushOutbox()
	state.mu.Lock()
	defer state.mu.Unlock()
	s := state.shaders[uint32(id)]
	if s == nil {
		return
	}
	if object == 0 {
		delete(state.shaders, s.id)
		return
	}
	s.object = uint64(object)
	s.instrumented = instrumented != 0
	if w := C.GoString(why); w != "" {
		s.warning = w
	}
	if n := C.GoString(note); n != "" {
		if s.warning != "" {
			s.warning += "; "
		}
		s.warning += n
	}
	if !s.instrumented && s.warning != "" {
		logLocked(levelInfo, fmt.Sprintf("shader %d (shader object 0x%x): %s", s.id, s.object, s.warning))
	}
	sendLocked(wire.KindShader, wire.Shader{
		ID:               s.id,
		Object:           s.object,
		SPIRV:            wordsToBytes(s.spirv),
		Instrumented:     s.instrumented,
		Warning:          s.warning,
		InstrumentMicros: s.micros,
	})
}
