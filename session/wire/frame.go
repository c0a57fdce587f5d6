package wire

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
)

// A frame is an 8-byte header followed by a JSON payload:
//
//	| byte | meaning                                        |
//	|------|------------------------------------------------|
//	| 0, 1 | magic 'G', 'V'                                 |
//	| 2    | Kind                                           |
//	| 3    | reserved, must be 0                            |
//	| 4-7  | payload length in bytes, uint32 little-endian  |
//
// The payload is one JSON object, the message of that kind.
const (
	// HeaderSize is the size of a frame header in bytes.
	HeaderSize = 8
	// MaxPayload is the largest payload a frame may carry (64 MiB).
	MaxPayload = 64 << 20
)

// Magic is the first two bytes of every frame.
var Magic = [2]byte{'G', 'V'}

// Errors a frame reader returns, wrapped with details; test them with
// errors.Is.
var (
	// ErrBadMagic: the frame does not start with "GV".
	ErrBadMagic = errors.New("bad frame magic")
	// ErrReserved: the reserved header byte is not zero.
	ErrReserved = errors.New("reserved header byte is not zero")
	// ErrUnknownKind: the frame's kind is not one this version knows.
	ErrUnknownKind = errors.New("unknown message kind")
	// ErrTooLarge: the payload length exceeds MaxPayload.
	ErrTooLarge = errors.New("frame too large")
	// ErrTruncated: the stream ended inside a frame.
	ErrTruncated = errors.New("truncated frame")
	// ErrProtocol: a hello announced a protocol version other than
	// ProtocolVersion.
	ErrProtocol = errors.New("unsupported protocol version")
	// ErrMismatch: WriteFrame was given a message of another kind's type.
	ErrMismatch = errors.New("message type does not match kind")
)

// kindInfo describes one kind: its name, its message type and, for a
// payload that is not JSON, its codec.
type kindInfo struct {
	kind  Kind
	name  string
	typ   reflect.Type
	codec *binaryCodec
}

// message is the row of messageTypes for kind k, whose message is a T.
func message[T any](k Kind, name string) kindInfo {
	return kindInfo{kind: k, name: name, typ: reflect.TypeFor[T]()}
}

// with gives a kind a binary codec.
func (i kindInfo) with(c binaryCodec) kindInfo {
	i.codec = &c
	return i
}

// new returns a pointer to a zero message of the kind.
func (i *kindInfo) new() any { return reflect.New(i.typ).Interface() }

// binaryCodec replaces JSON for the payload of a kind that has one.
type binaryCodec struct {
	decode func([]byte) (any, error)
	encode func(any) ([]byte, error)
}

// kinds indexes messageTypes by kind; byType by message type (a type
// that two kinds share, such as Errors, is its JSON kind's).
var kinds, byType = indexKinds(messageTypes)

func indexKinds(list []kindInfo) (map[Kind]*kindInfo, map[reflect.Type]Kind) {
	ks := map[Kind]*kindInfo{}
	ts := map[reflect.Type]Kind{}
	for i := range list {
		info := &list[i]
		if _, dup := ks[info.kind]; dup {
			panic(fmt.Sprintf("wire: kind %d listed twice", info.kind))
		}
		ks[info.kind] = info
		if _, ok := ts[info.typ]; !ok && info.codec == nil {
			ts[info.typ] = info.kind
		}
	}
	// A type only a binary kind has is that kind's (AppOutputBlock).
	for i := range list {
		if info := &list[i]; info.codec != nil {
			if _, ok := ts[info.typ]; !ok {
				ts[info.typ] = info.kind
			}
		}
	}
	return ks, ts
}

// Kinds lists every kind this version reads and writes, in messageTypes
// order.
func Kinds() []Kind {
	out := make([]Kind, len(messageTypes))
	for i, info := range messageTypes {
		out[i] = info.kind
	}
	return out
}

// New returns a pointer to a zero message of kind k (a *Hello for
// KindHello), or nil for an unknown kind.
func New(k Kind) any {
	info, ok := kinds[k]
	if !ok {
		return nil
	}
	return info.new()
}

// KindByName returns the kind a name names ("hello"), and false for an
// unknown name.
func KindByName(name string) (Kind, bool) {
	for _, info := range messageTypes {
		if info.name == name {
			return info.kind, true
		}
	}
	return 0, false
}

// Known reports whether k is a kind this version understands.
func (k Kind) Known() bool {
	_, ok := kinds[k]
	return ok
}

// String names a kind ("hello", "errors"...), or "kind(N)" when unknown.
func (k Kind) String() string {
	if info, ok := kinds[k]; ok {
		return info.name
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// KindOf returns the kind of a message value or pointer (a *Hello or a
// Hello is KindHello), and false for any other type.
func KindOf(msg any) (Kind, bool) {
	t := reflect.TypeOf(msg)
	if t == nil {
		return 0, false
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	k, ok := byType[t]
	return k, ok
}

// Encode returns the frame (header and JSON payload) that carries msg as a
// message of kind k. A msg whose type belongs to another kind is refused
// (ErrMismatch); a msg of a type no kind owns is encoded as is.
func Encode(k Kind, msg any) ([]byte, error) {
	if !k.Known() {
		return nil, fmt.Errorf("encode %v: %w", k, ErrUnknownKind)
	}
	codec := kinds[k].codec
	if mk, ok := KindOf(msg); ok && mk != k && codec == nil {
		return nil, fmt.Errorf("encode %v: got a %v message: %w", k, mk, ErrMismatch)
	}
	var payload []byte
	var err error
	if codec != nil {
		payload, err = codec.encode(msg)
	} else {
		payload, err = json.Marshal(msg)
	}
	if err != nil {
		return nil, fmt.Errorf("encode %v: %w", k, err)
	}
	return EncodeRaw(k, payload)
}

// EncodeRaw returns the frame that carries an already encoded payload.
func EncodeRaw(k Kind, payload []byte) ([]byte, error) {
	if !k.Known() {
		return nil, fmt.Errorf("encode %v: %w", k, ErrUnknownKind)
	}
	if len(payload) > MaxPayload {
		return nil, fmt.Errorf("encode %v: payload of %d bytes (max %d): %w", k, len(payload), MaxPayload, ErrTooLarge)
	}
	frame := make([]byte, HeaderSize+len(payload))
	frame[0], frame[1], frame[2], frame[3] = Magic[0], Magic[1], byte(k), 0
	binary.LittleEndian.PutUint32(frame[4:8], uint32(len(payload)))
	copy(frame[HeaderSize:], payload)
	return frame, nil
}

// WriteFrame writes msg as one frame of kind k, with a single Write call
// (so frames written to a shared file by one writer at a time never
// interleave).
func WriteFrame(w io.Writer, k Kind, msg any) error {
	frame, err := Encode(k, msg)
	if err != nil {
		return err
	}
	if _, err := w.Write(frame); err != nil {
		return fmt.Errorf("write %v frame: %w", k, err)
	}
	return nil
}

// WriteRawFrame writes an already encoded payload as one frame of kind k.
func WriteRawFrame(w io.Writer, k Kind, payload []byte) error {
	frame, err := EncodeRaw(k, payload)
	if err != nil {
		return err
	}
	if _, err := w.Write(frame); err != nil {
		return fmt.Errorf("write %v frame: %w", k, err)
	}
	return nil
}

// ParseHeader checks a frame header and returns its kind and payload
// length.
func ParseHeader(h [HeaderSize]byte) (Kind, int, error) {
	if h[0] != Magic[0] || h[1] != Magic[1] {
		return 0, 0, fmt.Errorf("%w: % x", ErrBadMagic, h[:2])
	}
	k := Kind(h[2])
	if h[3] != 0 {
		return k, 0, fmt.Errorf("%w: %#x", ErrReserved, h[3])
	}
	if !k.Known() {
		return k, 0, fmt.Errorf("%w %d", ErrUnknownKind, uint8(h[2]))
	}
	n := binary.LittleEndian.Uint32(h[4:8])
	if n > MaxPayload {
		return k, 0, fmt.Errorf("%v frame of %d bytes (max %d): %w", k, n, MaxPayload, ErrTooLarge)
	}
	return k, int(n), nil
}

// ReadFrame reads one frame. At a clean end of stream (no byte of a new
// frame) it returns io.EOF; a stream that ends inside a frame gives an error
// wrapping ErrTruncated; a bad header gives ErrBadMagic, ErrReserved,
// ErrUnknownKind or ErrTooLarge. It does not decode the payload.
func ReadFrame(r io.Reader) (Kind, []byte, error) {
	var h [HeaderSize]byte
	n, err := io.ReadFull(r, h[:])
	if err != nil {
		if err == io.EOF {
			return 0, nil, io.EOF
		}
		if err == io.ErrUnexpectedEOF {
			return 0, nil, fmt.Errorf("%w: header cut after %d of %d bytes", ErrTruncated, n, HeaderSize)
		}
		return 0, nil, fmt.Errorf("read frame header: %w", err)
	}
	k, size, err := ParseHeader(h)
	if err != nil {
		return k, nil, err
	}
	payload := make([]byte, size)
	if m, err := io.ReadFull(r, payload); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return k, nil, fmt.Errorf("%w: %v payload cut after %d of %d bytes", ErrTruncated, k, m, size)
		}
		return k, nil, fmt.Errorf("read %v payload: %w", k, err)
	}
	return k, payload, nil
}

// minJSONObject is the fewest payload bytes per JSON object Decode takes
// (a record is over 100 bytes, a pipeline stage over 50; "{}" nested in a
// larger message is the smallest object of a real one).
const minJSONObject = 16

// ErrTooDense: a JSON payload holds more objects than its size allows.
var ErrTooDense = errors.New("payload too dense")

// jsonObjects counts the objects of a JSON text: its '{' outside strings
// (an app's output line of braces is text, not objects).
func jsonObjects(b []byte) int {
	n, inString, escaped := 0, false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && c == '{':
			n++
		}
	}
	return n
}

// Decode parses a payload of kind k into a pointer to its message struct
// (*Hello, *Errors...). Unknown JSON fields are ignored; malformed JSON, an
// unknown kind or a hello of a protocol version this reader does not read
// is an error.
func Decode(k Kind, payload []byte) (any, error) {
	info, ok := kinds[k]
	if !ok {
		return nil, fmt.Errorf("decode: %w %d", ErrUnknownKind, uint8(k))
	}
	if info.codec != nil {
		return info.codec.decode(payload)
	}
	// Each JSON object decodes into a struct of up to ~140 bytes: a
	// payload dense with objects ({} after {}) would cost tens of times its
	// size before anything checks it. No message has objects that small.
	if n := jsonObjects(payload); n > len(payload)/minJSONObject+2 {
		return nil, fmt.Errorf("decode %v: %d objects in %d bytes: %w", k, n, len(payload), ErrTooDense)
	}
	msg := info.new()
	if err := json.Unmarshal(payload, msg); err != nil {
		return nil, fmt.Errorf("decode %v: %w", k, err)
	}
	if h, ok := msg.(*Hello); ok && (h.Protocol < MinProtocolVersion || h.Protocol > ProtocolVersion) {
		return nil, fmt.Errorf("decode hello: layer speaks protocol %d, this launcher %d to %d: %w",
			h.Protocol, MinProtocolVersion, ProtocolVersion, ErrProtocol)
	}
	return msg, nil
}
