package session

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// msg is one message for a table of runs.
type msg struct {
	k wire.Kind
	m any
}

// started and hello are the first messages of a run with the checks on.
func runStart(checks map[string]bool) []msg {
	set := wire.Settings{Checks: checks, OnError: "skip"}
	return []msg{
		{wire.KindAppStarted, &wire.AppStarted{Path: "/bin/app", PID: 7, Time: t0, Settings: set}},
		{wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion, RecordFormat: gpuav.RecordFormatVersion, PID: 7, Settings: set}},
	}
}

// pipelines makes n pipelines (handles 0x100...) with the warning.
func pipelines(n int, instrumented bool, warning string) []msg {
	var out []msg
	for i := range n {
		out = append(out, msg{wire.KindPipeline, &wire.Pipeline{Handle: 0x100 + uint64(i), BindPoint: "compute",
			Instrumented: instrumented, Warning: warning}})
	}
	return out
}

func shader(id uint32, instrumented bool, warning string) msg {
	return msg{wire.KindShader, &wire.Shader{ID: id, Module: 0xa0 + uint64(id), SPIRV: spirvBytes(0x07230203, 0x00010300, 0, 10, 0),
		Instrumented: instrumented, Warning: warning}}
}

func exited(code int, state AppState) msg {
	return msg{wire.KindAppExited, &wire.AppExited{Code: code, State: string(state), Time: t0}}
}

const conflict = "pipeline layout 0x7b uses descriptor set 7, which the layer needs: the pipeline runs uninstrumented copies of its shaders"

var on = map[string]bool{"descriptor_index_oob": true, "ray_query": true, "bda_oob": true}

// TestNoticesPerCause: one notice per cause, with the cause and the count;
// none for pipelines with nothing to check; what went unchecked, each
// cause once.
func TestNoticesPerCause(t *testing.T) {
	caps := &wire.Capabilities{Devices: []wire.DeviceCapabilities{{Device: "gpu", Checks: map[string]wire.CheckSupport{
		"descriptor_index_oob": {Available: true},
		"ray_query":            {NotNeeded: true, Reason: "the device does not support rayQuery; no shader can use it here, so nothing goes unchecked"},
		"bda_oob":              {Reason: "the device lacks bufferDeviceAddress"},
	}}}}
	for _, c := range []struct {
		name      string
		msgs      [][]msg
		notices   []string // level: text, after the layer's "loaded" notice
		unchecked []Unchecked
	}{
		{"51 pipelines with nothing to check", [][]msg{runStart(on), pipelines(51, false, ""), {exited(0, AppExited)}},
			nil, nil},
		{"one pipeline in conflict", [][]msg{runStart(on), pipelines(1, false, conflict), {exited(0, AppExited)}},
			[]string{"warning: pipeline 0x100 runs its original, unchecked shaders: " + conflict},
			[]Unchecked{{UncheckedPipeline, conflict, 1, nil}}},
		// The app names a pipeline once it exists: the notice made at its
		// creation takes the name; a name the handle had before (another
		// pipeline's, serial 1) does not name it.
		{"a pipeline named after its notice", [][]msg{runStart(on), {
			{wire.KindPipeline, &wire.Pipeline{Handle: 0x100, Serial: 1, BindPoint: "compute"}},
			{wire.KindName, &wire.Name{Handle: 0x100, ObjectType: "pipeline", Name: "old", Serial: 1}},
			{wire.KindPipeline, &wire.Pipeline{Handle: 0x100, Serial: 2, BindPoint: "compute", Warning: conflict}},
			{wire.KindPipeline, &wire.Pipeline{Handle: 0x101, Serial: 3, BindPoint: "compute", Warning: conflict}},
			{wire.KindName, &wire.Name{Handle: 0x101, ObjectType: "pipeline", Name: "blur", Serial: 3}},
			exited(0, AppExited)}},
			[]string{"warning: 2 pipelines run their original, unchecked shaders: " + conflict +
				` (pipeline 0x100, pipeline 0x101 ("blur"))`},
			[]Unchecked{{UncheckedPipeline, conflict, 2, nil}}},
		{"six pipelines in conflict", [][]msg{runStart(on), pipelines(6, false, conflict), {exited(0, AppExited)}},
			[]string{"warning: 6 pipelines run their original, unchecked shaders: " + conflict +
				" (pipeline 0x100, pipeline 0x101, pipeline 0x102, pipeline 0x103 and 2 more)"},
			[]Unchecked{{UncheckedPipeline, conflict, 6, nil}}},
		{"shaders", [][]msg{runStart(on), {shader(1, false, "module has no entry point: left uninstrumented"), shader(2, true, ""),
			shader(3, false, "module has no entry point: left uninstrumented"), shader(4, true, "instruction 9: access yields a pointer: left unchecked")},
			{exited(0, AppExited)}},
			[]string{"warning: 2 shaders are not checked: module has no entry point: left uninstrumented (shader 1 (module 0xa1), shader 3 (module 0xa3))",
				"warning: shader 4 (module 0xa4): instruction 9: access yields a pointer: left unchecked"},
			[]Unchecked{{UncheckedShader, "module has no entry point: left uninstrumented", 2, nil},
				{UncheckedShader, "instruction 9: access yields a pointer: left unchecked", 1, nil}}},
		{"every check off", [][]msg{runStart(map[string]bool{"descriptor_index_oob": false}),
			{{wire.KindDevice, &wire.Device{Handle: 1, Name: "gpu", Reason: "every check is off"}}},
			{shader(1, false, "instrumentation is off for this device: every check is off"), shader(2, false, "instrumentation is off for this device: every check is off")},
			{exited(0, AppExited)}},
			[]string{"warning: device 0x1 (gpu): instrumentation disabled: every check is off",
				"warning: 2 shaders are not checked: instrumentation is off for this device: every check is off (shader 1 (module 0xa1), shader 2 (module 0xa2))"},
			[]Unchecked{{UncheckedSettings, "every check is off", 0, nil},
				{UncheckedDevice, "device 0x1 (gpu): instrumentation disabled: every check is off", 1, nil},
				{UncheckedShader, "instrumentation is off for this device: every check is off", 2, nil}}},
		{"a check the device lacks; ray queries not needed", [][]msg{runStart(on), {{wire.KindCapabilities, caps}},
			{{wire.KindDevice, &wire.Device{Handle: 1, Name: "gpu", Instrumenting: true}}}, {exited(0, AppExited)}},
			[]string{"warning: check bda_oob cannot run on gpu: the device lacks bufferDeviceAddress",
				"info: check ray_query cannot run on gpu: the device does not support rayQuery; no shader can use it here, so nothing goes unchecked"},
			[]Unchecked{{UncheckedCheck, "check bda_oob cannot run on gpu: the device lacks bufferDeviceAddress", 0, nil}}},
		{"lost messages and dropped records", [][]msg{runStart(on),
			{{wire.KindErrors, &wire.Errors{Submit: 1, CommandBuffer: 5, Dropped: 7}}, {wire.KindBye, &wire.Bye{Submits: 1, Lost: 2}}},
			{exited(0, AppExited)}},
			[]string{"warning: the error buffer of command buffer 0x5 overflowed at submit 1: 7 records dropped; counts are lower bounds",
				"warning: the layer lost 2 messages on the way to gpuav-dbg (its socket queue was full or failed): errors may be missing"},
			[]Unchecked{{UncheckedRecords, "7 error records did not fit in the layer's buffers (counts are lower bounds)", 7, nil},
				{UncheckedRecords, "2 messages of the layer were lost on the way to gpuav-dbg", 2, nil}}},
		{"commands the command checks left unchecked", [][]msg{runStart(on), {
			{wire.KindLog, &wire.Log{Level: "warning", Text: "indirect_command: commands not checked", Unchecked: true}},
			{wire.KindLog, &wire.Log{Level: "warning", Text: "a warning"}},
			{wire.KindLog, &wire.Log{Level: "warning", Text: "indirect_command: commands not checked", Unchecked: true}},
			exited(0, AppExited)}},
			[]string{"warning: indirect_command: commands not checked", "warning: a warning",
				"warning: indirect_command: commands not checked"},
			[]Unchecked{{UncheckedCommand, "indirect_command: commands not checked", 2, nil}}},
		{"robust-only mode", [][]msg{{{wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion, RecordFormat: 1, PID: 7,
			Settings: wire.Settings{Checks: on, OnError: "clamp", Robust: true}}}}, {exited(0, AppExited)}}, nil,
			[]Unchecked{{UncheckedRobust, "robust-only mode: failed accesses were clamped into range and not reported", 0, nil}}},
		{"clamp reports", [][]msg{{{wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion, RecordFormat: 1, PID: 7,
			Settings: wire.Settings{Checks: on, OnError: "clamp"}}}}, {exited(0, AppExited)}}, nil, nil},
		{"stopped by the user", [][]msg{runStart(on), {exited(130, AppStopped)}}, nil,
			[]Unchecked{{UncheckedStopped, "you stopped the app before it finished", 0, nil}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			col := newTestCollector()
			for _, ms := range c.msgs {
				for _, m := range ms {
					record(t, col, m.k, m.m)
				}
			}
			s := col.Snapshot()
			var got []string
			for _, n := range s.Notices[1:] {
				got = append(got, fmt.Sprintf("%s: %s", n.Level, n.Text))
			}
			if !reflect.DeepEqual(got, c.notices) {
				t.Errorf("notices:\n%q\nwant\n%q", got, c.notices)
			}
			if u := s.UncheckedAll(); !reflect.DeepEqual(u, c.unchecked) {
				t.Errorf("unchecked:\n%+v\nwant\n%+v", u, c.unchecked)
			}
		})
	}
}

// TestUncheckedLayerNotLoaded: an app that ran without the layer left
// everything unchecked; one that failed to start is not counted here.
func TestUncheckedLayerNotLoaded(t *testing.T) {
	for _, c := range []struct {
		state AppState
		want  []Unchecked
	}{
		{AppExited, []Unchecked{{UncheckedLayer, "the layer was not loaded by the app, so nothing was checked", 0, nil}}},
		{AppCrashed, []Unchecked{{UncheckedLayer, "the layer was not loaded by the app, so nothing was checked", 0, nil}}},
		{AppFailed, nil},
	} {
		col := newTestCollector()
		record(t, col, wire.KindAppStarted, &wire.AppStarted{Path: "/bin/true", Settings: wire.Settings{Checks: on}})
		record(t, col, wire.KindAppExited, &wire.AppExited{State: string(c.state)})
		if got := col.Snapshot().UncheckedAll(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.state, got, c.want)
		}
	}
}
