package session

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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

// TestSourceSecretsNotRead: a module whose stripped debug info names a
// hidden file of the app's working directory (.git/config with a CI
// token, .env, .ssh/id_rsa) or a file that is not a shader source gets no
// line of it, live or opened, in the session, the JSON or the SARIF; a
// notice says what was refused and how to allow it. A hidden directory the
// user names (--source-path) and an extension the user adds
// (--source-ext) are read.
func TestSourceSecretsNotRead(t *testing.T) {
	const token = "AUTHORIZATION: basic c2VjcmV0LXRva2Vu"
	cwd := t.TempDir()
	for name, text := range map[string]string{
		".git/config":       "[http]\n" + strings.Repeat("\textraheader = "+token+"\n", 11),
		".env":              strings.Repeat("GITHUB_TOKEN="+token+"\n", 12),
		".ssh/id_rsa":       "-----BEGIN OPENSSH PRIVATE KEY-----\n" + strings.Repeat(token+"\n", 11),
		"deploy.conf":       strings.Repeat(token+"\n", 12),
		".shaders/oob.comp": strings.Repeat("// shader\n", 12),
	} {
		p := filepath.Join(cwd, name)
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	hidden := "hidden (a name below the source directories starts with a dot: .git/, .env, .ssh/...); name its directory with --source-path to read it"
	ext := "not a shader source by its extension; add the extension with --source-ext or GPUAV_DBG_SOURCE_EXT"
	for _, c := range []struct {
		file       string
		sourcePath []string
		sourceExt  []string
		notice     string // "": none
		read       bool
	}{
		{".git/config", nil, nil, "source file .git/config not read: " + hidden, false},
		{".env", nil, nil, "source file .env not read: " + hidden, false},
		{".ssh/id_rsa", nil, nil, "source file .ssh/id_rsa not read: " + hidden, false},
		{filepath.Join(cwd, ".git/config"), nil, nil, "source file " + filepath.Join(cwd, ".git/config") + " not read: " + hidden, false},
		{"deploy.conf", nil, nil, "source file deploy.conf not read: " + ext, false},
		{".ssh/id_rsa", []string{".ssh"}, nil, "source file .ssh/id_rsa not read: " + ext, false},
		{".shaders/oob.comp", nil, nil, "source file .shaders/oob.comp not read: " + hidden, false},
		{".shaders/oob.comp", []string{".shaders"}, nil, "", true},
		{"deploy.conf", nil, []string{"conf"}, "", true},
	} {
		t.Run(fmt.Sprintf("%s %q %q", c.file, c.sourcePath, c.sourceExt), func(t *testing.T) {
			s, file := namedRun(t, c.file, &wire.AppStarted{Path: "/bin/app", Dir: cwd, SourcePath: c.sourcePath, SourceExt: c.sourceExt})
			opened, err := Parse(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []*Session{s, opened} {
				var j, sarif bytes.Buffer
				if err := WriteReport(&j, s); err != nil {
					t.Fatal(err)
				}
				if err := WriteSARIF(&sarif, s); err != nil {
					t.Fatal(err)
				}
				if got := strings.Contains(j.String()+sarif.String(), token); got != (c.read && c.file == "deploy.conf") {
					t.Errorf("the token in a report: %v", got)
				}
				var notices []string
				for _, n := range s.Notices {
					if strings.HasPrefix(n.Text, "source file") {
						notices = append(notices, n.Level+": "+n.Text)
					}
				}
				want := []string{}
				if c.notice != "" {
					want = []string{"warning: " + c.notice}
				}
				if strings.Join(notices, "\n") != strings.Join(want, "\n") {
					t.Errorf("notices %q, want %q", notices, want)
				}
				src := s.Groups[0].Source
				if read := strings.HasPrefix(src.Note, "source text read from") || strings.HasPrefix(src.Note, "source text recorded at run time"); read != c.read {
					t.Errorf("source %+v, read: want %v", src, c.read)
				}
			}
		})
	}
}

// namedRun is strippedRun with the module's file named name.
func namedRun(t *testing.T, name string, started *wire.AppStarted) (*Session, []byte) {
	t.Helper()
	words := shadertest.StripSourceText(t, shadertest.Compile(t, "../examples/demo/shaders", "oob_compute.comp", "-g", "--target-env", "vulkan1.1"))
	store := shadertest.LastOp(t, words, spirv.OpStore)
	h, insts, err := spirv.ParseInstructions(words)
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range insts {
		if in.Opcode() == spirv.OpString {
			if s, _ := spirv.DecodeString(in.Words[2:]); strings.HasSuffix(s, "oob_compute.comp") {
				insts[i] = spirv.NewInstruction(spirv.OpString, append([]uint32{in.Words[1]}, spirv.EncodeString(name)...)...)
			}
		}
	}
	words = spirv.EncodeInstructions(h, insts)
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
