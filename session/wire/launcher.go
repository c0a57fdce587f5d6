package wire

import "time"

// Launcher-side kinds. The launcher writes these into the session file next
// to the layer's frames; they never travel on the socket (a layer that sends
// one is disconnected). Kinds 1-63 are the layer's, 64-127 the launcher's.
const (
	KindAppStarted Kind = 64
	KindAppOutput  Kind = 65
	KindAppExited  Kind = 66
	KindNotice     Kind = 67
	KindTime       Kind = 68
)

// LauncherOnly reports whether k is a kind only the launcher writes.
func (k Kind) LauncherOnly() bool { return k >= 64 && k < 128 }

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

// Time stamps the frames that follow it in a session file: the launcher
// writes one whenever its clock has moved on (to the millisecond) since the
// last, so that a replayed session has the times the live one had.
type Time struct {
	Time time.Time `json:"time"`
}
