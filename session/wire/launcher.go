package wire

import (
	"encoding/json"
	"fmt"
	"time"
)

// Launcher-side kinds. The launcher writes these into the session file next
// to the layer's frames; they never travel on the socket (a layer that sends
// one is disconnected). Kinds 1-63 are the layer's, 64-127 the launcher's.
const (
	KindAppStarted Kind = 64
	KindAppOutput  Kind = 65
	KindAppExited  Kind = 66
	KindNotice     Kind = 67
	KindTime       Kind = 68
	// KindCapabilities is the launcher's device probe (Capabilities).
	KindCapabilities Kind = 69
	// KindSourceFile is a source file the launcher read from disk
	// (SourceFile).
	KindSourceFile Kind = 70
	// KindStreamCut is a connection of the layer that ended without its
	// bye (StreamCut).
	KindStreamCut Kind = 71
	// KindAppOutputBlock is lines the app printed, several in one frame
	// (AppOutputBlock, binary: outputBlockCodec).
	KindAppOutputBlock Kind = 72
)

// AppOutputBlock is lines the app printed on one stream, in one frame:
// Text holds them joined by "\n" (no line end after the last), byte for
// byte as the app wrote them. A frame per line (AppOutput, which older
// sessions hold) cost some 40 bytes a line: 300 MB of output made a
// 758 MB session.
type AppOutputBlock struct {
	Stream string // stdout or stderr
	Text   string
}

// outputBlockCodec encodes an AppOutputBlock as a byte for its stream (0
// stdout, 1 stderr) and the text.
var outputBlockCodec = binaryCodec{
	decode: func(p []byte) (any, error) {
		if len(p) == 0 || p[0] > 1 {
			return nil, fmt.Errorf("decode app_output_block: %w: no stream byte", ErrMismatch)
		}
		return &AppOutputBlock{Stream: [2]string{"stdout", "stderr"}[p[0]], Text: string(p[1:])}, nil
	},
	encode: func(msg any) ([]byte, error) {
		m, ok := msg.(*AppOutputBlock)
		if !ok {
			if v, isValue := msg.(AppOutputBlock); isValue {
				m, ok = &v, true
			}
		}
		if !ok {
			return nil, fmt.Errorf("got a %T: %w", msg, ErrMismatch)
		}
		var s byte
		switch m.Stream {
		case "stdout":
		case "stderr":
			s = 1
		default:
			return nil, fmt.Errorf("app output block of stream %q: %w", m.Stream, ErrMismatch)
		}
		return append([]byte{s}, m.Text...), nil
	},
}

// StreamCut records that a connection of the layer ended without its last
// message (the app crashed or was killed, or the launcher cut a connection
// that made no progress after the app exited): records it had not sent are
// missing. Connection is the server's number of the connection (from 1).
type StreamCut struct {
	Connection int `json:"connection"`
}

// LauncherOnly reports whether k is a kind only the launcher writes
// (KindErrorsPacked, numbered among them, travels on the socket too).
func (k Kind) LauncherOnly() bool { return k >= 64 && k < 128 && k != KindErrorsPacked }

// AppStarted records the app the launcher started and the settings it asked
// the layer for (the layer's hello says which it runs with).
type AppStarted struct {
	Path     string    `json:"path"`
	Args     []string  `json:"args"`
	PID      int       `json:"pid"`
	Time     time.Time `json:"time"`
	Settings Settings  `json:"settings"`
	// Session is the session file's path, for the user's information.
	Session string `json:"session,omitempty"`
	// Dir is the app's working directory and SourcePath the user's source
	// search path: where source files the modules do not carry are read.
	Dir        string   `json:"dir,omitempty"`
	SourcePath []string `json:"source_path,omitempty"`
	// SourceExt are the file name extensions the user added to those
	// read as shader sources (--source-ext, GPUAV_DBG_SOURCE_EXT).
	SourceExt []string `json:"source_ext,omitempty"`
	// Stdout and Stderr are the files the app writes its output to (the
	// launcher follows them into the session; they outlive a launcher
	// that dies).
	Stdout string `json:"stdout,omitempty"`
	Stderr string `json:"stderr,omitempty"`
}

// AppOutput is one line the app printed, without its newline.
type AppOutput struct {
	Stream string `json:"stream"` // stdout or stderr
	Text   string `json:"text"`
}

// AppExited records how the app ended.
type AppExited struct {
	// Code is the exit status; for an app killed by a signal, 128 + the
	// signal number, as shells report it.
	Code int `json:"code"`
	// Signal names the signal that killed the app ("SIGSEGV"), if any.
	Signal string `json:"signal,omitempty"`
	// State is one of the session.AppState values: exited, crashed, failed.
	State string    `json:"state"`
	Time  time.Time `json:"time"`
}

// Notice is a launcher message for the user (the layer never loaded, a
// connection sent garbage...). Level is info, warning or error.
type Notice struct {
	Level string    `json:"level"`
	Text  string    `json:"text"`
	Time  time.Time `json:"time"`
}

// Label is a debug-utils label operation on a command buffer
// (vkCmdBegin/End/InsertDebugUtilsLabelEXT). Records carry the label path
// already; this message lets a reader follow labels that no error names.
// Op is begin, end or insert.
type Label struct {
	CommandBuffer uint64 `json:"command_buffer"`
	Op            string `json:"op"`
	Name          string `json:"name,omitempty"`
}

// SourceFile is a shader source file the launcher read from disk because
// a module named it without carrying its text: the session keeps the text
// as it was during the run. Name is the module's name for it, Path the
// file read.
type SourceFile struct {
	Name  string   `json:"name"`
	Path  string   `json:"path"`
	Lines []string `json:"lines"`
}

// Time stamps the frames that follow it in a session file: the launcher
// writes one whenever its clock has moved on (to the millisecond) since the
// last, so that a replayed session has the times the live one had.
type Time struct {
	Time time.Time `json:"time"`
}

// Capabilities is what the launcher's device probe found before it started
// the app: for every physical device, which checks can run there. Error
// says why the probe gave no answer (then Devices is empty).
type Capabilities struct {
	Devices []DeviceCapabilities `json:"devices"`
	Error   string               `json:"error,omitempty"`
}

// DeviceCapabilities is one probed device and its checks. The session's
// report carries the same type (session.DeviceCapabilities).
type DeviceCapabilities struct {
	// Device is the device's name. Session files written before the
	// session used this type spell its key "name"; both are read.
	Device     string `json:"device"`
	Driver     string `json:"driver"`
	APIVersion string `json:"api_version"`
	VendorID   uint32 `json:"vendor_id"`
	DeviceID   uint32 `json:"device_id"`
	// MaxBoundDescriptorSets is the device's limit; DescriptorSlot the
	// layer's set index (-1: no slot left).
	MaxBoundDescriptorSets uint32 `json:"max_bound_descriptor_sets"`
	DescriptorSlot         int    `json:"descriptor_slot"`
	// Checks maps every check id to whether it can run on the device.
	Checks map[string]CheckSupport `json:"checks"`
}

// UnmarshalJSON reads a device's capabilities, taking the older "name" key
// for Device when "device" is absent.
func (d *DeviceCapabilities) UnmarshalJSON(b []byte) error {
	type plain DeviceCapabilities
	var v struct {
		plain
		Name *string `json:"name"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*d = DeviceCapabilities(v.plain)
	if d.Device == "" && v.Name != nil {
		d.Device = *v.Name
	}
	return nil
}

// CheckSupport says whether a check can run on a device: Reason says why
// not; Note says what is limited when it can (stages left unchecked,
// findings that are warnings under robustness features).
type CheckSupport struct {
	Available bool   `json:"available"`
	Reason    string `json:"reason,omitempty"`
	Note      string `json:"note,omitempty"`
	// NotNeeded: unavailable, but no shader on the device can contain what
	// the check looks at (ray queries without rayQuery...).
	NotNeeded bool `json:"not_needed,omitempty"`
}
