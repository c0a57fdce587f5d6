// Package cprintf calls the C library's snprintf with one argument, as the
// Khronos validation layer does for each piece of a debugPrintfEXT format
// string: the reference the tests of gpuav/printf compare against. Tests
// only; the product formats in Go.
package cprintf

/*
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

static int fmt_none(char *buf, size_t n, const char *f) { return snprintf(buf, n, f, 0); }
static int fmt_uint(char *buf, size_t n, const char *f, uint32_t v) { return snprintf(buf, n, f, v); }
static int fmt_ulong(char *buf, size_t n, const char *f, uint64_t v) { return snprintf(buf, n, f, (unsigned long long)v); }
static int fmt_double(char *buf, size_t n, const char *f, double v) { return snprintf(buf, n, f, v); }
*/
import "C"

import (
	"math"
	"unsafe"
)

// Arg is the C type of the one argument.
type Arg int

const (
	None   Arg = iota // no argument
	Uint32            // a uint32_t (an int conversion with no length modifier)
	Uint64            // an unsigned long long (l, ll: the register the layer's uint32 or uint64 fills)
	Float             // a float's bits, promoted to double
)

// Sprintf is snprintf(format, arg) for the argument's low bits as the Arg
// says, whole however long (a first call into 4096 bytes, a second into
// the length it asked for).
func Sprintf(format string, arg Arg, bits uint64) string {
	f := C.CString(format)
	defer C.free(unsafe.Pointer(f))
	return call(func(p *C.char, n C.size_t) C.int {
		switch arg {
		case None:
			return C.fmt_none(p, n, f)
		case Uint32:
			return C.fmt_uint(p, n, f, C.uint32_t(bits))
		case Uint64:
			return C.fmt_ulong(p, n, f, C.uint64_t(bits))
		}
		return C.fmt_double(p, n, f, C.double(math.Float32frombits(uint32(bits))))
	})
}

// Double is snprintf of a double, for the float conversions over all of
// double's range.
func Double(format string, v float64) string {
	f := C.CString(format)
	defer C.free(unsafe.Pointer(f))
	return call(func(p *C.char, n C.size_t) C.int { return C.fmt_double(p, n, f, C.double(v)) })
}

// call runs an snprintf into 4096 bytes, and again into as many as it
// needed when that was more (the reference was cut at 4,095 bytes, so a
// wide field made FuzzSprint report a difference that was not there).
func call(sn func(p *C.char, n C.size_t) C.int) string {
	buf := make([]C.char, 4096)
	r := sn(&buf[0], C.size_t(len(buf)))
	if r < 0 {
		return "<snprintf failed>"
	}
	if int(r) >= len(buf) {
		buf = make([]C.char, int(r)+1)
		sn(&buf[0], C.size_t(len(buf)))
	}
	return C.GoStringN(&buf[0], r)
}
