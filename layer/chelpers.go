package main

/*
#include "cmdbuf.h"
#include "ground.h"
#include "submit.h"
*/
import "C"

import (
	"fmt"

	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// This file holds Go's calls into the C half's helpers (never into
// Vulkan), each declared in the header of the room that defines it. It
// exports nothing, so those headers stay out of _cgo_export.h, which the
// C files of every floor include: that sees only layer.h.

// gpuavdbg_cmd values (state.h) the tests use, and their count.
const (
	cmdDraw                     = C.GPUAVDBG_CMD_DRAW
	cmdDispatch                 = C.GPUAVDBG_CMD_DISPATCH
	cmdDrawIndexedIndirectCount = C.GPUAVDBG_CMD_DRAW_INDEXED_INDIRECT_COUNT
	cmdCount                    = C.GPUAVDBG_CMD_COUNT
)

// connectionFd tells the C half the launcher connection's socket (-1:
// none), which a forked child closes without Go (ground.c).
func connectionFd(fd int) { C.gpuavdbg_set_connection_fd(C.int(fd)) }

// commandName names a recorded gpuavdbg_cmd (vkCmdDispatch...).
func commandName(c uint32) string {
	if n := C.gpuavdbg_cmd_name(C.uint32_t(c)); n != nil {
		return C.GoString(n)
	}
	return fmt.Sprintf("command(%d)", c)
}

// handTestHooks gives the C half the test hooks' values (options.TestHooks),
// read with the process's settings before any device exists.
func handTestHooks(t options.TestHooks) {
	binds := 0
	if t.Binds {
		binds = 1
	}
	C.gpuavdbg_set_test_hooks(C.uint64_t(t.FailAlloc), C.int64_t(t.MaxDrawIndirectCount), C.int(binds))
}

// submitLatency is the submit-to-records latency (submit.c): submissions
// read, their total and maximum ns.
func submitLatency() (n, sum, maxNs uint64) {
	var cn, csum, cmax C.uint64_t
	C.gpuavdbg_latency(&cn, &csum, &cmax)
	return uint64(cn), uint64(csum), uint64(cmax)
}

// submitCounts are the process's coverage counts (submit.c), for the bye.
func submitCounts() *wire.SubmitCounts {
	var cv C.gpuavdbg_coverage
	C.gpuavdbg_coverage_counts(&cv)
	return &wire.SubmitCounts{CommandBuffers: uint64(cv.command_buffers), Actions: uint64(cv.actions),
		Instrumented: uint64(cv.instrumented), Precise: uint64(cv.precise)}
}
