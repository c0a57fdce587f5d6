package keys

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func TestBindings(t *testing.T) {
	k := Default()
	for _, tc := range []struct {
		msg  tea.KeyPressMsg
		want key.Binding
		name string
	}{
		{tea.KeyPressMsg{Code: 'j', Text: "j"}, k.Down, "down"},
		{tea.KeyPressMsg{Code: tea.KeyDown}, k.Down, "down"},
		{tea.KeyPressMsg{Code: 'k', Text: "k"}, k.Up, "up"},
		{tea.KeyPressMsg{Code: 'g', Text: "g"}, k.Top, "top"},
		{tea.KeyPressMsg{Code: 'g', ShiftedCode: 'G', Text: "G", Mod: tea.ModShift}, k.Bottom, "bottom"},
		{tea.KeyPressMsg{Code: tea.KeyTab}, k.NextPane, "next pane"},
		{tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, k.PrevPane, "previous pane"},
		{tea.KeyPressMsg{Code: 'h', Text: "h"}, k.Left, "pane left; tree: collapse, parent"},
		{tea.KeyPressMsg{Code: 'l', Text: "l"}, k.Right, "pane right; tree: expand"},
		{tea.KeyPressMsg{Code: tea.KeyEnter}, k.Open, "open the error's source; tree: expand/collapse"},
		{tea.KeyPressMsg{Code: tea.KeyEscape}, k.Back, "back to the tree; clear the filter; close"},
		{tea.KeyPressMsg{Code: '?', Text: "?"}, k.Help, "help"},
		{tea.KeyPressMsg{Code: 'q', Text: "q"}, k.Quit, "quit"},
		{tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}, k.Quit, "quit"},
		{tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}, k.Toggle, "tree: expand/collapse; settings: switch"},
		{tea.KeyPressMsg{Code: '/', Text: "/"}, k.Filter, "filter (message, file, check, action, labels)"},
		{tea.KeyPressMsg{Code: 'n', ShiftedCode: 'N', Text: "N", Mod: tea.ModShift}, k.PrevMatch, "previous error"},
		{tea.KeyPressMsg{Code: ']', Text: "]"}, k.NextInShader, "next error in the shader"},
		{tea.KeyPressMsg{Code: 'r', Text: "r"}, k.Rerun, "re-run the app with the settings"},
		{tea.KeyPressMsg{Code: 'R', Text: "R"}, k.RerunErrors, "re-run the erring pipelines only"},
		{tea.KeyPressMsg{Code: '>', Text: ">"}, k.NextRun, "next run"},
		{tea.KeyPressMsg{Code: tea.KeyLeft}, k.ScrollLeft, "scroll left (source, log)"},
		{tea.KeyPressMsg{Code: tea.KeyLeft}, k.Left, "pane left; tree: collapse, parent"},
		{tea.KeyPressMsg{Code: 'w', Text: "w"}, k.Wrap, "wrap long lines (log)"},
		{tea.KeyPressMsg{Code: 'e', Text: "e"}, k.Edit, "open the source in $EDITOR"},
		{tea.KeyPressMsg{Code: 'y', Text: "y"}, k.Copy, "copy the error's summary"},
		{tea.KeyPressMsg{Code: 'y', Text: "y"}, k.Yes, "yes: stop the app and re-run"},
		{tea.KeyPressMsg{Code: tea.KeyEnter}, k.Yes, "yes: stop the app and re-run"},
		{tea.KeyPressMsg{Code: 'n', Text: "n"}, k.No, "no: keep it running"},
		{tea.KeyPressMsg{Code: tea.KeyEscape}, k.No, "no: keep it running"},
	} {
		if !key.Matches(tc.msg, tc.want) {
			t.Errorf("%q does not match %s", tc.msg.String(), tc.name)
		}
		if tc.want.Help().Desc != tc.name {
			t.Errorf("binding for %q: help %q, want %q", tc.msg.String(), tc.want.Help().Desc, tc.name)
		}
	}
}

func TestHelpListsEveryBinding(t *testing.T) {
	k := Default()
	n := 0
	for _, col := range k.FullHelp() {
		for _, b := range col {
			if b.Help().Key == "" || b.Help().Desc == "" || len(b.Keys()) == 0 {
				t.Errorf("binding %v lacks keys or help", b.Keys())
			}
			n++
		}
	}
	// Every field of the key map is in the full help, once.
	v := reflect.ValueOf(*k)
	if n != v.NumField() || n != 48 {
		t.Errorf("full help lists %d bindings, the key map has %d fields (want 48)", n, v.NumField())
	}
	seen := map[string]bool{}
	for _, b := range k.All() {
		seen[b.Help().Key] = true
	}
	for i := range v.NumField() {
		b := v.Field(i).Interface().(key.Binding)
		if !seen[b.Help().Key] {
			t.Errorf("field %s (%s) is not in the full help", v.Type().Field(i).Name, b.Help().Key)
		}
	}
	short := k.ShortHelp()
	if short[0].Help().Desc != "help" || short[1].Help().Desc != "quit" {
		t.Errorf("short help must start with help and quit, got %q %q", short[0].Help().Desc, short[1].Help().Desc)
	}
}

// The README's key table is the overlay's list: regenerate it with
// go generate ./tui/keys when this fails.
func TestREADMEKeyTable(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := ReplaceTable(string(b), Default().Markdown())
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != want {
		t.Fatal("README.md's key table differs from the key map: run go generate ./tui/keys")
	}
	// Every binding's help is in the table, in a row of its own.
	for _, kb := range Default().All() {
		row := fmt.Sprintf("| `%s` | %s |", kb.Help().Key, kb.Help().Desc)
		if !strings.Contains(string(b), row) {
			t.Errorf("README lacks %q", row)
		}
	}
}
