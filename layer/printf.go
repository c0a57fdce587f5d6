package main

// #include "layer.h"
import "C"

import (
	"fmt"
	"os"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/gpuav/printf"
	"github.com/gpuav-dbg/gpuav-dbg/internal/sanitize"
	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// printfLinesPerMessage and printfBytesPerMessage bound one Printf
// message's lines and their bytes (a submit with more is sent in several;
// base64 makes 16 MiB about 22 MB of frame, below wire.MaxPayload).
const (
	printfLinesPerMessage = 1 << 16
	printfBytesPerMessage = 16 << 20
)

// goPrintfBufferBytes is the printf buffer size for the instance's devices
// (resources.c: printf_words); a small one when printf is off.
//
//export goPrintfBufferBytes
func goPrintfBufferBytes(instance C.uint64_t) C.uint32_t {
	defer recovered("goPrintfBufferBytes")
	state.mu.Lock()
	defer state.mu.Unlock()
	s := instanceSettingsOf(uint64(instance))
	if s.PrintfOff {
		return C.uint32_t(gpuav.PrintfHeaderWords * 4)
	}
	return C.uint32_t(s.PrintfBufferBytes)
}

// printfKey is one call site in one action: one wire.PrintfSite.
type printfKey struct{ shader, site, action uint32 }

// BuildPrintf decodes one command buffer's printf buffer into Printf
// messages (at most printfLinesPerMessage lines and printfBytesPerMessage
// bytes of lines each, the lost count in the first), grouping the lines by action and call site in the order their
// first line was written. sites gives a shader's printf sites (nil: an
// unknown shader). bad counts the lines that match no site of their
// shader, or carry another number of words, and the words that could not
// be read; they are in no message.
func BuildPrintf(submit, queue uint64, cb SubmittedCB, sites func(shader uint32) []gpuav.PrintfSite) (
	msgs []wire.Printf, bad int) {
	index := map[printfKey]int{}
	msg := wire.Printf{Submit: submit, Queue: queue, CommandBuffer: cb.Handle, CommandBufferSerial: cb.Serial,
		Primary: cb.Primary, PrimarySerial: cb.PrimarySerial, PrimaryAction: cb.PrimaryAction}
	n, bytes := 0, 0
	// last is the site of the line before: most lines are of the same
	// call as the line before them.
	last, lastAt := printfKey{}, -1
	var ss []gpuav.PrintfSite
	lastShader := ^uint32(0)
	out := gpuav.DecodePrintf(cb.PrintfWords, func(l *gpuav.PrintfLine) {
		if l.ShaderID != lastShader {
			ss, lastShader = sites(l.ShaderID), l.ShaderID
		}
		if int(l.Site) >= len(ss) || ss[l.Site].Words != len(l.Args) {
			bad++
			return
		}
		lineBytes := 4 * (3 + len(l.Args))
		if n == printfLinesPerMessage || bytes+lineBytes > printfBytesPerMessage {
			msgs = append(msgs, msg)
			msg = wire.Printf{Submit: submit, Queue: queue, CommandBuffer: cb.Handle, CommandBufferSerial: cb.Serial,
				Primary: cb.Primary, PrimarySerial: cb.PrimarySerial, PrimaryAction: cb.PrimaryAction}
			clear(index)
			n, bytes, lastAt = 0, 0, -1
		}
		k := printfKey{l.ShaderID, l.Site, l.ActionIndex}
		i, ok := lastAt, lastAt >= 0 && k == last
		if !ok {
			i, ok = index[k]
		}
		if !ok {
			i = len(msg.Sites)
			index[k] = i
			s := wire.PrintfSite{ActionIndex: l.ActionIndex, ShaderID: l.ShaderID,
				Instruction: uint32(ss[l.Site].Instruction), Stage: l.Stage, Args: uint32(len(l.Args))}
			if int(l.ActionIndex) < len(cb.Actions) {
				a := &cb.Actions[l.ActionIndex]
				s.Action, s.Pipeline, s.PipelineSerial, s.Labels = a.Command, a.Pipeline, a.PipelineSerial, a.Labels
			}
			msg.Sites = append(msg.Sites, s)
		}
		last, lastAt = k, i
		msg.Sites[i].AppendLine(l.StageWords, l.Args)
		n++
		bytes += lineBytes
	})
	bad += out.Skipped
	if len(msgs) > 0 {
		msgs[0].Lost = uint64(out.Lost)
	} else {
		msg.Lost = uint64(out.Lost)
	}
	if n > 0 || msg.Lost > 0 {
		msgs = append(msgs, msg)
	}
	return msgs, bad
}

// reportPrintf sends the printf lines of one command buffer to the
// launcher or, with none, to the app's debug-utils messengers as the
// Khronos layer's Debug Printf does (one message per line), or with
// neither prints them to stderr; lines it cannot read and lines lost are
// logged with their count.
func reportPrintf(submit, queue uint64, cb SubmittedCB) {
	if len(cb.PrintfWords) < gpuav.PrintfHeaderWords || cb.PrintfWords[gpuav.PrintfWrittenWord] == 0 &&
		cb.PrintfWords[gpuav.PrintfLostWord] == 0 {
		return
	}
	// The messengers' lines, delivered once the lock is released (a
	// callback may call Vulkan); not through the outbox, whose bound is
	// for the layer's own messages.
	var lines []outMsg
	withLock(func() {
		msgs, bad := BuildPrintf(submit, queue, cb, func(code uint32) []gpuav.PrintfSite {
			if sh := shaderOfCodeLocked(code, 0); sh != nil {
				return sh.printf
			}
			return nil
		})
		// The lines' code ids name their shaders (codeid.go).
		for _, m := range msgs {
			for i := range m.Sites {
				if sh := shaderOfCodeLocked(m.Sites[i].ShaderID, m.Sites[i].PipelineSerial); sh != nil {
					m.Sites[i].ShaderID = sh.id
				}
			}
		}
		if bad > 0 {
			logLocked(levelWarning, fmt.Sprintf("command buffer 0x%x, submit %d: %d printf words or lines could not be read "+
				"(no such call site, or a length that is not the call's): not shown", cb.Handle, submit, bad))
		}
		for _, m := range msgs {
			switch {
			case sendLocked(wire.KindPrintf, m):
			case haveMessengers():
				eachPrintfLineLocked(m, func(dev uint64, text string) { lines = append(lines, printfMessageLocked(dev, text)) })
				if m.Lost > 0 {
					// After the lines: the outbox is delivered after them.
					localLogLocked(levelWarning, printfLostText(m), false)
				}
			default:
				eachPrintfLineLocked(m, func(_ uint64, text string) {
					fmt.Fprintf(os.Stderr, "gpuav-dbg: printf: %s\n", sanitize.Block(text))
				})
				if m.Lost > 0 {
					fmt.Fprintf(os.Stderr, "gpuav-dbg: WARNING %s\n", printfLostText(m))
				}
			}
		}
	})
	for _, m := range lines {
		emit(m)
	}
}

// The Khronos layer's Debug Printf message id: its name, and its number
// (the Khronos layer's hash of the name, not messengerID's), so that an
// app that picks printf messages by either gets ours too.
const (
	printfIDName   = "UNASSIGNED-DEBUG-PRINTF"
	printfIDNumber = 0x92394c89
)

// printfMessageLocked is the messenger message of one printf line of a
// shader of device dev, as the Khronos layer (1.3.239) sends it: severity
// info, type validation, the device as its object, and the text
// "Validation Information: [ UNASSIGNED-DEBUG-PRINTF ] Object 0: handle =
// 0x..., type = VK_OBJECT_TYPE_DEVICE; | MessageID = 0x92394c89 | LINE".
// Callers hold state.mu.
func printfMessageLocked(dev uint64, text string) outMsg {
	objs := []object{{dev, C.VK_OBJECT_TYPE_DEVICE, state.names[dev]}}
	return outMsg{severity: sevInfo, typ: typeValidation, idName: printfIDName,
		text: vvlText("Validation Information", printfIDName, objs, text), objects: objs}
}

// printfLostText says how many lines of a message's command buffer and
// submit did not fit.
func printfLostText(m wire.Printf) string {
	return fmt.Sprintf("command buffer 0x%x, submit %d: %d printf lines did not fit in the printf buffer (%s)",
		m.CommandBuffer, m.Submit, m.Lost, options.PrintfBufferBytes.Env)
}

// eachPrintfLineLocked calls f with each line of a message, formatted with
// its call's format string, and the device of its shader. Callers hold
// state.mu.
func eachPrintfLineLocked(m wire.Printf, f func(dev uint64, text string)) {
	for _, s := range m.Sites {
		sh := state.shaders[s.ShaderID]
		if sh == nil {
			continue
		}
		format := printfFormat(sh, s.Instruction)
		args := make([]uint32, s.Args)
		for i := range s.Count() {
			s.Line(i, args)
			text, _ := format.Sprint(args)
			f(sh.device, text)
		}
	}
}

// printfFormat is the parsed format string of a shader's call at
// instruction (an empty format when the module has none there).
func printfFormat(sh *shader, instruction uint32) *printf.Format {
	sites, _ := printf.Sites(sh.spirv)
	for _, s := range sites {
		if s.Instruction == int(instruction) {
			return printf.Parse(s.Format)
		}
	}
	return printf.Parse("")
}
