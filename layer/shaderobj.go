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
// reason the layer did not instrument it). refused, when not 0, is the
// VkResult with which the driver refused the shader's instrumented code:
// the layer made it from the app's code (shaderobj.c), and its warning
// says so (refusedObjectNote). It sends the Shader message, with the
// object in place of a module.
//
//export goShaderObjectCreated
func goShaderObjectCreated(dev C.uint64_t, id C.uint32_t, object C.uint64_t, instrumented C.int, why *C.char,
	refused C.int32_t) {
	defer recovered("goShaderObjectCreated")
	defer flushOutbox()
	note := ""
	if refused != 0 {
		note = refusedObjectNote(int32(refused))
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	completeShaderLocked(uint32(id), uint64(object), true, instrumented != 0, C.GoString(why), note)
}

// refusedObjectNote is why a shader object the driver refused with the
// layer's code runs unchecked.
func refusedObjectNote(result int32) string {
	return fmt.Sprintf("the driver refused its instrumented code: %s; it runs the app's original code, unchecked",
		resultName(result))
}

// binaryReason is why a shader object made from binary code runs
// unchecked.
const binaryReason = "created from binary code (VK_SHADER_CODE_TYPE_BINARY_EXT) the layer did not hand out: " +
	"the driver's code, which the layer cannot instrument, runs as the app gave it (create the shader from SPIR-V " +
	"to have it checked)"

// goShaderObjectBinary records a shader object the app made from binary
// code the layer did not hand out (vkGetShaderBinaryDataEXT's of this run
// are made from their SPIR-V instead): it gets a shader id and goes to the
// session as a shader left unchecked, with the reason (the run exits 4).
//
//export goShaderObjectBinary
func goShaderObjectBinary(dev, object C.uint64_t, stage C.uint32_t) {
	defer recovered("goShaderObjectBinary")
	defer flushOutbox()
	state.mu.Lock()
	defer state.mu.Unlock()
	state.nextShaderID++
	s := &shader{id: state.nextShaderID, device: uint64(dev), object: uint64(object), warning: binaryReason}
	state.shaders[s.id] = s
	noteLocked(levelWarning, fmt.Sprintf("shader %d (%s shader object 0x%x): %s", s.id, stageName(uint32(stage)),
		s.object, s.warning))
	sendLocked(wire.KindShader, wire.Shader{ID: s.id, Object: s.object, Warning: s.warning})
}
