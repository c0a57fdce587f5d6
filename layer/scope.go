package main

/*
#include <stdint.h>
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// The scope (scope_include, scope_exclude; docs/decisions/scope-by-name.md).
// A pipeline is decided when it is created, from its shader modules'
// names (the only names Vulkan lets it have by then): when that decision
// is final (a module excluded it, or no pattern matches pipelines' names)
// and leaves it out, the C half creates it with its modules' original
// words. Otherwise it is created instrumented and decided for good by
// its first debug name (or, never named, when it is destroyed or the app
// ends); until then its records are reported only when its modules put
// it in. A pipeline left out either way is sent as a LogUncheckedPipeline
// Log; the records of one that ran instrumented are not reported.

// pipeScope is a pipeline's scope while it lives. Guarded by state.mu.
type pipeScope struct {
	handle  uint64
	modules []string
	// pending: the pipeline's name may still decide; in is the decision
	// (for now, when pending).
	pending, in bool
	why         string
}

// pipelineScopes are the decisions of live pipelines by serial (a
// pipeline in scope for good is not kept).
var pipelineScopes = map[uint64]*pipeScope{}

// deviceScopeLocked is the scope of a device's instance (empty when the
// device is unknown).
func deviceScopeLocked(dev uint64) options.PipelineScope {
	d := state.devices[dev]
	if d == nil {
		return options.PipelineScope{}
	}
	if d.scope == nil {
		sc := options.ScopeOf(&d.settings.Values)
		d.scope = &sc
	}
	return *d.scope
}

// moduleNamesLocked are the names the modules answer to in a scope:
// their debug names and their code's SPIRVName.
func moduleNamesLocked(dev uint64, modules []uint64) []string {
	var out []string
	for _, m := range modules {
		if n := state.names[m]; n != "" {
			out = append(out, n)
		}
		if sh := state.modules[moduleKey{dev, m}]; sh != nil && len(sh.spirv) > 0 {
			if sh.spirvName == "" {
				sh.spirvName = options.SPIRVName(sh.spirv)
			}
			out = append(out, sh.spirvName)
		}
	}
	return out
}

// goPipelineScope says whether a pipeline about to be created with these
// stages' modules is out of the scope for good (1): the C half then
// creates it with the modules' original words.
//
//export goPipelineScope
func goPipelineScope(dev C.uint64_t, modules *C.uint64_t, n C.uint32_t) C.int {
	defer recovered("goPipelineScope")
	state.mu.Lock()
	defer state.mu.Unlock()
	sc := deviceScopeLocked(uint64(dev))
	if sc.Empty() {
		return 0
	}
	mods := unsafe.Slice((*uint64)(unsafe.Pointer(modules)), int(n))
	in, excluded, _ := sc.Decide(options.ScopeNames{Modules: moduleNamesLocked(uint64(dev), mods)})
	if !in && sc.Final(excluded) {
		return 1
	}
	return 0
}

// scopePipelineLocked decides a pipeline at its creation, after its
// Pipeline message: out says the C half left it out (goPipelineScope);
// modules are its stages' (its libraries' included), and instrumented
// says it runs instrumented code.
func scopePipelineLocked(dev, handle, serial uint64, modules []uint64, out, instrumented bool) {
	sc := deviceScopeLocked(dev)
	if sc.Empty() {
		return
	}
	ps := &pipeScope{handle: handle, modules: moduleNamesLocked(dev, modules)}
	in, excluded, why := sc.Decide(options.ScopeNames{Modules: ps.modules})
	ps.in, ps.why = in && !out, why
	switch {
	case out:
		scopeOutLocked(serial, ps, false)
	case !sc.Final(excluded):
		ps.pending = true
	case !in:
		// Final but still instrumented: a pipeline linked from libraries.
		scopeOutLocked(serial, ps, instrumented)
	default:
		return
	}
	pipelineScopes[serial] = ps
}

// scopeOutLocked sends that a pipeline is left out of the scope.
// instrumented: it ran instrumented code (its name came after its
// creation, or it was linked from instrumented libraries), and its records
// are not reported.
func scopeOutLocked(serial uint64, ps *pipeScope, instrumented bool) {
	why := ps.why
	if instrumented {
		why += " (decided after its creation: it ran instrumented, its errors are not reported)"
	}
	// The session adds the pipeline's name, which may come later.
	subject := fmt.Sprintf("pipeline 0x%x", ps.handle)
	sent := sendLocked(wire.KindLog, wire.Log{Level: levelName(levelWarning), Text: why, Unchecked: true,
		Kind: wire.LogUncheckedPipeline, Pipeline: serial, Subject: subject})
	local := subject
	if n := state.names[ps.handle]; n != "" && state.nameSerials[ps.handle] == serial {
		local += fmt.Sprintf(" %q", n)
	}
	localLogLocked(levelWarning, local+": "+why, sent)
}

// scopeNamedLocked decides a pending pipeline by its first name.
func scopeNamedLocked(dev, serial uint64, name string) {
	ps := pipelineScopes[serial]
	if ps == nil || !ps.pending {
		return
	}
	ps.pending = false
	ps.in, _, ps.why = deviceScopeLocked(dev).Decide(options.ScopeNames{Pipeline: name, Modules: ps.modules})
	if ps.in {
		delete(pipelineScopes, serial)
		return
	}
	scopeOutLocked(serial, ps, true)
}

// scopeSettleLocked decides a pending pipeline that was never named (it
// is destroyed, or the app ends), and forgets it.
func scopeSettleLocked(serial uint64) {
	ps := pipelineScopes[serial]
	delete(pipelineScopes, serial)
	if ps != nil && ps.pending && !ps.in {
		scopeOutLocked(serial, ps, true)
	}
}

// scopeSettleAllLocked settles every pending pipeline (the app ends).
func scopeSettleAllLocked() {
	for serial, ps := range pipelineScopes {
		if ps.pending {
			scopeSettleLocked(serial)
		}
	}
}

// scopeReportsLocked says whether the records of a pipeline are
// reported: it is in the scope, or pending and its modules put it in.
func scopeReportsLocked(serial uint64) bool {
	ps := pipelineScopes[serial]
	return ps == nil || ps.in
}

// scopeFilter drops the records of pipelines out of the scope from msg.
func scopeFilter(msg *wire.Errors) {
	if len(pipelineScopes) == 0 {
		return
	}
	kept := msg.Records[:0]
	for _, r := range msg.Records {
		if r.PipelineSerial == 0 || scopeReportsLocked(r.PipelineSerial) {
			kept = append(kept, r)
		}
	}
	msg.Records = kept
}
