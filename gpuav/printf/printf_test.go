package printf

import (
	"math"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/cprintf"
)

// f is a float's word, i an int's, u64 a 64-bit value's two words.
func f(v float32) uint32 { return math.Float32bits(v) }
func i(v int32) uint32   { return uint32(v) }
func u64(v uint64) []uint32 {
	return []uint32{uint32(v), uint32(v >> 32)}
}

func cat(parts ...any) []uint32 {
	var w []uint32
	for _, p := range parts {
		switch v := p.(type) {
		case uint32:
			w = append(w, v)
		case []uint32:
			w = append(w, v...)
		}
	}
	return w
}

// The lines of the Khronos layer's own Debug Printf tests (1.3.239,
// tests/vklayertests_debug_printf.cpp), then the rules of its split.
var sprintTests = []struct {
	name   string
	format string
	words  []uint32
	want   string
	prob   Problem
}{
	{"two floats", "Here are two float values %f, %f", cat(f(1), f(3.1415)), "Here are two float values 1.000000, 3.141500", 0},
	{"precision", "Here's a smaller float value %1.2f", cat(f(3.1415)), "Here's a smaller float value 3.14", 0},
	{"int in text", "Here's an integer %i with text before and after it", cat(i(-135)), "Here's an integer -135 with text before and after it", 0},
	{"octal hex", "Here's an integer in octal %o and hex 0x%x", cat(i(256), i(256)), "Here's an integer in octal 400 and hex 0x100", 0},
	{"negative first", "%d is a negative integer", cat(i(-135)), "-135 is a negative integer", 0},
	{"vector", "Here's a vector of floats %1.2v4f", cat(f(1.2), f(2.2), f(3.2), f(4.2)), "Here's a vector of floats 1.20, 2.20, 3.20, 4.20", 0},
	{"sn", "Here's a float in sn %e", cat(f(3.1415)), "Here's a float in sn 3.141500e+00", 0},
	{"sn precision", "Here's a float in sn %1.2e", cat(f(3.1415)), "Here's a float in sn 3.14e+00", 0},
	{"shortest", "Here's a float in shortest %g", cat(f(3.1415)), "Here's a float in shortest 3.1415", 0},
	{"hex float", "Here's a float in hex %1.9a", cat(f(3.1415)), "Here's a float in hex 0x1.921cac000p+1", 0},
	{"percent no value", "First printf with a %% and no value", nil, "First printf with a % and no value", 0},
	{"ul is hex", "Here's an unsigned long 0x%ul", u64(0x2000000000000001), "Here's an unsigned long 0x2000000000000001", 0},
	{"vector of ul", "Here's a vector of ul %v4ul", cat(u64(0x2000000000000001), u64(0x2000000000000000), u64(0x10), u64(0xf)),
		"Here's a vector of ul 2000000000000001, 2000000000000000, 10, f", 0},
	{"lu and lx", "Unsigned long as decimal %lu and as hex 0x%lx", cat(u64(0x2000000000000001), u64(0x2000000000000001)),
		"Unsigned long as decimal 2305843009213693953 and as hex 0x2000000000000001", 0},
	{"vertex", "Vertex shader %i, 0x%x", cat(i(0), i(0x1030507)), "Vertex shader 0, 0x1030507", 0},
	{"newline kept", "Fragment shader 0x%x\n", cat(i(0x2040608)), "Fragment shader 0x2040608\n", 0},

	// The split's rules.
	{"empty", "", nil, "", 0},
	{"no conversion", "plain text", nil, "plain text", 0},
	{"every letter", "%d %i %u %x %X %o", cat(i(-1), i(-2), i(-3), i(255), i(255), i(8)), "-1 -2 4294967293 ff FF 10", 0},
	{"float letters", "%f %F %e %E %g %G %a %A", cat(f(0.5), f(float32(math.Inf(1))), f(1024), f(1024), f(1e-5), f(1e-5), f(-1), f(10)),
		"0.500000 INF 1.024000e+03 1.024000E+03 1e-05 1E-05 -0x1p+0 0X1.4P+3", 0},
	{"nan", "%f %F", cat(uint32(0x7fc00000), uint32(0xffc00000)), "nan -NAN", 0},
	{"flags widths", "[%5d][%-5d][%05d][%+d][% d][%.3d][%#x][%#o][%8.3f][%-8.2e]", cat(i(42), i(42), i(-42), i(42), i(42), i(7), i(255), i(8), f(3.14159), f(2.5)),
		"[   42][42   ][-0042][+42][ 42][007][0xff][010][   3.142][2.50e+00]", 0},
	{"vec2 to vec4", "%v2d|%v3u|%v4x", cat(i(-1), i(2), i(3), i(4), i(5), i(10), i(11), i(12), i(13)), "-1, 2|3, 4, 5|a, b, c, d", 0},
	{"vector precision", "(%.1v3f)", cat(f(1), f(2.25), f(-3)), "(1.0, 2.2, -3.0)", 0},
	{"lv2u is 64-bit decimal", "%lv2u", cat(u64(1<<40), u64(7)), "1099511627776, 7", 0},
	{"percent then text", "100%% done, %d left", cat(i(3)), "100% done, 3 left", 0},
	{"percent at end", "x %", nil, "x %", ProblemSpec},
	{"l after letter", "%dl", cat(i(-5)), "-5l", 0},
	{"ld reads the zero-extended register", "%ld", cat(i(-1)), "4294967295", 0},
	{"hd", "%hd %hhu", cat(i(70000), i(-1)), "4464 255", 0},
	{"lf is f", "%lf", cat(f(2)), "2.000000", 0},
	{"lu after percent-percent", "%%lu %d", u64(0xffffffff00000005), "%lu 5", 0},
	{"8lu is 32-bit", "%8lu|%d", cat(i(7), i(8)), "       7|8", 0},
	{"unused words", "%d", cat(i(1), i(2)), "1", 0},
	{"bool", "%u %u", cat(uint32(1), uint32(0)), "1 0", 0},

	// What snprintf would print differently from run to run.
	{"string", "name %s here %d", cat(f(1), i(2)), "name %s here 2", ProblemSpec},
	{"star", "%*d", cat(i(1)), "%*d", ProblemSpec},
	{"float as int register", "%fl", cat(f(1)), "%fl", ProblemSpec},
	{"two conversions", "%c%d", cat(i(65)), "%c%d", ProblemSpec},
	{"long double", "%Lf", cat(f(1)), "%Lf", ProblemSpec},
	{"vector cut short", "%v", nil, "%v", ProblemSpec},
	{"vector too long", "%v99f", nil, "%v99f", ProblemSpec},
	{"missing", "%d and %d", cat(i(1)), "1 and %d", ProblemMissing},
	{"missing 64-bit half", "%lu", cat(i(1)), "%lu", ProblemMissing},
	{"width over the cap", "%2000d", cat(i(1)), "%2000d", ProblemSpec},
}

func TestSprint(t *testing.T) {
	for _, tc := range sprintTests {
		t.Run(tc.name, func(t *testing.T) {
			got, prob := Sprint(tc.format, tc.words)
			if got != tc.want || prob != tc.prob {
				t.Errorf("Sprint(%q, %#x) = %q, %v; want %q, %v", tc.format, tc.words, got, prob, tc.want, tc.prob)
			}
		})
	}
}

// TestPiecesMatchC formats each piece of the table's formats with C's
// snprintf, as the Khronos layer does, and compares.
func TestPiecesMatchC(t *testing.T) {
	for _, tc := range sprintTests {
		if tc.prob != 0 {
			continue
		}
		if got, want := viaC(Parse(tc.format), tc.words), tc.want; got != want {
			t.Errorf("%s: snprintf per piece of %q = %q; the table says %q", tc.name, tc.format, got, want)
		}
	}
}

// viaC formats a line the way the Khronos layer does: each piece's C text
// through snprintf with its one argument.
func viaC(fm *Format, words []uint32) string {
	var b strings.Builder
	for _, p := range fm.pieces {
		var bits uint64
		bits, words, _ = p.class.take(words)
		b.WriteString(cprintf.Sprintf(withoutLocaleDigits(p.c), cArg(&p), bits))
	}
	return b.String()
}

// withoutLocaleDigits drops glibc's I flag (the locale's digits) from a
// piece's flags: in the C locale it changes nothing, which is what Sprint
// does with it, but glibc 2.39 (Ubuntu 24.04, the NVIDIA machine) prints
// "%If" of 0x30303030 as ".", where 2.36 prints "0.000000".
func withoutLocaleDigits(c string) string {
	i := strings.IndexByte(c, '%')
	if i < 0 {
		return c
	}
	j := i + 1
	for j < len(c) && strings.IndexByte("-+ #0'I", c[j]) >= 0 {
		j++
	}
	return c[:i+1] + strings.ReplaceAll(c[i+1:j], "I", "") + c[j:]
}

// cArg is the C argument the layer's call puts in the register the piece's
// conversion reads: a uint32 zero-extended for a long conversion.
func cArg(p *piece) cprintf.Arg {
	switch {
	case p.class == argNone:
		return cprintf.None
	case p.class == argFloat:
		return cprintf.Float
	case p.class == argInt64, p.conv && p.sp.length >= lenL1:
		return cprintf.Uint64
	}
	return cprintf.Uint32
}

// conversionValues are words worth formatting with every conversion.
var conversionValues = []uint32{
	0, 1, 7, 42, 255, 0x7fffffff, 0x80000000, 0xffffffff, i(-135),
	f(0), f(-0.0), f(1), f(-1), f(0.5), f(1.5), f(2.5), f(3.1415), f(1.97), f(1e-5), f(1e-4), f(123456), f(1234567),
	f(1e38), f(-1e-38), f(math.MaxFloat32), f(math.SmallestNonzeroFloat32), 0x00400000, f(float32(math.Inf(-1))), 0x7fc00000, 0xffc00001,
	f(0.1), f(9.5), f(99999.5), f(0.00001234), f(1 + 1.0/8192),
}

// TestConversionsMatchC compares every conversion letter with a grid of
// flags, widths and precisions against snprintf.
func TestConversionsMatchC(t *testing.T) {
	flags := []string{"", "-", "+", " ", "#", "0", "-0", "+0", "#0", "- #"}
	fields := []string{"", "1", "8", "12", ".0", ".1", ".3", ".10", "8.3", "1.9", "20.0", "."}
	lengths := []string{"", "l", "h", "hh", "ll"}
	n := 0
	for _, verb := range "diouxXfFeEgGaA" {
		for _, fl := range flags {
			for _, fd := range fields {
				for _, ln := range lengths {
					text := "<%" + fl + fd + ln + string(verb) + ">"
					class := classOf(byte(verb))
					p := compile(rawPiece{text: text, class: class})
					if p.bad {
						if isFloatVerb(byte(verb)) && (ln == "" || ln == "l") {
							t.Errorf("%q: not taken", text)
						}
						continue
					}
					for _, w := range conversionValues {
						got := string(p.sp.appendArg([]byte(p.prefix), p.class, uint64(w))) + p.suffix
						if want := cprintf.Sprintf(p.c, cArg(&p), uint64(w)); got != want {
							t.Errorf("%q of %#x: %q; snprintf: %q", text, w, got, want)
						}
						n++
					}
				}
			}
		}
	}
	t.Logf("%d conversions compared", n)
}

// TestHexFloatOfDoubles compares %a over double's whole range (subnormals
// and rounding carries included) against snprintf.
func TestHexFloatOfDoubles(t *testing.T) {
	values := []float64{0, 1, 1.97, 0x1.fffffffffffffp+0, 1e-310, 5e-324, math.MaxFloat64, 0x1.08p+0, 0x1.18p+0, 0x1.0000000000001p-1022}
	for _, v := range values {
		for _, text := range []string{"%a", "%.0a", "%.1a", "%.2a", "%.12a", "%.13a", "%.20a", "%#.0a", "%020.3A"} {
			sp, _, ok := parseSpec(text)
			if !ok {
				t.Fatalf("%q not parsed", text)
			}
			if got, want := string(sp.appendFloat(nil, v)), cprintf.Double(text, v); got != want {
				t.Errorf("%q of %v: %q; snprintf: %q", text, v, got, want)
			}
		}
	}
}

// FuzzConversion compares one conversion with random fields and value
// against snprintf.
func FuzzConversion(f *testing.F) {
	f.Add(uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), uint32(0))
	f.Add(uint8(31), uint8(12), uint8(5), uint8(2), uint8(13), uint32(0x40490e56))
	f.Fuzz(func(t *testing.T, flagBits, width, prec, length, verb uint8, w uint32) {
		const verbs = "diouxXfFeEgGaA"
		var b strings.Builder
		b.WriteByte('%')
		for k, c := range "-+ #0" {
			if flagBits&(1<<k) != 0 {
				b.WriteRune(c)
			}
		}
		if width%4 != 0 {
			b.WriteString(itoa(int(width % 40)))
		}
		if prec%5 != 0 {
			b.WriteString("." + itoa(int(prec%30)))
		}
		b.WriteString([]string{"", "l", "h", "hh", "ll", "j", "z", "t", "L", "q"}[length%10])
		v := verbs[int(verb)%len(verbs)]
		b.WriteByte(v)
		text := b.String()
		p := compile(rawPiece{text: text, class: classOf(v)})
		if p.bad {
			return
		}
		got := string(p.sp.appendArg([]byte(p.prefix), p.class, uint64(w))) + p.suffix
		if want := cprintf.Sprintf(p.c, cArg(&p), uint64(w)); got != want {
			t.Errorf("%q of %#x: %q; snprintf: %q", text, w, got, want)
		}
	})
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// FuzzSprint formats random format strings: it never panics, reads at most
// Words() words, and every piece printed without a problem is what
// snprintf prints for it.
func FuzzSprint(f *testing.F) {
	for _, tc := range sprintTests {
		b := make([]byte, 0, 4*len(tc.words))
		for _, w := range tc.words {
			b = append(b, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
		}
		f.Add(tc.format, b)
	}
	// A piece wider than 4,095 bytes: the reference is whole (cprintf).
	f.Add("%5000d|%-4100x", []byte{7, 0, 0, 0, 0xff, 0, 0, 0})
	f.Fuzz(func(t *testing.T, format string, raw []byte) {
		words := make([]uint32, len(raw)/4)
		for k := range words {
			words[k] = uint32(raw[4*k]) | uint32(raw[4*k+1])<<8 | uint32(raw[4*k+2])<<16 | uint32(raw[4*k+3])<<24
		}
		fm := Parse(format)
		got, prob := fm.Sprint(words)
		if fm.Problem() != 0 && prob&ProblemSpec == 0 && len(words) >= fm.Words() {
			t.Errorf("%q: the format has a problem the line does not report", format)
		}
		if (prob&ProblemMissing != 0) != (len(words) < fm.Words()) {
			t.Errorf("%q with %d words (format reads %d): problem %v", format, len(words), fm.Words(), prob)
		}
		if prob != 0 || strings.IndexByte(format, 0) >= 0 {
			return
		}
		if want := viaC(fm, words); got != want {
			t.Errorf("%q with %#x: %q; snprintf per piece: %q", format, words, got, want)
		}
	})
}
