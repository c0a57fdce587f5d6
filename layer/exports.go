package main

/*
#include <stdlib.h>
#include "layer.h"
*/
import "C"

import (
	"encoding/binary"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/layer/internal/abi"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// This file is the Go side of the C<->Go boundary: every function the C
// half calls. Each recovers panics (no Go panic may unwind into C or the
// app) and returns a safe value after one.

// Pipeline layout states (abi, shared_gen.h).
const (
	layoutPadded        = abi.LayoutPadded
	layoutConflict      = abi.LayoutConflict
	layoutDBUnsupported = abi.LayoutDBUnsupported
	layoutPaddedPush    = abi.LayoutPaddedPush
)

// recovered logs a panic caught at the boundary; defer it first.
func recovered(where string) {
	if r := recover(); r != nil {
		text := fmt.Sprintf("internal error in %s: %v\n%s", where, r, debug.Stack())
		func() {
			defer func() { _ = recover() }()
			logf(levelError, "%s", text)
		}()
	}
}

// goInstanceCreated loads the settings, connects to the launcher and says
// hello (once per connection). It resolves the instance's settings: the
// process's (environment, settings file) with the app's own from
// vkCreateInstance: appSettings (its VkLayerSettingsCreateInfoEXT for this
// layer, ParseAppSettings' format) and disableShaders (its
// VkValidationFeaturesEXT disables). It returns whether the reserve-slot
// option is on for this instance: from the settings, or from
// VkValidationFeaturesEXT (reserveFromFeatures).
//
//export goInstanceCreated
func goInstanceCreated(instance C.uint64_t, reserveFromFeatures, disableShaders C.int,
	appSettings *C.char) (reserve C.int) {
	defer recovered("goInstanceCreated")
	defer flushOutbox()
	var app AppSettings
	var appWarnings []string
	if appSettings != nil {
		app.Values, appWarnings = ParseAppSettings(C.GoString(appSettings))
	}
	app.DisableShaders = disableShaders != 0
	state.mu.Lock()
	defer state.mu.Unlock()
	startProfile(settingsLocked().CPUProfile)
	s, w := instanceSettingsLocked(app)
	if reserveFromFeatures != 0 {
		s.ReserveSlot = true
	}
	state.instances[uint64(instance)] = s
	if s.ReserveSlot {
		reserve = 1
	}
	connectLocked(s)
	pauseSettingLocked(s)
	for _, x := range append(appWarnings, w...) {
		logLocked(levelWarning, x)
	}
	return reserve
}

// instanceSettingsOf returns the settings of an instance (the process's
// for an unknown one). Callers hold state.mu.
func instanceSettingsOf(instance uint64) Settings {
	if s, ok := state.instances[instance]; ok {
		return s
	}
	return settingsLocked()
}

// goInstanceDestroyed forgets an instance; when the last goes, it sends
// the bye and closes the connection.
//
//export goInstanceDestroyed
func goInstanceDestroyed(instance C.uint64_t, submits C.uint64_t, last C.int) {
	defer recovered("goInstanceDestroyed")
	defer flushOutbox()
	withLock(func() { delete(state.instances, uint64(instance)) })
	if last == 0 {
		return
	}
	defer stopProfile()
	n, sum, maxNs := submitLatency()
	state.mu.Lock()
	defer state.mu.Unlock()
	if n > 0 {
		logLocked(levelInfo, latencyLine(n, sum, maxNs))
	}
	scopeSettleAllLocked()
	disconnectLocked(uint64(submits))
}

// goProcessExit runs at process exit (atexit, registered with the first
// instance): an app that exits without vkDestroyInstance still gets the
// records the layer has read, and the bye, to the launcher. The send queue
// is flushed with the client's close timeout.
//
// unread is the number of submits whose records the layer could not read
// (still running after waitMs): an unchecked entry says so.
//
//export goProcessExit
func goProcessExit(submits C.uint64_t, unread, waitMs C.uint32_t) {
	defer recovered("goProcessExit")
	if unread > 0 {
		logUncheckedKind(wire.LogUncheckedRecords, int(unread), unreadText(int(unread), "exited", float64(waitMs)/1000))
	}
	flushOutbox()
	state.mu.Lock()
	defer state.mu.Unlock()
	scopeSettleAllLocked()
	disconnectLocked(uint64(submits))
}

// latencyLine says how long records took from vkQueueSubmit to being read.
func latencyLine(n, sum, maxNs uint64) string {
	return fmt.Sprintf("submit-to-records latency over %d instrumented submits: mean %d us, max %d us",
		n, sum/n/1000, maxNs/1000)
}

// goInstrumentationWanted reports whether any check is on
// for the instance.
//
//export goInstrumentationWanted
func goInstrumentationWanted(instance C.uint64_t) C.int {
	defer recovered("goInstrumentationWanted")
	state.mu.Lock()
	defer state.mu.Unlock()
	if instanceSettingsOf(uint64(instance)).InstrumentationWanted() {
		return 1
	}
	return 0
}

// goCommandChecks returns the command checks an instance's devices run
// (GPUAVDBG_CC_* bits of shared_gen.h, layer/internal/abi), with whether a failed one
// skips its command (on_error other than execute).
//
//export goCommandChecks
func goCommandChecks(instance C.uint64_t) C.uint32_t {
	defer recovered("goCommandChecks")
	state.mu.Lock()
	defer state.mu.Unlock()
	return C.uint32_t(instanceSettingsOf(uint64(instance)).commandChecks())
}

// goDeviceCreated records a device and sends the Device message.
//
//export goDeviceCreated
func goDeviceCreated(info *C.gpuavdbg_device_info) {
	defer recovered("goDeviceCreated")
	defer flushOutbox()
	v := uint32(info.api_version)
	msg := wire.Device{
		Handle:                 uint64(info.handle),
		Name:                   C.GoString(info.name),
		APIVersion:             fmt.Sprintf("%d.%d.%d", v>>22&0x7f, v>>12&0x3ff, v&0xfff),
		DriverVersion:          uint32(info.driver_version),
		VendorID:               uint32(info.vendor_id),
		DeviceID:               uint32(info.device_id),
		MaxBoundDescriptorSets: uint32(info.max_bound_sets),
		DescriptorSlot:         uint32(info.slot),
		Instrumenting:          info.instrumenting != 0,
		Reason:                 C.GoString(info.reason),
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	state.devices[msg.Handle] = &device{name: msg.Name, slot: msg.DescriptorSlot,
		instrumenting: msg.Instrumenting, reason: msg.Reason, robust: info.robust != 0,
		int64: info.int64 != 0, settings: instanceSettingsOf(uint64(info.instance))}
	sendLocked(wire.KindDevice, msg)
}

// goDeviceDestroyed forgets a device and its shaders.
//
//export goDeviceDestroyed
func goDeviceDestroyed(dev C.uint64_t) {
	defer recovered("goDeviceDestroyed")
	state.mu.Lock()
	defer state.mu.Unlock()
	d := uint64(dev)
	delete(state.devices, d)
	for k := range state.modules {
		if k.device == d {
			delete(state.modules, k)
		}
	}
	for k := range state.libraries {
		if k.device == d {
			delete(state.libraries, k)
		}
	}
	for id, s := range state.shaders {
		if s.device == d {
			forgetCodeLocked(s)
			delete(state.shaders, id)
		}
	}
}

// instrumentSafe runs gpuav.Instrument, turning a panic into an error.
func instrumentSafe(words []uint32, opt gpuav.Options) (res gpuav.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("instrumentation panicked: %v", r)
		}
	}()
	return gpuav.Instrument(words, opt)
}

// goInstrumentShader copies the app's SPIR-V, gives it a shader id and,
// when enabled, instruments it for descriptor set slot. It returns the id;
// *out receives C-malloc'd instrumented words (the caller frees them) or
// NULL when the original must be used. On any failure the original is
// used and the shader's message carries the reason (docs/decisions/never-take-the-app-down.md).
// With later (a shader module), a module with a fast variant is
// instrumented without its precise variant: *out is NULL and *deferred 1,
// the driver's module holds the original words, and every pipeline made
// with a padded layout gets a module of the precise words
// (goPreciseSPIRV) or of the fast ones (goModuleFacts) instead
// (docs/decisions/precise-variant-on-first-need.md).
//
//export goInstrumentShader
func goInstrumentShader(dev C.uint64_t, enabled C.int, slot C.uint32_t, code *C.uint32_t, nwords C.size_t,
	later C.int, out **C.uint32_t, outWords *C.size_t, deferred *C.int) (id C.uint32_t) {
	defer recovered("goInstrumentShader")
	defer flushOutbox()
	*out, *outWords, *deferred = nil, 0, 0
	orig := append([]uint32(nil), unsafe.Slice((*uint32)(unsafe.Pointer(code)), int(nwords))...)
	s, words, def := instrumentModule(uint64(dev), enabled != 0, uint32(slot), orig, later != 0)
	id = C.uint32_t(s.id)
	if def {
		*deferred = 1
		return id
	}
	if words == nil {
		return id
	}
	p := (*C.uint32_t)(C.malloc(C.size_t(len(words)) * 4))
	if p == nil {
		withLock(func() { s.warning = "left uninstrumented: out of memory" })
		return id
	}
	copy(unsafe.Slice((*uint32)(unsafe.Pointer(p)), len(words)), words)
	*out, *outWords = p, C.size_t(len(words))
	return id
}

// instrumentModule is goInstrumentShader's work on Go memory: the new
// shader (in state.shaders when it returns), the instrumented words for
// the driver (nil: the original), and whether the module is deferred.
func instrumentModule(dev uint64, enabled bool, slot uint32, orig []uint32, later bool) (s *shader, words []uint32,
	deferred bool) {
	var (
		checks map[string]bool
		d      *device
		robust bool
		sized  bool
		int64  bool
		failed gpuav.OnError
		silent bool
		pf     bool
		at     gpuav.PrintfAt
		budget uint32
	)
	withLock(func() {
		state.nextShaderID++
		s = &shader{id: state.nextShaderID, device: dev, spirv: orig}
		d = state.devices[dev]
		set := settingsLocked()
		if d != nil {
			set = d.settings
		}
		checks = set.Checks
		sized = set.SizedElementChecks
		failed, silent = gpuav.OnError(set.OnError), set.Robust
		pf = !set.PrintfOff
		budget = set.LoopBudget
		// Checked when the settings were read: a filter that does not
		// parse is "" there.
		at, _ = gpuav.ParsePrintfAt(set.PrintfAt)
		robust = d != nil && d.robust
		int64 = d != nil && d.int64
		if robust && !set.WarnRobust {
			// Defined behaviour the user chose not to hear about: do not
			// instrument it at all (the registry's robustness-warned
			// checks: robustBufferAccess covers texel buffers too).
			checks = maps.Clone(checks)
			for i := range gpuav.Checks {
				if c := &gpuav.Checks[i]; c.WarnedUnderRobustness() {
					checks[c.ID] = false
				}
			}
		}
	})
	// s is filled in before other goroutines can see it.
	defer withLock(func() { state.shaders[s.id] = s })

	if !enabled {
		s.warning = "instrumentation is off for this device"
		if d != nil && d.reason != "" {
			s.warning += ": " + d.reason
		}
		return s, nil, false
	}
	start := time.Now()
	opt := gpuav.Options{DescriptorSet: slot, Checks: checks, Robust: robust,
		SizedElementChecks: sized, Int64: int64, OnError: failed, RobustOnly: silent, Printf: pf,
		PrintfAt: at, PreciseLater: later, LoopBudget: budget}
	// The records carry the module's code id, not its creation order: the
	// same module with the same settings gives the same words (codeid.go).
	key := opt.Key(orig)
	var (
		res gpuav.Result
		err error
		hit bool
	)
	withLock(func() {
		opt.ShaderID = assignCodeLocked(s, key)
		// A module of the same key instrumented before, in this process
		// or kept beside a pipeline cache (shadowcache.go).
		res, hit = resultOfLocked(key, opt.ShaderID)
	})
	if !hit {
		if res, err = instrumentSafe(orig, opt); err == nil {
			withLock(func() { keepResultLocked(key, opt.ShaderID, res) })
		}
	}
	s.micros = time.Since(start).Microseconds()
	for _, n := range res.Notes {
		logf(levelInfo, "shader %d: %s", s.id, n)
	}
	switch {
	case err != nil:
		// gpuav names the module by the id it was given, its code id.
		why := strings.Replace(err.Error(), fmt.Sprintf("instrument shader %d:", opt.ShaderID),
			fmt.Sprintf("instrument shader %d:", s.id), 1)
		s.warning = "left uninstrumented: " + why
		return s, nil, false
	case res.Words == nil && res.Precise != nil:
		// The precise variant on first need (later).
	case len(res.Words) == 0 || !res.Instrumented && &res.Words[0] == &orig[0]:
		// Unchanged (a module whose printf calls were only removed is
		// changed, not instrumented).
		s.warning = strings.Join(res.Warnings, "; ")
		return s, nil, false
	}
	s.warning = strings.Join(res.Warnings, "; ")
	s.printf = res.Printf
	s.sites, s.stage, s.precise, s.readsSet = res.Sites, res.Stage, res.Precise, res.ReadsLayerSet
	if res.Words == nil && res.Precise != nil {
		s.deferred = true
		return s, nil, true
	}
	return s, res.Words, false
}

// goShaderCreated completes a shader after vkCreateShaderModule: module is
// 0 when creation failed. instrumented says whether the driver took the
// instrumented words; note explains a fallback. It sends the Shader
// message.
//
//export goShaderCreated
func goShaderCreated(dev C.uint64_t, id C.uint32_t, module C.uint64_t, result C.int32_t, instrumented C.int,
	note *C.char) {
	defer recovered("goShaderCreated")
	defer flushOutbox()
	state.mu.Lock()
	defer state.mu.Unlock()
	completeShaderLocked(uint32(id), uint64(module), false, instrumented != 0, "", C.GoString(note))
}

// completeShaderLocked completes shader id once the driver has answered:
// handle is its VkShaderModule, or its VkShaderEXT when object is true, and
// 0 when creation failed (the shader is then forgotten). why, when not
// empty, replaces the shader's warning; note is appended to it. It logs why
// an uninstrumented shader stayed so and sends the Shader message.
func completeShaderLocked(id uint32, handle uint64, object, instrumented bool, why, note string) {
	s := state.shaders[id]
	if s == nil {
		return
	}
	if handle == 0 {
		forgetCodeLocked(s)
		delete(state.shaders, s.id)
		return
	}
	what := "module"
	if object {
		s.object, what = handle, "shader object"
	} else {
		s.module = handle
		state.modules[moduleKey{s.device, s.module}] = s
	}
	s.instrumented = instrumented
	if why != "" {
		s.warning = why
	}
	if note != "" {
		if s.warning != "" {
			s.warning += "; "
		}
		s.warning += note
	}
	if !s.instrumented && s.warning != "" {
		noteLocked(levelInfo, fmt.Sprintf("shader %d (%s 0x%x): %s", s.id, what, handle, s.warning))
	}
	if !connectedLocked() {
		return // the module's words need no copy as bytes
	}
	sendLocked(wire.KindShader, wire.Shader{
		ID:               s.id,
		Module:           s.module,
		Object:           s.object,
		SPIRV:            wordsToBytes(s.spirv),
		Instrumented:     s.instrumented,
		Warning:          s.warning,
		InstrumentMicros: s.micros,
		Sites:            siteCounts(s),
	})
}

// maxUncheckedCode bounds what goShaderUnchecked copies of a module that
// is not SPIR-V words.
const maxUncheckedCode = 64 << 20

// goShaderUnchecked records a module or a SPIR-V shader object the layer
// passed to the driver without looking (codeSize 0 or not a multiple of 4,
// no code, code not aligned to 4 bytes): it gets a
// shader id and goes to the session with the reason, so that no module is
// left out. module is 0 when the driver refused it too.
//
//export goShaderUnchecked
func goShaderUnchecked(dev C.uint64_t, code *C.uint8_t, n, codeSize C.size_t, module C.uint64_t, result C.int32_t) {
	defer recovered("goShaderUnchecked")
	defer flushOutbox()
	var b []byte
	if code != nil && n > 0 {
		b = C.GoBytes(unsafe.Pointer(code), C.int(min(n, maxUncheckedCode)))
	}
	reason := fmt.Sprintf("codeSize %d is not a multiple of 4: not SPIR-V words, passed to the driver unchecked", uint64(codeSize))
	switch {
	case code == nil || codeSize == 0:
		reason = fmt.Sprintf("no code (pCode %p, codeSize %d): passed to the driver unchecked", code, uint64(codeSize))
	case codeSize%4 == 0 && uintptr(unsafe.Pointer(code))%4 != 0:
		reason = fmt.Sprintf("pCode %p is not aligned to 4 bytes: not SPIR-V words, passed to the driver unchecked", code)
	}
	if module == 0 {
		reason += fmt.Sprintf("; the driver refused it (VkResult %d)", int32(result))
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	state.nextShaderID++
	s := &shader{id: state.nextShaderID, device: uint64(dev), module: uint64(module), warning: reason}
	state.shaders[s.id] = s
	if module != 0 {
		state.modules[moduleKey{s.device, s.module}] = s
	}
	noteLocked(levelWarning, fmt.Sprintf("shader %d (module 0x%x): %s", s.id, uint64(module), reason))
	sendLocked(wire.KindShader, wire.Shader{ID: s.id, Module: s.module, SPIRV: b, Warning: reason})
}

// siteCounts counts an instrumented shader's guarded accesses per check
// (the coverage of a run: wire.Shader.Sites); nil when it is not
// instrumented.
func siteCounts(s *shader) map[string]int {
	if !s.instrumented {
		return nil
	}
	out := map[string]int{}
	for _, site := range s.sites {
		for _, c := range site.Checks {
			out[c]++
		}
	}
	return out
}

func wordsToBytes(w []uint32) []byte {
	b := make([]byte, 4*len(w))
	for i, x := range w {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

// goShaderDestroyed forgets a module handle; the shader's SPIR-V stays
// with its id (Vulkan lets a pipeline outlive its modules). held says the
// layer keeps the driver's module alive for a pipeline's precise variant
// (variants.c): the handle then stays known, for goPreciseSPIRV, until
// the layer destroys that module (destroy_now calls this again without
// held); the driver cannot reuse the handle before.
//
//export goShaderDestroyed
func goShaderDestroyed(dev, module C.uint64_t, held C.int) {
	defer recovered("goShaderDestroyed")
	state.mu.Lock()
	defer state.mu.Unlock()
	if held == 0 {
		delete(state.modules, moduleKey{uint64(dev), uint64(module)})
	}
}

// goOriginalSPIRV returns 1 and C-malloc'd copies of the original words of
// an instrumented module (for a pipeline whose layout conflicts), or 0.
//
//export goOriginalSPIRV
func goOriginalSPIRV(dev, module C.uint64_t, out **C.uint32_t, outWords *C.size_t) (ok C.int) {
	defer recovered("goOriginalSPIRV")
	*out, *outWords = nil, 0
	var s *shader
	withLock(func() { s = state.modules[moduleKey{uint64(dev), uint64(module)}] })
	if s == nil || !s.instrumented || s.deferred || len(s.spirv) == 0 {
		return 0 // a deferred module's driver module holds the original words
	}
	p := (*C.uint32_t)(C.malloc(C.size_t(len(s.spirv)) * 4))
	if p == nil {
		return 0
	}
	copy(unsafe.Slice((*uint32)(unsafe.Pointer(p)), len(s.spirv)), s.spirv)
	*out, *outWords = p, C.size_t(len(s.spirv))
	return 1
}

// goModuleFacts returns 1 when an instrumented module has a fast variant
// (docs/decisions/precise-variant.md), with C-malloc'd copies of its words
// and of the facts it takes for granted; 0 for any other module.
//
//export goModuleFacts
func goModuleFacts(dev, module C.uint64_t, facts **C.gpuavdbg_fact, n *C.uint32_t, words **C.uint32_t,
	nwords *C.size_t) (ok C.int) {
	defer recovered("goModuleFacts")
	*facts, *n, *words, *nwords = nil, 0, nil, 0
	var s *shader
	withLock(func() { s = state.modules[moduleKey{uint64(dev), uint64(module)}] })
	if s == nil || !s.fastVariant() {
		return 0
	}
	fs := s.precise.Facts
	p := (*C.gpuavdbg_fact)(C.malloc(C.size_t(len(fs)) * C.size_t(unsafe.Sizeof(C.gpuavdbg_fact{}))))
	w := (*C.uint32_t)(C.malloc(C.size_t(len(s.precise.FastWords)) * 4))
	if p == nil || w == nil {
		C.free(unsafe.Pointer(p))
		C.free(unsafe.Pointer(w))
		return 0
	}
	out := unsafe.Slice(p, len(fs))
	for i, f := range fs {
		out[i] = C.gpuavdbg_fact{set: C.uint32_t(f.Set), binding: C.uint32_t(f.Binding), length: C.uint32_t(f.Length),
			bound: C.uint32_t(f.Bound), kind: C.uint32_t(f.Kind)}
		for k, t := range f.Terms {
			out[i].terms[k] = C.gpuavdbg_fact_term{param: C.uint32_t(t.Param), coef: C.uint32_t(t.Coef)}
		}
	}
	copy(unsafe.Slice((*uint32)(unsafe.Pointer(w)), len(s.precise.FastWords)), s.precise.FastWords)
	*facts, *n, *words, *nwords = p, C.uint32_t(len(fs)), w, C.size_t(len(s.precise.FastWords))
	return 1
}

// goPreciseSPIRV returns 1 and C-malloc'd words of the precise variant of
// a deferred module (goInstrumentShader's later), built on the first call;
// 0 for any other module (the driver's module holds the words it runs),
// and -1, with the reason logged once, when they could not be built: the
// stage then runs the original words, unchecked.
//
//export goPreciseSPIRV
func goPreciseSPIRV(dev, module C.uint64_t, out **C.uint32_t, outWords *C.size_t) (ok C.int) {
	ok = -1
	defer recovered("goPreciseSPIRV")
	*out, *outWords = nil, 0
	var s *shader
	withLock(func() { s = state.modules[moduleKey{uint64(dev), uint64(module)}] })
	if s == nil || !s.deferred || !s.instrumented {
		return 0
	}
	words, _, err := s.precise.PreciseWords()
	if err != nil {
		first := false
		withLock(func() { first, s.preciseFailed = !s.preciseFailed, true })
		if first {
			logUnchecked(fmt.Sprintf("shader %d (module 0x%x): %v: its pipelines run its original code, unchecked",
				s.id, s.module, err))
		}
		return -1
	}
	p := (*C.uint32_t)(C.malloc(C.size_t(len(words)) * 4))
	if p == nil {
		logUnchecked(fmt.Sprintf("shader %d (module 0x%x): out of memory for its precise variant: a pipeline runs its original code, unchecked",
			s.id, s.module))
		return -1
	}
	copy(unsafe.Slice((*uint32)(unsafe.Pointer(p)), len(words)), words)
	*out, *outWords = p, C.size_t(len(words))
	return 1
}

// goPipelineCreated gives the pipeline its serial (*serial: never reused,
// unlike its handle; the layer's records of its actions carry it), sends
// the Pipeline message and returns 1 when any of the pipeline's modules is
// instrumented (its actions need the layer's descriptor set bound, if its
// layout has it). *readsSet says whether the
// pipeline as created uses the layer's set: with fast, created with the
// fast variants of its modules that have one
// (docs/decisions/no-bind-for-check-free-variants.md); a module Go does not
// know or a library counts as using it. scopedOut says the scope left the
// pipeline out at creation (made from the app's words). refused, when not 0, is the
// VkResult with which the driver refused the pipeline with its instrumented
// stages: it was then created from the app's original stages (pipeline.c),
// runs unchecked, and is said so (refusedWarning).
//
//export goPipelineCreated
func goPipelineCreated(dev, pipeline, layout C.uint64_t, bindPoint C.uint32_t, stages *C.gpuavdbg_stage, n C.uint32_t,
	layoutState C.int, libraries *C.uint64_t, nlib C.uint32_t, isLibrary C.int, fast C.int, scopedOut C.int,
	refused C.int32_t, readsSet *C.int, serial *C.uint64_t) (wants C.int) {
	*readsSet, *serial = 1, 0
	defer recovered("goPipelineCreated")
	defer flushOutbox()
	st := unsafe.Slice(stages, int(n))
	msg := wire.Pipeline{Handle: uint64(pipeline), Layout: uint64(layout), BindPoint: bindPointName(uint32(bindPoint))}
	state.mu.Lock()
	defer state.mu.Unlock()
	state.nextPipelineSerial++
	msg.Serial = state.nextPipelineSerial
	*serial = C.uint64_t(msg.Serial)
	anyInstr, reads := false, nlib > 0
	var instrStages []*shader // refused: the stages whose code carried the checks
	var instrNames []string
	for _, s := range st {
		ref := wire.PipelineRef{Stage: stageName(uint32(s.stage)), Module: uint64(s.module), Entry: C.GoString(s.entry)}
		sh := state.modules[moduleKey{uint64(dev), uint64(s.module)}]
		if sh != nil {
			ref.ShaderID = sh.id
			anyInstr = anyInstr || sh.instrumented
			if sh.instrumented {
				instrStages, instrNames = append(instrStages, sh), append(instrNames, ref.Stage)
			}
		}
		reads = reads || sh == nil || sh.readsLayerSet(fast != 0)
		msg.Stages = append(msg.Stages, ref)
	}
	if refused != 0 {
		// The pipeline runs the app's original stages: nothing of the
		// layer's to bind, no records to attribute.
		msg.Stages = append(msg.Stages, libraryStagesLocked(uint64(dev), libraries, nlib)...)
		msg.Warning = refusedWarning(instrNames, instrStages, int32(refused))
		*readsSet = 0
		sendLocked(wire.KindPipeline, msg)
		noteLocked(levelWarning, fmt.Sprintf("%s pipeline 0x%x: %s", msg.BindPoint, msg.Handle, msg.Warning))
		if isLibrary != 0 {
			state.libraries[moduleKey{uint64(dev), uint64(pipeline)}] = library{stages: msg.Stages}
		}
		rememberPipelineShadersLocked(msg.Serial, msg.Stages)
		return 0
	}
	if !reads {
		*readsSet = 0
	}
	// A linked pipeline has its libraries' stages.
	for _, lib := range unsafe.Slice(libraries, int(nlib)) {
		if l, ok := state.libraries[moduleKey{uint64(dev), uint64(lib)}]; ok {
			msg.Stages = append(msg.Stages, l.stages...)
			anyInstr = anyInstr || l.instrumented
		}
	}
	msg.Instrumented = anyInstr && (layoutState == layoutPadded || layoutState == layoutPaddedPush) && scopedOut == 0
	slot := uint32(0)
	if d := state.devices[uint64(dev)]; d != nil {
		slot = d.slot
	}
	// A descriptor-buffer pipeline (layoutPaddedPush) is checked like any
	// other: the layer reads its sets from the app's descriptor buffers, and
	// what it cannot read is told at submit, as unchecked
	// (docs/decisions/descriptor-buffers.md).
	switch {
	case !anyInstr || msg.Instrumented || scopedOut != 0:
	case layoutState == layoutDBUnsupported:
		msg.Warning = fmt.Sprintf("pipeline layout 0x%x uses descriptor buffers, which the layer cannot serve there "+
			"(its error notice says why): the pipeline runs uninstrumented copies of its shaders", uint64(layout))
	case layoutState == layoutConflict:
		msg.Warning = fmt.Sprintf("pipeline layout 0x%x uses descriptor set %d, which the layer needs: "+
			"the pipeline runs uninstrumented copies of its shaders", uint64(layout), slot)
	default:
		msg.Warning = fmt.Sprintf("pipeline layout 0x%x was not created through the layer: "+
			"the pipeline runs uninstrumented copies of its shaders", uint64(layout))
	}
	sendLocked(wire.KindPipeline, msg)
	if msg.Warning != "" {
		noteLocked(levelWarning, fmt.Sprintf("%s pipeline 0x%x: %s", msg.BindPoint, msg.Handle, msg.Warning))
	}
	if isLibrary != 0 {
		state.libraries[moduleKey{uint64(dev), uint64(pipeline)}] = library{stages: msg.Stages, instrumented: msg.Instrumented}
	}
	rememberPipelineShadersLocked(msg.Serial, msg.Stages)
	if msg.Warning == "" {
		mods := make([]uint64, 0, len(msg.Stages))
		for _, st := range msg.Stages {
			mods = append(mods, st.Module)
		}
		scopePipelineLocked(uint64(dev), msg.Handle, msg.Serial, mods, scopedOut != 0, msg.Instrumented)
	}
	if scopedOut != 0 {
		return 0
	}
	if anyInstr {
		wants = 1
	}
	return wants
}

// libraryStagesLocked is the stages of the libraries a pipeline is
// linked from (those the layer knows). Called with state.mu held.
func libraryStagesLocked(dev uint64, libraries *C.uint64_t, nlib C.uint32_t) []wire.PipelineRef {
	var out []wire.PipelineRef
	for _, lib := range unsafe.Slice(libraries, int(nlib)) {
		if l, ok := state.libraries[moduleKey{dev, uint64(lib)}]; ok {
			out = append(out, l.stages...)
		}
	}
	return out
}

// refusedWarning is why a pipeline the driver refused with instrumented
// code runs unchecked: the stages whose code carried the checks (their
// names and shaders), the checks their code held, and the driver's
// result. The same words for every pipeline refused alike, so that the
// unchecked list counts them under one cause.
func refusedWarning(names []string, shaders []*shader, result int32) string {
	checks := map[string]bool{}
	for _, s := range shaders {
		for c := range siteCounts(s) {
			checks[c] = true
		}
	}
	stages := slices.Compact(slices.Sorted(slices.Values(names)))
	what := "its stages"
	switch len(stages) {
	case 0:
	case 1:
		what = "its " + stages[0] + " stage"
	default:
		what = "its " + strings.Join(stages, ", ") + " stages"
	}
	list := ""
	if len(checks) > 0 {
		list = " (checks " + strings.Join(slices.Sorted(maps.Keys(checks)), ", ") + ")"
	}
	return fmt.Sprintf("the driver refused it with the layer's checks in %s%s: %s; it was created from the app's "+
		"original shaders", what, list, resultName(result))
}

// resultName names a VkResult a pipeline creation may return.
func resultName(r int32) string {
	switch r {
	case C.VK_ERROR_UNKNOWN:
		return "VK_ERROR_UNKNOWN"
	case C.VK_ERROR_INITIALIZATION_FAILED:
		return "VK_ERROR_INITIALIZATION_FAILED"
	case C.VK_ERROR_INVALID_SHADER_NV:
		return "VK_ERROR_INVALID_SHADER_NV"
	case C.VK_ERROR_OUT_OF_POOL_MEMORY:
		return "VK_ERROR_OUT_OF_POOL_MEMORY"
	case C.VK_ERROR_FEATURE_NOT_PRESENT:
		return "VK_ERROR_FEATURE_NOT_PRESENT"
	case C.VK_ERROR_EXTENSION_NOT_PRESENT:
		return "VK_ERROR_EXTENSION_NOT_PRESENT"
	case C.VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS:
		return "VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS"
	case C.VK_ERROR_VALIDATION_FAILED_EXT:
		return "VK_ERROR_VALIDATION_FAILED"
	}
	return fmt.Sprintf("VkResult %d", r)
}

// goPipelineDestroyed forgets a pipeline: its stages' shaders, and the
// library it is.
//
//export goPipelineDestroyed
func goPipelineDestroyed(dev, pipeline, serial C.uint64_t) {
	defer recovered("goPipelineDestroyed")
	withLock(func() {
		delete(state.libraries, moduleKey{uint64(dev), uint64(pipeline)})
		delete(pipelineShaders, uint64(serial))
		scopeSettleLocked(uint64(serial))
	})
}

// goSetObjectName sends a debug-utils (or debug-marker) object name;
// serial is the serial of the live pipeline or command buffer named (0 for
// other objects), which the name belongs to.
//
//export goSetObjectName
func goSetObjectName(dev C.uint64_t, objectType C.uint32_t, handle, serial C.uint64_t, name *C.char) {
	defer recovered("goSetObjectName")
	defer flushOutbox()
	n := C.GoString(name)
	state.mu.Lock()
	defer state.mu.Unlock()
	if n == "" {
		delete(state.names, uint64(handle))
		delete(state.nameSerials, uint64(handle))
	} else {
		state.names[uint64(handle)] = n
		state.nameSerials[uint64(handle)] = uint64(serial)
	}
	sendLocked(wire.KindName, wire.Name{Handle: uint64(handle), ObjectType: objectTypeName(uint32(objectType)), Name: n,
		Serial: uint64(serial)})
	if objectType == C.VK_OBJECT_TYPE_PIPELINE && serial != 0 && n != "" {
		scopeNamedLocked(uint64(dev), uint64(serial), n)
	}
}

// goSubmitDone reads the output buffers of a finished submit (only those
// with records or drops) and sends one Errors message per command buffer.
// The pointers are valid during the call only.
//
//export goSubmitDone
func goSubmitDone(queue, submit C.uint64_t, cbs *C.gpuavdbg_submit_cb, n C.uint32_t) {
	defer recovered("goSubmitDone")
	// While the app is paused at its first error, no other thread's
	// records go out (pause.go); once this submit's records are sent, and
	// the app's messengers have them, it may be the one that pauses.
	waitWhilePaused()
	records := 0
	defer func() {
		flushOutbox()
		stopAtFirstError(uint64(submit), uint64(queue), records)
	}()
	// The messages are sent (or printed) before the next Build: the
	// client encodes what it sends at once.
	b := builders.Get().(*Builder)
	defer builders.Put(b)
	for _, c := range unsafe.Slice(cbs, int(n)) {
		cb := SubmittedCB{
			Handle:        uint64(c.handle),
			Serial:        uint64(c.serial),
			PrimarySerial: uint64(c.primary_serial),
			Words:         unsafe.Slice((*uint32)(unsafe.Pointer(c.words)), int(c.nwords)),
			PrintfWords:   unsafe.Slice((*uint32)(unsafe.Pointer(c.printf_words)), int(c.nprintf_words)),
			Primary:       uint64(c.primary),
			PrimaryAction: uint32(c.primary_action),
			LayerDropped:  uint32(c.layer_dropped),
			MinAction:     uint32(c.min_action),
		}
		if c.layer_words != nil {
			cb.LayerWords = unsafe.Slice((*uint32)(unsafe.Pointer(c.layer_words)), int(c.nlayer_words))
		}
		if c.prepass_words != nil {
			cb.PrepassWords = unsafe.Slice((*uint32)(unsafe.Pointer(c.prepass_words)), int(c.nprepass_words))
		}
		labels := unsafe.Slice(c.labels, int(c.nlabels))
		paths := make([][]string, len(labels))
		for _, a := range unsafe.Slice(c.actions, int(c.nactions)) {
			act := Action{Index: uint32(a.index), Command: commandName(uint32(a.command)), Pipeline: uint64(a.pipeline),
				PipelineSerial: uint64(a.pipeline_serial)}
			if l := int(a.label); a.label != C.GPUAVDBG_NO_LABEL && l < len(labels) {
				if paths[l] == nil {
					paths[l] = strings.Split(C.GoString(labels[l]), string(rune(abi.LabelSep)))
				}
				act.Labels = paths[l]
			}
			cb.Actions = append(cb.Actions, act)
		}
		reportPrintf(uint64(submit), uint64(queue), cb)
		msg, malformed, ok := b.Build(uint64(submit), uint64(queue), cb)
		if !ok && malformed == 0 {
			continue
		}
		withLock(func() {
			if malformed > 0 {
				logLocked(levelWarning, fmt.Sprintf("command buffer 0x%x, submit %d: %d malformed records skipped",
					cb.Handle, uint64(submit), malformed))
			}
			if ok {
				scopeFilter(&msg)
			}
			if ok && (len(msg.Records) > 0 || msg.Dropped > 0) {
				reportLocked(msg)
				for _, r := range msg.Records {
					records += max(r.Count, 1)
				}
			}
		})
	}
}

// unreadText says that n submits had not finished when the app did what
// (exited, destroyed its device) and the layer waited seconds.
func unreadText(n int, what string, seconds float64) string {
	them, their := "them", "their"
	if n == 1 {
		them, their = "it", "its"
	}
	return fmt.Sprintf("%d submit%s had not finished when the app %s (the layer waited %.1f s for %s): %s records were not read",
		n, plural(n), what, seconds, them, their)
}

// goSubmitsUnread says that n submits had not finished when the app
// destroyed its device (the layer waited waitMs): an unchecked entry.
//
//export goSubmitsUnread
func goSubmitsUnread(n, waitMs C.uint32_t) {
	defer recovered("goSubmitsUnread")
	logUncheckedKind(wire.LogUncheckedRecords, int(n), unreadText(int(n), "destroyed its device", float64(waitMs)/1000))
}

// goLog sends a line from the C half.
//
//export goLog
func goLog(level C.int, text *C.char) {
	defer recovered("goLog")
	if level == abi.LogUnchecked {
		logUnchecked(C.GoString(text))
		return
	}
	logf(int(level), "%s", C.GoString(text))
}

func bindPointName(bp uint32) string {
	switch bp {
	case C.VK_PIPELINE_BIND_POINT_GRAPHICS:
		return "graphics"
	case C.VK_PIPELINE_BIND_POINT_COMPUTE:
		return "compute"
	case C.VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR:
		return "ray_tracing"
	}
	return fmt.Sprintf("bind_point_%d", bp)
}

// stageName names a VkShaderStageFlagBits value as gpuav.StageName names
// execution models.
func stageName(s uint32) string {
	switch s {
	case C.VK_SHADER_STAGE_VERTEX_BIT:
		return "vertex"
	case C.VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT:
		return "tess_control"
	case C.VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT:
		return "tess_eval"
	case C.VK_SHADER_STAGE_GEOMETRY_BIT:
		return "geometry"
	case C.VK_SHADER_STAGE_FRAGMENT_BIT:
		return "fragment"
	case C.VK_SHADER_STAGE_COMPUTE_BIT:
		return "compute"
	case C.VK_SHADER_STAGE_TASK_BIT_EXT:
		return "task"
	case C.VK_SHADER_STAGE_MESH_BIT_EXT:
		return "mesh"
	case C.VK_SHADER_STAGE_RAYGEN_BIT_KHR:
		return "raygen"
	case C.VK_SHADER_STAGE_ANY_HIT_BIT_KHR:
		return "any_hit"
	case C.VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR:
		return "closest_hit"
	case C.VK_SHADER_STAGE_MISS_BIT_KHR:
		return "miss"
	case C.VK_SHADER_STAGE_INTERSECTION_BIT_KHR:
		return "intersection"
	case C.VK_SHADER_STAGE_CALLABLE_BIT_KHR:
		return "callable"
	}
	return fmt.Sprintf("stage_0x%x", s)
}

// objectTypeNames names VkObjectType values for the Name message.
var objectTypeNames = map[uint32]string{
	C.VK_OBJECT_TYPE_INSTANCE:                   "instance",
	C.VK_OBJECT_TYPE_PHYSICAL_DEVICE:            "physical_device",
	C.VK_OBJECT_TYPE_DEVICE:                     "device",
	C.VK_OBJECT_TYPE_QUEUE:                      "queue",
	C.VK_OBJECT_TYPE_SEMAPHORE:                  "semaphore",
	C.VK_OBJECT_TYPE_COMMAND_BUFFER:             "command_buffer",
	C.VK_OBJECT_TYPE_FENCE:                      "fence",
	C.VK_OBJECT_TYPE_DEVICE_MEMORY:              "device_memory",
	C.VK_OBJECT_TYPE_BUFFER:                     "buffer",
	C.VK_OBJECT_TYPE_IMAGE:                      "image",
	C.VK_OBJECT_TYPE_EVENT:                      "event",
	C.VK_OBJECT_TYPE_QUERY_POOL:                 "query_pool",
	C.VK_OBJECT_TYPE_BUFFER_VIEW:                "buffer_view",
	C.VK_OBJECT_TYPE_IMAGE_VIEW:                 "image_view",
	C.VK_OBJECT_TYPE_SHADER_MODULE:              "shader_module",
	C.VK_OBJECT_TYPE_PIPELINE_CACHE:             "pipeline_cache",
	C.VK_OBJECT_TYPE_PIPELINE_LAYOUT:            "pipeline_layout",
	C.VK_OBJECT_TYPE_RENDER_PASS:                "render_pass",
	C.VK_OBJECT_TYPE_PIPELINE:                   "pipeline",
	C.VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT:      "descriptor_set_layout",
	C.VK_OBJECT_TYPE_SAMPLER:                    "sampler",
	C.VK_OBJECT_TYPE_DESCRIPTOR_POOL:            "descriptor_pool",
	C.VK_OBJECT_TYPE_DESCRIPTOR_SET:             "descriptor_set",
	C.VK_OBJECT_TYPE_FRAMEBUFFER:                "framebuffer",
	C.VK_OBJECT_TYPE_COMMAND_POOL:               "command_pool",
	C.VK_OBJECT_TYPE_SAMPLER_YCBCR_CONVERSION:   "sampler_ycbcr_conversion",
	C.VK_OBJECT_TYPE_DESCRIPTOR_UPDATE_TEMPLATE: "descriptor_update_template",
	C.VK_OBJECT_TYPE_PRIVATE_DATA_SLOT:          "private_data_slot",
	C.VK_OBJECT_TYPE_SURFACE_KHR:                "surface",
	C.VK_OBJECT_TYPE_SWAPCHAIN_KHR:              "swapchain",
	C.VK_OBJECT_TYPE_DEBUG_UTILS_MESSENGER_EXT:  "debug_utils_messenger",
	C.VK_OBJECT_TYPE_ACCELERATION_STRUCTURE_KHR: "acceleration_structure",
	C.GPUAVDBG_OBJECT_TYPE_SHADER_EXT:           "shader_object",
}

func objectTypeName(t uint32) string {
	if n, ok := objectTypeNames[t]; ok {
		return n
	}
	return fmt.Sprintf("object_type_%d", t)
}
