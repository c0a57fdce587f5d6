package main

/*
#include "layer.h"
*/
import "C"

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
	completeShaderLocked(uint32(id), uint64(object), true, instrumented != 0, C.GoString(why), C.GoString(note))
}
