package options

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// TestTableRules holds what every row must be: named by its key, shown
// where its kind and scope allow, carried in the hello exactly when its
// value lives in wire.Settings.
func TestTableRules(t *testing.T) {
	keys, envs, flags := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, o := range All() {
		prefix := map[Scope]string{Layer: EnvLayerPrefix, Launcher: EnvLauncherPrefix}[o.Scope]
		if o.Env != prefix+strings.ToUpper(o.Key) {
			t.Errorf("%s: variable %s, want %s", o.Key, o.Env, prefix+strings.ToUpper(o.Key))
		}
		if keys[o.Key] || envs[o.Env] || o.Flag != "" && flags[o.Flag] {
			t.Errorf("%s: key, variable or flag %q twice", o.Key, o.Flag)
		}
		keys[o.Key], envs[o.Env], flags[o.Flag] = true, true, true
		if o.Help == "" || o.Where&Manifest != 0 && o.Title == "" {
			t.Errorf("%s: no help or title", o.Key)
		}
		switch o.Kind {
		case Bool:
			if o.Default != "0" && o.Default != "1" {
				t.Errorf("%s: a Bool's default is 0 or 1, not %q", o.Key, o.Default)
			}
		case Enum:
			if !slices.ContainsFunc(o.Values, func(v Value) bool { return v.Key == o.Default }) {
				t.Errorf("%s: default %q is not one of its values", o.Key, o.Default)
			}
		case List:
			if o.Sep == "" {
				t.Errorf("%s: a List has a separator", o.Key)
			}
		}
		if o.Where&Pane != 0 && (o.Kind != Bool && o.Kind != Enum || o.Where&Hello == 0) {
			t.Errorf("%s: the pane switches Bools and Enums of the hello", o.Key)
		}
		if o.TestOnly && (!o.EnvOnly || o.Where&(Manifest|README|Pane|Hello|Passed) != 0) {
			t.Errorf("%s: a test hook is read from the environment only and shown nowhere but layer/README.md", o.Key)
		}
		if o.Scope == Launcher && o.Where&(Manifest|Pane|Hello|Passed) != 0 {
			t.Errorf("%s: a launcher option is not the layer's", o.Key)
		}
		if o.Scope == Layer && o.HasKey() && o.Where&Manifest == 0 {
			t.Errorf("%s: a layer setting with a key is in the manifest", o.Key)
		}
		if o.Where&Hidden != 0 && o.Where&Manifest == 0 {
			t.Errorf("%s: Hidden without Manifest", o.Key)
		}
		if o.Scope == Layer && o.Default != "" {
			if v, err := o.Read(o.Default); err != nil || v != o.Default {
				t.Errorf("%s: its default %q reads as %q, %v", o.Key, o.Default, v, err)
			}
		}
		// Hello: setting the row changes wire.Settings, and only then.
		if o.Scope == Layer {
			var v Values
			o.Set(&v, otherValue(o))
			inWire := !reflect.DeepEqual(v.Settings, wire.Settings{})
			if inWire != (o.Where&Hello != 0) {
				t.Errorf("%s: its value in wire.Settings %v, Hello %v", o.Key, inWire, o.Where&Hello != 0)
			}
		}
	}
}

// otherValue is a value of o other than its default.
func otherValue(o *Option) string {
	switch o.Kind {
	case Bool:
		return map[string]string{"0": "1", "1": "0"}[o.Default]
	case Uint:
		return "1234"
	case Enum:
		for _, v := range o.Values {
			if v.Key != o.Default {
				return v.Key
			}
		}
	}
	return "x"
}

// TestREADMETables: README.md's and layer/README.md's settings tables are
// the table's; regenerate them with go generate ./options when this fails.
func TestREADMETables(t *testing.T) {
	for path, table := range map[string]string{"../README.md": Markdown(), "../layer/README.md": LayerMarkdown()} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ReplaceTable(string(b), table)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if string(b) != want {
			t.Errorf("%s's settings table differs from the options table: run go generate ./options", path)
		}
	}
	for _, o := range With(README) {
		if !strings.Contains(Markdown(), "| `"+o.Env+"` |") {
			t.Errorf("README's table lacks %s", o.Env)
		}
	}
}

// testRow is a row as a new option would be: no field of its own, its
// value in Settings.Options.
func testRow() *Option {
	return &Option{Key: "test_row", Env: "VK_LAYER_GPUAV_DBG_TEST_ROW", Flag: "test-row", FlagArg: "N", Kind: Uint, Default: "7",
		Title: "Test row", Help: "a row of the test", Where: Manifest | README | Hello | Passed}
}

// TestReadReadsTheTable: Read gives every row a value, a new row's
// included: the one given, its default, or its default with a warning for
// a value it cannot read; a value moved into range is used, with a
// warning. The table's readers see a row WithExtra adds.
func TestReadReadsTheTable(t *testing.T) {
	defer WithExtra(testRow())()
	if ByKey("test_row") == nil || !slices.Contains(Of(Layer), ByKey("test_row")) || FileKeys(true)["test_row"] == "" {
		t.Fatal("WithExtra's row is not in the table")
	}
	env := map[string]string{"VK_LAYER_GPUAV_DBG_TEST_ROW": "12", PrintfBufferBytes.Env: "12", Robust.Env: "maybe",
		OnError.Env: "sideways"}
	v, given, w := Read(Of(Layer), func(e string) (string, string) { return env[e], e })
	if got := v.Options["test_row"]; got != "12" || given["test_row"] != "VK_LAYER_GPUAV_DBG_TEST_ROW" {
		t.Errorf("test row: %q from %q", got, given["test_row"])
	}
	if v.PrintfBufferBytes != 1024 || v.Robust || v.OnError != "skip" || !v.Checks["buffer_oob"] || v.LoopBudget != 1<<24 {
		t.Errorf("values %+v", v.Settings)
	}
	want := []string{
		`VK_LAYER_GPUAV_DBG_ON_ERROR: "sideways" is not a failed-access behaviour (use skip|clamp|execute); keeping skip`,
		`VK_LAYER_GPUAV_DBG_ROBUST="maybe" is not a boolean (use 1 or 0); keeping false`,
		`VK_LAYER_GPUAV_DBG_PRINTF_BUFFER_BYTES=12 is below 1024 bytes; using 1024`,
	}
	if !slices.Equal(w, want) {
		t.Errorf("warnings\n%q\nwant\n%q", w, want)
	}
	v, _, _ = Read(Of(Layer), func(e string) (string, string) { return "", e })
	if ByKey("test_row").Text(&v) != "7" || ByKey("test_row").Uint(&v) != 7 {
		t.Errorf("test row's default: %q", ByKey("test_row").Text(&v))
	}
	v, _, w = Read(Of(Layer), func(e string) (string, string) {
		if e == "VK_LAYER_GPUAV_DBG_TEST_ROW" {
			return "many", "file:3"
		}
		return "", e
	})
	if v.Options["test_row"] != "7" || len(w) != 1 || w[0] != `file:3: "many" is not a number; keeping 7` {
		t.Errorf("a bad value: %q %q", v.Options["test_row"], w)
	}
}

// envName is a string literal that names a variable of ours.
var envName = regexp.MustCompile(`"(VK_LAYER_GPUAV_DBG_|GPUAV_DBG_)[A-Z0-9_]*"`)

// TestNamesOnce: the table names every variable of ours once. No other
// product source spells one as a string literal, and the C half reads none
// (the test hooks come from Go, the generated names from the table).
func TestNamesOnce(t *testing.T) {
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("..", path)
		if d.IsDir() {
			switch rel {
			case ".git", "bin", "build", "e2e", "bench", "options", "testdata", "internal/referee", "layer/ctest":
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(path)
		if strings.HasSuffix(path, "_test.go") || ext != ".go" && ext != ".c" && ext != ".h" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, "_gen.h") {
			return nil
		}
		for _, m := range envName.FindAllString(string(b), -1) {
			t.Errorf("%s: %s spelled again: name the options table's row", rel, m)
		}
		if (ext == ".c" || ext == ".h") && strings.Contains(string(b), "getenv(") {
			t.Errorf("%s: the C half reads the environment: read the setting through the table (layer/settings.go)", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestHangWordsAsWire: the hang renderer (package gpuav, which imports
// neither wire nor options) writes wire's words for the breadcrumbs'
// granularity and an action's state, and its note names the breadcrumbs
// option's variable and values.
func TestHangWordsAsWire(t *testing.T) {
	if gpuav.HangGranularityPasses != wire.BreadcrumbsPasses || gpuav.HangStateRunning != wire.ActionRunning {
		t.Errorf("gpuav's %q and %q, wire's %q and %q", gpuav.HangGranularityPasses, gpuav.HangStateRunning,
			wire.BreadcrumbsPasses, wire.ActionRunning)
	}
	note := gpuav.HangMessage{Granularity: wire.BreadcrumbsPasses}.GranularityNote()
	for _, w := range []string{Breadcrumbs.Env + "=" + wire.BreadcrumbsActions, "--" + Breadcrumbs.Flag + " " + wire.BreadcrumbsActions} {
		if !strings.Contains(note, w) {
			t.Errorf("the note does not name %q: %s", w, note)
		}
	}
}
