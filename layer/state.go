package main

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/internal/sanitize"
	"github.com/gpuav-dbg/gpuav-dbg/layer/internal/abi"
	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
	"github.com/gpuav-dbg/gpuav-dbg/sourcemap"
)

// LayerVersion is the layer's version, sent in the hello.
const LayerVersion = "0.1.0"

// Caps on what the layer prints to the app's stderr when no launcher
// listens, so that a broken shader cannot flood the app's output.
const (
	maxStderrErrors = 50
	maxStderrLogs   = 50
)

// shader is a module the app created, with its original SPIR-V.
type shader struct {
	id uint32
	// code is the id its instrumented words write into records: derived
	// from its words and options, shared by modules of the same code key
	// (codeid.go); 0 when it was not instrumented.
	code   uint32
	device uint64
	module uint64 // 0 until the module exists
	object uint64 // the VkShaderEXT of a shader object (module stays 0)
	spirv  []uint32
	// spirvName is its code's name in a scope (options.SPIRVName), made
	// on first need.
	spirvName    string
	instrumented bool
	warning      string
	micros       int64
	// sites and stage are the instrumented module's site table and
	// execution model: what gpuav.Decode needs to read its records. Set
	// before the shader is in state.shaders, never changed after.
	sites []gpuav.Site
	stage uint32
	// srcmap is the module's source map, built on its first error
	// (report.go).
	srcmap *sourcemap.Map
	// printf are its debugPrintfEXT calls that write lines, by site id.
	printf []gpuav.PrintfSite
	// precise is its precise switch and facts (gpuav.PreciseSwitch), nil
	// when it has none.
	precise *gpuav.PreciseSwitch
	// deferred: the driver's module holds the original words and the
	// precise ones are built on first need (goPreciseSPIRV);
	// preciseFailed: building them failed, and that was logged.
	deferred, preciseFailed bool
	// readsSet: the instrumented words use the layer's set
	// (gpuav.Result.ReadsLayerSet).
	readsSet bool
}

// fastVariant says whether the module has a fast variant the layer
// creates pipelines with (goModuleFacts).
func (s *shader) fastVariant() bool {
	return s.instrumented && s.precise != nil && len(s.precise.Facts) > 0 && len(s.precise.FastWords) > 0
}

// readsLayerSet says whether the words the driver has for the module use
// the layer's set: its fast variant's with fast (a pipeline created with
// the fast variants), else the instrumented words; the original words
// never do.
func (s *shader) readsLayerSet(fast bool) bool {
	switch {
	case !s.instrumented:
		return false
	case fast && s.fastVariant():
		return s.precise.FastReadsLayerSet
	case s.deferred:
		// Built here if no pipeline needed them yet (no lock taken).
		_, reads, err := s.precise.PreciseWords()
		return reads || err != nil
	}
	return s.readsSet
}

type moduleKey struct{ device, module uint64 }

// library is what a linked pipeline takes from a pipeline library: its
// stages, and whether it runs instrumented code.
type library struct {
	stages       []wire.PipelineRef
	instrumented bool
}

// device is what Go knows of a VkDevice.
type device struct {
	name          string
	slot          uint32
	instrumenting bool
	reason        string
	// robust: the app enabled robustBufferAccess(2) on the device.
	robust bool
	// int64: shaderInt64 is enabled (by the app or the layer), so the
	// instrumentation may add the Int64 capability.
	int64 bool
	// settings are its instance's, scope their scope (parsed on first
	// need).
	settings Settings
	scope    *options.PipelineScope
}

// state is the layer's Go state; mu guards all of it. Nothing here is
// touched per command: only at creation time and once per submit.
var state = struct {
	mu        sync.Mutex
	client    *wire.Client
	helloSent bool

	nextShaderID uint32
	// nextPipelineSerial is the last pipeline serial given
	// (goPipelineCreated): never reused, unlike a pipeline's handle.
	nextPipelineSerial uint64
	shaders            map[uint32]*shader    // by shader id; kept after module destruction
	modules            map[moduleKey]*shader // live modules
	devices            map[uint64]*device
	instances          map[uint64]Settings   // by VkInstance: the process's with the app's own
	libraries          map[moduleKey]library // pipeline libraries by (device, pipeline)
	names              map[uint64]string     // debug-utils names, for stderr reports
	// nameSerials are the serials of the pipelines and command buffers
	// named (nameFor: a record of another object with the handle gets
	// no name, never the wrong one).
	nameSerials map[uint64]uint64

	stderrErrors int
	stderrLogs   int

	outbox        []outMsg       // for the app's debug-utils messengers (messenger.go)
	messengerDups map[string]int // messages per error group sent to messengers

	// hung are the submissions a watchdog's hang named, until they are
	// said to have finished (hang.go).
	hung hungSubmits
	// busy are the submissions whose countdown goBusy started (true) or
	// whose finish came before its start (false), by submit number.
	busy map[uint64]bool
}{
	hung:          hungSubmits{},
	messengerDups: map[string]int{},
	shaders:       map[uint32]*shader{},
	modules:       map[moduleKey]*shader{},
	devices:       map[uint64]*device{},
	instances:     map[uint64]Settings{},
	libraries:     map[moduleKey]library{},
	names:         map[uint64]string{},
	nameSerials:   map[uint64]uint64{},
}

// Log levels, as goLog receives them from C (abi, shared_gen.h).
const (
	levelInfo    = abi.LogInfo
	levelWarning = abi.LogWarning
	levelError   = abi.LogError
)

func levelName(l int) string {
	switch l {
	case levelInfo:
		return "info"
	case levelWarning:
		return "warning"
	}
	return "error"
}

// connectLocked dials the launcher (when a socket is set and no client is
// open) and sends the hello with the settings s of the instance being
// created. Callers hold state.mu.
func connectLocked(s Settings) {
	if state.client == nil && s.Socket != "" {
		c, err := wire.Dial(s.Socket)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gpuav-dbg: %v; reporting to stderr\n", err)
		} else {
			state.client = c
			connectionFd(c.Fd())
		}
	}
	if state.helloSent {
		return
	}
	state.helloSent = true
	ws := s.Wire()
	exe, _ := os.Readlink("/proc/self/exe")
	hello := wire.Hello{
		Protocol:     wire.ProtocolVersion,
		RecordFormat: gpuav.RecordFormatVersion,
		LayerVersion: LayerVersion,
		App:          exe,
		Args:         cmdline(),
		PID:          os.Getpid(),
		Settings:     ws,
	}
	if state.client != nil {
		state.client.Send(wire.KindHello, hello)
	}
	for _, w := range processSettings.warnings {
		logLocked(levelWarning, w)
	}
}

// cmdline returns the process's arguments from /proc/self/cmdline.
func cmdline() []string {
	b, err := os.ReadFile("/proc/self/cmdline")
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}

// disconnectLocked sends the bye and closes the connection. Callers hold
// state.mu.
func disconnectLocked(submits uint64) {
	if state.client != nil {
		connectionFd(-1)
		// The client sends what it coalesced and its lost counts before
		// the bye; if the socket failed, the app's stderr says what the
		// launcher never got.
		state.client.Send(wire.KindBye, wire.Bye{Submits: submits, Counts: submitCounts()})
		if err := state.client.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "gpuav-dbg: %v\n", err)
		}
		state.client = nil
	}
	state.helloSent = false
}

// sendLocked sends a message to the launcher and reports whether it could
// (false: no launcher, or the socket died). Callers hold state.mu.
func sendLocked(k wire.Kind, msg any) bool {
	if !connectedLocked() {
		return false
	}
	state.client.Send(k, msg)
	return true
}

// connectedLocked says whether messages reach the launcher (sendLocked
// sends them), so that a message costly to build is built only then.
// Callers hold state.mu.
func connectedLocked() bool {
	return state.client != nil && state.client.Alive()
}

// logLocked sends a log line to the launcher and the app's debug-utils
// messengers, or, when there is neither, prints warnings and errors to
// stderr (capped). Callers hold state.mu.
func logLocked(level int, text string) {
	sent := sendLocked(wire.KindLog, wire.Log{Level: levelName(level), Text: text})
	localLogLocked(level, text, sent)
}

// noteLocked is logLocked for what the launcher learns from a message of
// its own (a shader's or a pipeline's warning): the messengers or stderr
// get the line, the launcher does not, so that its notices give each cause
// once. Callers hold state.mu.
func noteLocked(level int, text string) {
	localLogLocked(level, text, connectedLocked())
}

// localLogLocked gives a log line to the app's messengers or, when it has
// none and the launcher did not get it (sent), prints warnings and errors
// to stderr (capped). Callers hold state.mu.
func localLogLocked(level int, text string, sent bool) {
	if haveMessengers() {
		queueLogLocked(level, text)
		return
	}
	if sent || level == levelInfo {
		return
	}
	state.stderrLogs++
	switch {
	case state.stderrLogs <= maxStderrLogs:
		fmt.Fprintf(os.Stderr, "gpuav-dbg: %s: %s\n", strings.ToUpper(levelName(level)), sanitize.Block(text))
	case state.stderrLogs == maxStderrLogs+1:
		fmt.Fprintf(os.Stderr, "gpuav-dbg: further warnings are not printed\n")
	}
}

// withLock runs f holding state.mu, releasing it even if f panics.
func withLock(f func()) {
	state.mu.Lock()
	defer state.mu.Unlock()
	f()
}

// logf is logLocked with formatting, taking the lock; it delivers the
// messengers' messages after releasing it.
// logUnchecked logs a warning that says what the layer left unchecked
// (wire.Log.Unchecked: the launcher counts it, and the run exits 4).
func logUnchecked(text string) {
	defer flushOutbox()
	state.mu.Lock()
	defer state.mu.Unlock()
	sent := sendLocked(wire.KindLog, wire.Log{Level: levelName(levelWarning), Text: text, Unchecked: true})
	localLogLocked(levelWarning, text, sent)
}

// logUncheckedKind is logUnchecked for something other than commands:
// kind is a wire.Log Kind (wire.LogUncheckedRecords), count how many.
func logUncheckedKind(kind string, count int, text string) {
	defer flushOutbox()
	state.mu.Lock()
	defer state.mu.Unlock()
	sent := sendLocked(wire.KindLog, wire.Log{Level: levelName(levelWarning), Text: text, Unchecked: true, Kind: kind, Count: count})
	localLogLocked(levelWarning, text, sent)
}

// plural is "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func logf(level int, format string, args ...any) {
	defer flushOutbox()
	state.mu.Lock()
	defer state.mu.Unlock()
	logLocked(level, fmt.Sprintf(format, args...))
}
