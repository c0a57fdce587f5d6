package printf

import (
	"math"
	"math/bits"
	"strconv"
)

// This file is C's printf for one conversion, as glibc's snprintf writes
// it in the C locale: the Khronos layer hands each piece of a format string
// to snprintf, so the text of a line is what glibc makes of that piece.

// argClass is the C type of the one argument the Khronos layer passes with
// a piece, which decides which register a conversion reads it from.
type argClass uint8

const (
	argNone  argClass = iota // no argument (a piece of text only)
	argInt32                 // a uint32_t or int32_t: an integer register, zero-extended
	argInt64                 // a uint64_t (the pieces %ul, %lu and %lx)
	argFloat                 // a float, promoted to double
)

// length is a C length modifier.
type length uint8

const (
	lenNone length = iota
	lenHH          // hh: char
	lenH           // h: short
	lenL1          // l: 64 bits; nothing for a float conversion
	lenLong        // ll, q, j, z, t: 64 bits
	lenL           // L: long long; long double for a float conversion
)

// maxField is the largest width or precision taken: C allows more, but the
// Khronos layer mis-prints a piece of 1024 characters or more, and a
// shader's format string must not make the layer build huge lines.
const maxField = 1000

// spec is one parsed conversion: %[flags][width][.precision][length]verb.
type spec struct {
	minus, plus, space, hash, zero bool
	width                          int
	prec                           int // -1: none
	length                         length
	verb                           byte
}

// parseSpec parses the conversion at s[0] == '%'. It returns the spec and
// the bytes it took; ok is false for something glibc's snprintf would not
// write the same way every time (a '*' or '$' field, an unknown verb, an
// incomplete conversion, a field over maxField).
func parseSpec(s string) (sp spec, n int, ok bool) {
	sp.prec = -1
	i := 1
flags:
	for ; i < len(s); i++ {
		switch s[i] {
		case '-':
			sp.minus = true
		case '+':
			sp.plus = true
		case ' ':
			sp.space = true
		case '#':
			sp.hash = true
		case '0':
			sp.zero = true
		case '\'', 'I': // grouping and locale digits: nothing in the C locale
		default:
			break flags
		}
	}
	var good bool
	if sp.width, i, good = number(s, i); !good {
		return sp, i, false
	}
	if i < len(s) && s[i] == '.' {
		if sp.prec, i, good = number(s, i+1); !good {
			return sp, i, false
		}
	}
	sp.length, i = lengthAt(s, i)
	if i >= len(s) {
		return sp, i, false
	}
	sp.verb = s[i]
	switch sp.verb {
	case 'd', 'i', 'o', 'u', 'x', 'X', 'a', 'A', 'e', 'E', 'f', 'F', 'g', 'G', '%':
		return sp, i + 1, true
	}
	return sp, i + 1, false
}

// number reads decimal digits at s[i:] (none is 0); ok is false past maxField.
func number(s string, i int) (v, next int, ok bool) {
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		v = v*10 + int(s[i]-'0')
		if v > maxField {
			return 0, i, false
		}
	}
	return v, i, true
}

// lengthAt reads a length modifier at s[i:].
func lengthAt(s string, i int) (length, int) {
	if i >= len(s) {
		return lenNone, i
	}
	switch s[i] {
	case 'h':
		if i+1 < len(s) && s[i+1] == 'h' {
			return lenHH, i + 2
		}
		return lenH, i + 1
	case 'l':
		if i+1 < len(s) && s[i+1] == 'l' {
			return lenLong, i + 2
		}
		return lenL1, i + 1
	case 'q', 'j', 'z', 't':
		return lenLong, i + 1
	case 'L':
		return lenL, i + 1
	}
	return lenNone, i
}

// isFloatVerb reports whether the verb reads a double.
func isFloatVerb(v byte) bool {
	switch v {
	case 'a', 'A', 'e', 'E', 'f', 'F', 'g', 'G':
		return true
	}
	return false
}

// accepts reports whether glibc reads an argument of class c for sp the
// same way every time: a float conversion reads a double (an integer
// argument leaves it reading whatever the register holds), an integer
// conversion an integer register.
func (sp *spec) accepts(c argClass) bool {
	if isFloatVerb(sp.verb) {
		return c == argFloat && (sp.length == lenNone || sp.length == lenL1)
	}
	return c == argInt32 || c == argInt64
}

// appendArg appends the conversion of the argument bits (a zero-extended
// integer register, or a float's bits) of class c.
func (sp *spec) appendArg(dst []byte, c argClass, bits uint64) []byte {
	if isFloatVerb(sp.verb) {
		return sp.appendFloat(dst, float64(math.Float32frombits(uint32(bits))))
	}
	return sp.appendInt(dst, bits)
}

// appendInt appends an integer conversion of the register value r.
func (sp *spec) appendInt(dst []byte, r uint64) []byte {
	signed := sp.verb == 'd' || sp.verb == 'i'
	var u uint64
	neg := false
	switch sp.length {
	case lenHH:
		u = uint64(uint8(r))
		if signed && int8(r) < 0 {
			u, neg = uint64(-int64(int8(r))), true
		}
	case lenH:
		u = uint64(uint16(r))
		if signed && int16(r) < 0 {
			u, neg = uint64(-int64(int16(r))), true
		}
	case lenL1, lenLong, lenL:
		u = r
		if signed && int64(r) < 0 {
			u, neg = -r, true
		}
	default:
		u = uint64(uint32(r))
		if signed && int32(r) < 0 {
			u, neg = uint64(-int64(int32(r))), true
		}
	}
	var buf [24]byte
	var digits []byte
	switch sp.verb {
	case 'o':
		digits = strconv.AppendUint(buf[:0], u, 8)
	case 'x':
		digits = strconv.AppendUint(buf[:0], u, 16)
	case 'X':
		digits = upper(strconv.AppendUint(buf[:0], u, 16))
	default:
		digits = strconv.AppendUint(buf[:0], u, 10)
	}
	if sp.prec == 0 && u == 0 {
		digits = digits[:0]
	}
	zeros := 0
	if sp.prec > len(digits) {
		zeros = sp.prec - len(digits)
	}
	if sp.verb == 'o' && sp.hash && zeros == 0 && (len(digits) == 0 || digits[0] != '0') {
		zeros = 1
	}
	var prefix string
	switch {
	case neg:
		prefix = "-"
	case signed && sp.plus:
		prefix = "+"
	case signed && sp.space:
		prefix = " "
	case sp.hash && u != 0 && sp.verb == 'x':
		prefix = "0x"
	case sp.hash && u != 0 && sp.verb == 'X':
		prefix = "0X"
	}
	return sp.pad(dst, prefix, zeros, digits, sp.zero && sp.prec < 0)
}

// pad appends prefix, zeros '0's and body, padded to the width: spaces on
// the right with '-', else zeros after the prefix when zeroPad, else spaces
// on the left.
func (sp *spec) pad(dst []byte, prefix string, zeros int, body []byte, zeroPad bool) []byte {
	n := len(prefix) + zeros + len(body)
	fill := 0
	if sp.width > n {
		fill = sp.width - n
	}
	if !sp.minus && !zeroPad {
		dst = repeat(dst, ' ', fill)
	}
	dst = append(dst, prefix...)
	if !sp.minus && zeroPad {
		dst = repeat(dst, '0', fill)
	}
	dst = repeat(dst, '0', zeros)
	dst = append(dst, body...)
	if sp.minus {
		dst = repeat(dst, ' ', fill)
	}
	return dst
}

func repeat(dst []byte, c byte, n int) []byte {
	for ; n > 0; n-- {
		dst = append(dst, c)
	}
	return dst
}

func upper(b []byte) []byte {
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return b
}

// appendFloat appends a float conversion of v.
func (sp *spec) appendFloat(dst []byte, v float64) []byte {
	up := sp.verb >= 'A' && sp.verb <= 'Z'
	prefix := ""
	switch {
	case math.Signbit(v):
		prefix = "-"
	case sp.plus:
		prefix = "+"
	case sp.space:
		prefix = " "
	}
	v = math.Abs(v)
	var buf [64]byte
	var body []byte
	switch {
	case math.IsInf(v, 0):
		body = append(buf[:0], "inf"...)
	case math.IsNaN(v):
		body = append(buf[:0], "nan"...)
	default:
		switch sp.verb | 0x20 {
		case 'f':
			body = sp.fixed(buf[:0], v, sp.precOr(6))
		case 'e':
			body = sp.exp(buf[:0], v, sp.precOr(6))
		case 'g':
			body = sp.general(buf[:0], v)
		case 'a':
			body = sp.hex(buf[:0], v)
			if up {
				prefix += "0X"
			} else {
				prefix += "0x"
			}
		}
		if up {
			body = upper(body)
		}
		return sp.pad(dst, prefix, 0, body, sp.zero)
	}
	if up {
		body = upper(body)
	}
	return sp.pad(dst, prefix, 0, body, false)
}

func (sp *spec) precOr(def int) int {
	if sp.prec < 0 {
		return def
	}
	return sp.prec
}

// fixed is %f: prec digits after the point; '#' keeps a point with none.
func (sp *spec) fixed(dst []byte, v float64, prec int) []byte {
	dst = strconv.AppendFloat(dst, v, 'f', prec, 64)
	if sp.hash && prec == 0 {
		dst = append(dst, '.')
	}
	return dst
}

// exp is %e: one digit, prec after the point, an exponent of at least two
// digits (strconv writes C's form).
func (sp *spec) exp(dst []byte, v float64, prec int) []byte {
	start := len(dst)
	dst = strconv.AppendFloat(dst, v, 'e', prec, 64)
	if sp.hash && prec == 0 {
		// 1e+00 → 1.e+00
		e := start + 1
		dst = append(dst[:e], append([]byte{'.'}, dst[e:]...)...)
	}
	return dst
}

// general is %g: precision P significant digits (6 by default, 1 for 0);
// %f when the exponent X of the rounded value has P > X ≥ -4, else %e; then
// trailing zeros (and a trailing point) removed unless '#'.
func (sp *spec) general(dst []byte, v float64) []byte {
	p := sp.precOr(6)
	if p == 0 {
		p = 1
	}
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], v, 'e', p-1, 64)
	x := exponentOf(e)
	start := len(dst)
	if p > x && x >= -4 {
		dst = strconv.AppendFloat(dst, v, 'f', p-1-x, 64)
	} else {
		dst = strconv.AppendFloat(dst, v, 'e', p-1, 64)
	}
	if sp.hash {
		if !hasPoint(dst[start:]) {
			dst = insertPoint(dst, start)
		}
		return dst
	}
	return trimZeros(dst, start)
}

// exponentOf reads the exponent of strconv's 'e' form ("1.5e+02" → 2).
func exponentOf(e []byte) int {
	for i := len(e) - 1; i >= 0; i-- {
		if e[i] == 'e' {
			x, _ := strconv.Atoi(string(e[i+1:]))
			return x
		}
	}
	return 0
}

func hasPoint(b []byte) bool {
	for _, c := range b {
		if c == '.' {
			return true
		}
	}
	return false
}

// insertPoint puts a '.' after the digits of the mantissa of dst[start:].
func insertPoint(dst []byte, start int) []byte {
	i := start
	for i < len(dst) && dst[i] >= '0' && dst[i] <= '9' {
		i++
	}
	dst = append(dst, 0)
	copy(dst[i+1:], dst[i:])
	dst[i] = '.'
	return dst
}

// trimZeros removes trailing zeros of the fraction of dst[start:] (before
// an exponent), and the point when nothing follows it.
func trimZeros(dst []byte, start int) []byte {
	if !hasPoint(dst[start:]) {
		return dst
	}
	end := len(dst)
	for i := start; i < len(dst); i++ {
		if dst[i] == 'e' {
			end = i
			break
		}
	}
	j := end
	for j > start && dst[j-1] == '0' {
		j--
	}
	if j > start && dst[j-1] == '.' {
		j--
	}
	return append(dst[:j], dst[end:]...)
}

// hex is %a without its "0x": glibc writes the leading digit 1 (0 for zero
// and subnormals), the fraction's hex digits (all but trailing zeros, or
// prec of them rounded to nearest, ties to even; a carry makes the leading
// digit 2), and a binary exponent.
func (sp *spec) hex(dst []byte, v float64) []byte {
	b := math.Float64bits(v)
	frac := b & (1<<52 - 1)
	exp := int(b>>52) & 0x7ff
	lead := uint64(1)
	switch {
	case exp == 0 && frac == 0:
		lead, exp = 0, 0
	case exp == 0:
		lead, exp = 0, -1022
	default:
		exp -= 1023
	}
	digits := 13 // hex digits of the 52-bit fraction
	if sp.prec < 0 {
		for digits > 0 && frac&0xf == 0 {
			frac >>= 4
			digits--
		}
	} else if sp.prec < digits {
		drop := uint(4 * (digits - sp.prec))
		rest := frac & (1<<drop - 1)
		frac >>= drop
		half := uint64(1) << (drop - 1)
		last := frac // the last digit kept: the leading one when none of the fraction is
		if sp.prec == 0 {
			last = lead
		}
		if rest > half || rest == half && last&1 == 1 {
			frac++
			if bits.Len64(frac) > 4*sp.prec {
				frac &= 1<<(4*uint(sp.prec)) - 1
				lead++
			}
		}
		digits = sp.prec
	}
	dst = append(dst, byte('0'+lead))
	if digits > 0 || sp.prec > 0 || sp.hash {
		dst = append(dst, '.')
	}
	if digits > 0 {
		var tmp [16]byte
		h := strconv.AppendUint(tmp[:0], frac, 16)
		dst = repeat(dst, '0', digits-len(h))
		dst = append(dst, h...)
	}
	if sp.prec > digits {
		dst = repeat(dst, '0', sp.prec-digits)
	}
	dst = append(dst, 'p')
	if exp >= 0 {
		dst = append(dst, '+')
	}
	return strconv.AppendInt(dst, int64(exp), 10)
}
