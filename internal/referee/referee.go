// Package referee runs the Khronos validation layer's core checks below
// our layer in the tests, as the referee of the layer's own Vulkan calls
// (docs/decisions/never-take-the-app-down.md): every app the test suites run under our layer also
// runs with VK_LAYER_KHRONOS_validation under it (GPU-AV off), its messages
// go to a log file of the run, and a test fails on any message that is not
// one the app itself causes (Known, each with its reason).
//
// The referee is on unless GPUAVDBG_TEST_KHRONOS_CORE=0. The Khronos layer
// is the installed one, or the one in the directory KHRONOS_LAYER_PATH
// names (scripts/hardware/env.sh sets it on the NVIDIA machine).
package referee

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

const (
	// EnvMode turns the referee off when it is "0".
	EnvMode = "GPUAVDBG_TEST_KHRONOS_CORE"
	// EnvLayerPath is the directory of the Khronos layer's manifest, when
	// it is not installed.
	EnvLayerPath = "KHRONOS_LAYER_PATH"
	// Layer is the Khronos validation layer's name.
	Layer = "VK_LAYER_KHRONOS_validation"
	// Manifest is where Debian installs the Khronos layer's manifest.
	Manifest = "/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json"
	// settingsPath is the loader-layer settings file variable (the Khronos
	// layer 1.3.239 takes its log file and report flags only from a file).
	settingsPath = "VK_LAYER_SETTINGS_PATH"
)

// Enabled reports whether the test suites run the referee.
func Enabled() bool { return os.Getenv(EnvMode) != "0" }

// Available returns an error when the Khronos layer cannot be found.
func Available() error {
	m := Manifest
	if d := os.Getenv(EnvLayerPath); d != "" {
		m = filepath.Join(d, "VkLayer_khronos_validation.json")
	}
	if _, err := os.Stat(m); err != nil {
		return fmt.Errorf("the Khronos validation layer (the referee of the layer's own calls; "+
			"scripts/install-deps installs vulkan-validationlayers, %s=0 runs without it): %w", EnvMode, err)
	}
	return nil
}

// Run is the referee of one run of an app.
type Run struct {
	dir string
	log string
}

// Start prepares a run in dir (a directory of the run's own): it returns
// the run and env with the Khronos layer added below ours. env must already
// name our layer in VK_INSTANCE_LAYERS (or be the launcher's environment,
// which adds it); a settings file env names is kept, with the Khronos
// layer's lines added. It fails when the Khronos layer is not there.
func Start(dir string, env []string) (*Run, []string, error) {
	if err := Available(); err != nil {
		return nil, nil, err
	}
	r := &Run{dir: dir, log: filepath.Join(dir, "khronos.log")}
	var settings []byte
	out := make([]string, 0, len(env)+3)
	layers, addPath := "", ""
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case settingsPath:
			b, err := readSettings(v)
			if err != nil {
				return nil, nil, fmt.Errorf("referee: %w", err)
			}
			settings = b
		case "VK_INSTANCE_LAYERS":
			layers = v
		case "VK_ADD_LAYER_PATH":
			addPath = v
		case "VK_LAYER_ENABLES", "VK_LAYER_DISABLES":
			// The Khronos layer's own enables (GPU-AV) are not the referee's.
		default:
			out = append(out, kv)
			continue
		}
	}
	if layers != "" {
		layers += ":"
	}
	out = append(out, "VK_INSTANCE_LAYERS="+layers+Layer)
	if d := os.Getenv(EnvLayerPath); d != "" {
		if addPath != "" {
			addPath += ":"
		}
		addPath += d
	}
	if addPath != "" {
		out = append(out, "VK_ADD_LAYER_PATH="+addPath)
	}
	settings = append(settings, fmt.Sprintf("\nkhronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG\n"+
		"khronos_validation.log_filename = %s\n"+
		"khronos_validation.report_flags = error,warn\n"+
		"khronos_validation.enable_message_limit = false\n", r.log)...)
	file := filepath.Join(dir, "vk_layer_settings.txt")
	if err := os.WriteFile(file, settings, 0o644); err != nil {
		return nil, nil, fmt.Errorf("referee: %w", err)
	}
	return r, append(out, settingsPath+"="+file), nil
}

// readSettings reads the settings file p names (a file, or a directory
// holding vk_layer_settings.txt); none there is no settings.
func readSettings(p string) ([]byte, error) {
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		p = filepath.Join(p, "vk_layer_settings.txt")
	}
	b, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the run's settings file: %w", err)
	}
	return b, nil
}

// Message is one message of the Khronos layer.
type Message struct {
	ID       string // VUID-..., UNASSIGNED-...
	Severity string // ERROR, WARNING
	Text     string
}

func (m Message) String() string {
	t := m.Text
	if len(t) > 600 {
		t = t[:600] + "…"
	}
	return fmt.Sprintf("%s %s: %s", m.Severity, m.ID, t)
}

// header is the first line of a message in the Khronos layer's log file:
// "ID(SEVERITY / TYPE): msgNum: N - TEXT".
var header = regexp.MustCompile(`^(\S+)\((ERROR|WARNING|INFO|VERBOSE) / [A-Z]+\): msgNum: -?\d+ - (.*)$`)

// Messages returns the messages the Khronos layer logged in the run.
func (r *Run) Messages() ([]Message, error) {
	b, err := os.ReadFile(r.log)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("referee: read the Khronos layer's log: %w", err)
	}
	return Parse(b), nil
}

// Parse reads messages from a log of the Khronos layer.
func Parse(log []byte) []Message {
	var msgs []Message
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		m := header.FindStringSubmatch(sc.Text())
		if m == nil {
			continue // "    Objects: 1" and the objects under it
		}
		msgs = append(msgs, Message{ID: m[1], Severity: m[2], Text: m[3]})
	}
	return msgs
}

// Unexpected returns the messages of a run of app (the executable's base
// name) with args that are not Known ones of that app.
func Unexpected(app string, args []string, msgs []Message) []Message {
	var bad []Message
	for _, m := range msgs {
		if KnownFor(app, args, m) == nil {
			bad = append(bad, m)
		}
	}
	return bad
}

// Check fails with every unexpected message of the run; ok is false when
// there was one (or the log could not be read). report is t.Errorf.
func (r *Run) Check(app string, args []string, report func(format string, args ...any)) bool {
	msgs, err := r.Messages()
	if err != nil {
		report("%v", err)
		return false
	}
	bad := Unexpected(filepath.Base(app), args, msgs)
	if len(bad) == 0 {
		return true
	}
	var sb strings.Builder
	for _, m := range bad {
		sb.WriteString("\n  " + m.String())
	}
	report("the Khronos layer's core checks below ours reported %d message(s) on %s %s (the layer's own calls must be "+
		"valid; a message the app itself causes belongs in internal/referee's Known list, with its reason):%s",
		len(bad), filepath.Base(app), strings.Join(args, " "), sb.String())
	return false
}
