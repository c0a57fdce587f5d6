package main

/*
#include <stdlib.h>
#include "messenger.h"
*/
import "C"

import (
	"fmt"
	"hash/fnv"
	"strings"
	"unsafe"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/internal/sanitize"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// The layer's messages also go to the app's VK_EXT_debug_utils messengers
// (messenger.c), always: with or without the launcher. They are queued
// under state.mu and delivered by flushOutbox once the lock is released,
// because a callback may call back into Vulkan (and so into the layer).

// Debug-utils severities and types (VkDebugUtilsMessageSeverityFlagBitsEXT,
// VkDebugUtilsMessageTypeFlagBitsEXT).
const (
	sevInfo    = C.VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT
	sevWarning = C.VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT
	sevError   = C.VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT

	typeGeneral    = C.VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT
	typeValidation = C.VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT
)

// duplicateLimit is how many messages of one group (check, shader,
// instruction) a messenger receives, as the Khronos layer's
// duplicate_message_limit; one more line says the rest are suppressed.
const duplicateLimit = 10

// object is one object a messenger message names.
type object struct {
	handle uint64
	typ    uint32 // VkObjectType
	name   string
}

// outMsg is one queued messenger message.
type outMsg struct {
	severity, typ uint32
	idName        string
	text          string
	objects       []object
}

// messengerID is the message id number of a VUID or id name, as a 32-bit
// hash (the Khronos layer hashes its VUIDs too); a printf line has the
// Khronos layer's own number.
func messengerID(name string) int32 {
	if name == printfIDName {
		n := uint32(printfIDNumber)
		return int32(n)
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return int32(h.Sum32())
}

// haveMessengers reports whether the app has a debug-utils messenger.
func haveMessengers() bool { return C.gpuavdbg_messenger_count() > 0 }

// queueLocked adds a message for the messengers. Callers hold state.mu.
func queueLocked(m outMsg) {
	if len(state.outbox) < 4096 {
		state.outbox = append(state.outbox, m)
	}
}

// vvlText writes a message the way the Khronos layer does:
// "Validation Error: [ VUID ] Object 0: handle = 0x..., name = ..., type =
// VK_OBJECT_TYPE_...; | MessageID = 0x... | text".
func vvlText(kind, idName string, objs []object, text string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: [ %s ]", kind, idName)
	for i, o := range objs {
		fmt.Fprintf(&b, " Object %d: handle = 0x%x", i, o.handle)
		if o.name != "" {
			fmt.Fprintf(&b, ", name = %s", o.name)
		}
		fmt.Fprintf(&b, ", type = %s;", vkObjectTypeName(o.typ))
	}
	fmt.Fprintf(&b, " | MessageID = 0x%x | %s", uint32(messengerID(idName)), text)
	return b.String()
}

func vkObjectTypeName(t uint32) string {
	switch t {
	case C.VK_OBJECT_TYPE_COMMAND_BUFFER:
		return "VK_OBJECT_TYPE_COMMAND_BUFFER"
	case C.VK_OBJECT_TYPE_PIPELINE:
		return "VK_OBJECT_TYPE_PIPELINE"
	case C.VK_OBJECT_TYPE_QUEUE:
		return "VK_OBJECT_TYPE_QUEUE"
	case C.VK_OBJECT_TYPE_DEVICE:
		return "VK_OBJECT_TYPE_DEVICE"
	case C.VK_OBJECT_TYPE_SHADER_MODULE:
		return "VK_OBJECT_TYPE_SHADER_MODULE"
	}
	return fmt.Sprintf("VK_OBJECT_TYPE_%d", t)
}

// queueRecordLocked queues one error group of msg, its message m, for the
// messengers: under its VUID's name (VUID-...), else GPUAV-DBG-<check>.
// Callers hold state.mu.
func queueRecordLocked(msg wire.Errors, r wire.Record, m gpuav.ErrorMessage) {
	key := fmt.Sprintf("%s/%d/%d", r.Check, r.ShaderID, r.Instruction)
	state.messengerDups[key]++
	n := state.messengerDups[key]
	if n > duplicateLimit+1 {
		return
	}
	idName := "GPUAV-DBG-" + r.Check
	if strings.HasPrefix(m.VUID, "VUID-") {
		idName = m.VUID
	}
	objs := []object{{msg.CommandBuffer, C.VK_OBJECT_TYPE_COMMAND_BUFFER, nameFor(msg.CommandBuffer, msg.CommandBufferSerial)}}
	if msg.Primary != 0 {
		objs = append(objs, object{msg.Primary, C.VK_OBJECT_TYPE_COMMAND_BUFFER, nameFor(msg.Primary, msg.PrimarySerial)})
	}
	if r.Pipeline != 0 {
		objs = append(objs, object{r.Pipeline, C.VK_OBJECT_TYPE_PIPELINE, nameFor(r.Pipeline, r.PipelineSerial)})
	}
	if msg.Queue != 0 {
		objs = append(objs, object{msg.Queue, C.VK_OBJECT_TYPE_QUEUE, state.names[msg.Queue]})
	}
	text := m.Text()
	if n == duplicateLimit+1 {
		text = fmt.Sprintf("further messages of %s in shader %d, instruction %d are suppressed (limit %d)",
			r.Check, r.ShaderID, r.Instruction, duplicateLimit)
	}
	queueLocked(outMsg{severity: sevError, typ: typeValidation, idName: idName,
		text: vvlText("Validation Error", idName, objs, text), objects: objs})
}

// queueLogLocked queues a log line for the messengers, at INFO or WARNING
// severity: ERROR is for the app's validation errors only, and an app
// that stops on them must not stop over the layer's own state (every check
// off, records that did not fit, a shader left out). Callers hold
// state.mu.
func queueLogLocked(level int, text string) {
	sev, kind := uint32(sevInfo), "Validation Information"
	if level == levelWarning || level == levelError {
		sev, kind = sevWarning, "Validation Warning"
	}
	idName := "GPUAV-DBG-layer"
	queueLocked(outMsg{severity: sev, typ: typeGeneral | typeValidation, idName: idName,
		text: vvlText(kind, idName, nil, text)})
}

// flushOutbox delivers the queued messages. Callers do not hold state.mu;
// every exported function defers it.
func flushOutbox() {
	state.mu.Lock()
	out := state.outbox
	state.outbox = nil
	state.mu.Unlock()
	for _, m := range out {
		emit(m)
	}
}

func emit(m outMsg) {
	// The app's callback may print it: its module's file names and
	// source text, its debug names, reach it escaped.
	idName := C.CString(sanitize.Text(m.idName))
	text := C.CString(sanitize.Block(m.text))
	defer C.free(unsafe.Pointer(idName))
	defer C.free(unsafe.Pointer(text))
	n := len(m.objects)
	var handles [8]C.uint64_t
	var types [8]C.uint32_t
	var names [8]*C.char
	if n > 8 {
		n = 8
	}
	for i := 0; i < n; i++ {
		handles[i] = C.uint64_t(m.objects[i].handle)
		types[i] = C.uint32_t(m.objects[i].typ)
		if m.objects[i].name != "" {
			names[i] = C.CString(m.objects[i].name)
			defer C.free(unsafe.Pointer(names[i]))
		}
	}
	// The arrays are Go memory without Go pointers (C strings are C
	// memory): cgo lets C read them during the call.
	C.gpuavdbg_emit(C.uint32_t(m.severity), C.uint32_t(m.typ), idName, C.int32_t(messengerID(m.idName)), text,
		C.uint32_t(n), &handles[0], &types[0], &names[0])
}
