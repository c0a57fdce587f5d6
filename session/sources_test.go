package session

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

func TestSourceDirs(t *testing.T) {
	got := SourceDirs("/app", []string{"/abs", "", "rel"})
	if want := []string{"/app", "/abs", "/app/rel"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SourceDirs = %q, want %q", got, want)
	}
	if got := SourceDirs("", nil); got != nil {
		t.Errorf("SourceDirs of nothing = %q", got)
	}
}

// TestCollectorSourceFromDisk: a module whose text was stripped gets its
// line from the file in the app's directory, live and when the session
// file is replayed; without the directory it gets the instruction.
func TestCollectorSourceFromDisk(t *testing.T) {
	dir, err := filepath.Abs("../examples/demo/shaders")
	if err != nil {
		t.Fatal(err)
	}
	run := func(started *wire.AppStarted) (*Session, []byte) { return strippedRun(t, dir, started) }
	s, file := run(&wire.AppStarted{Path: "/bin/app", Dir: "/nonexistent", SourcePath: []string{dir}})
	src := s.Groups[0].Source
	wantNote := "source text read from " + filepath.Join(dir, "oob_compute.comp") + " (the module carries none)"
	if src.File != "oob_compute.comp" || src.Line != 9 || src.Text != "    outs[pc.idx].v[i] = i * 3u;" || src.Note != wantNote ||
		src.Language != "glsl" || src.Function != "main" || src.ContextLine != 6 || len(src.Context) != 5 {
		t.Errorf("live source %+v", src)
	}
	if lines := s.Sources[SourceKey{ShaderID: 1, File: "oob_compute.comp"}]; len(lines) != 10 {
		t.Errorf("source pane lines %q", lines)
	}
	// The session file keeps the text read: a replay shows it, and says
	// it is the run's.
	replayed, err := Parse(file)
	if err != nil {
		t.Fatal(err)
	}
	want := *src
	want.Note = "source text recorded at run time from " + filepath.Join(dir, "oob_compute.comp") + " (the module carries none)"
	if got := replayed.Groups[0].Source; !reflect.DeepEqual(got, &want) {
		t.Errorf("replayed source %+v\nwant %+v", got, &want)
	}

	s, _ = run(&wire.AppStarted{Path: "/bin/app", Dir: "/nonexistent"})
	src = s.Groups[0].Source
	wantNote = "the module carries no source text for oob_compute.comp, and it was not found in /nonexistent (" + SourcePathHint + "); showing the SPIR-V instruction"
	if src.Line != 9 || src.Language != "spirv" || src.Note != wantNote || src.Text == "" || src.Caret() != "" {
		t.Errorf("source without the directory %+v", src)
	}

	// The sources moved after the run: open --source-path finds them.
	_, file = run(&wire.AppStarted{Path: "/bin/app", Dir: "/nonexistent"})
	path := filepath.Join(t.TempDir(), "run.gvs")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	opened, err := OpenWith(path, OpenOptions{SourcePath: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	src = opened.Groups[0].Source
	wantNote = "source text read from " + filepath.Join(dir, "oob_compute.comp") + " (the module carries none)"
	if src.Line != 9 || src.Text != "    outs[pc.idx].v[i] = i * 3u;" || src.Note != wantNote || src.Language != "glsl" {
		t.Errorf("source opened with a search path %+v", src)
	}
	if plain, err := Open(path); err != nil || plain.Groups[0].Source.Language != "spirv" {
		t.Errorf("source opened without a search path: %+v, %v", plain.Groups[0].Source, err)
	}
}

// TestOpenShowsRecordedSource: a source file read during the run is kept
// in the session file; opened after the file changed on disk, the session
// shows the run's text and says that the disk differs.
func TestOpenShowsRecordedSource(t *testing.T) {
	dir := t.TempDir()
	orig, err := os.ReadFile("../examples/demo/shaders/oob_compute.comp")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "oob_compute.comp")
	if err := os.WriteFile(path, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	_, file := strippedRun(t, dir, &wire.AppStarted{Path: "/bin/app", Dir: dir})
	if !bytes.Contains(file, []byte(`"name":"oob_compute.comp"`)) {
		t.Fatal("no source_file frame in the session file")
	}
	// The line changes on disk after the run.
	edited := bytes.Replace(orig, []byte("outs[pc.idx].v[i] = i * 3u;"), []byte("outs[min(pc.idx, 1u)].v[i] = i;"), 1)
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Parse(file)
	if err != nil {
		t.Fatal(err)
	}
	src := s.Groups[0].Source
	wantNote := "source text recorded at run time from " + path + " (the module carries none); " + path + " on disk has changed since"
	if src.Text != "    outs[pc.idx].v[i] = i * 3u;" || src.Note != wantNote {
		t.Errorf("opened after the file changed: text %q note %q\nwant note %q", src.Text, src.Note, wantNote)
	}
	if lines := s.Sources[SourceKey{ShaderID: 1, File: "oob_compute.comp"}]; len(lines) != 10 || lines[8] != src.Text {
		t.Errorf("source pane lines %q", lines)
	}
}

// strippedRun records a run of oob_compute.comp of dir compiled with -g
// and its text stripped, started, with one record at its store, into a
// collector with a session file, and returns the session and the file.
func strippedRun(t *testing.T, dir string, started *wire.AppStarted) (*Session, []byte) {
	t.Helper()
	words := shadertest.StripSourceText(t, shadertest.Compile(t, dir, "oob_compute.comp", "-g", "--target-env", "vulkan1.1"))
	store := shadertest.LastOp(t, words, spirv.OpStore) // the write through outs[pc.idx]
	var file bytes.Buffer
	file.WriteString(FileHeader)
	c := NewCollector()
	c.SetFile(&file)
	record(t, c, wire.KindAppStarted, started)
	record(t, c, wire.KindHello, &wire.Hello{Protocol: wire.ProtocolVersion})
	record(t, c, wire.KindShader, &wire.Shader{ID: 1, Module: 0xabc, SPIRV: spirv.BytesFromWords(words), Instrumented: true})
	r := computeRecord(0)
	r.Instruction = uint32(store)
	record(t, c, wire.KindErrors, &wire.Errors{CommandBuffer: 0x55, Records: []wire.Record{r}})
	return c.Snapshot(), file.Bytes()
}
