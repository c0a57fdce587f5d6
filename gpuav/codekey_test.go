package gpuav

import (
	"reflect"
	"testing"
)

// TestCodeKeyCoversOptions: every option but ShaderID changes a module's
// code key (a field added to Options is in it), ShaderID does not, and the
// words do.
func TestCodeKeyCoversOptions(t *testing.T) {
	words := []uint32{0x07230203, 0x10000, 0, 5, 0}
	base := Options{}.Key(words)
	if (Options{ShaderID: 77}).Key(words) != base {
		t.Error("ShaderID changes the key")
	}
	if (Options{}).Key(append(words, 1)) == base {
		t.Error("the words do not change the key")
	}
	typ := reflect.TypeFor[Options]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		if f.Name == "ShaderID" {
			continue
		}
		var o Options
		v := reflect.ValueOf(&o).Elem().Field(i)
		switch v.Kind() {
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Uint32, reflect.Uint64, reflect.Uint:
			v.SetUint(1)
		case reflect.Int, reflect.Int32, reflect.Int64:
			v.SetInt(1)
		case reflect.String:
			v.SetString("x")
		case reflect.Map:
			m := reflect.MakeMap(v.Type())
			m.SetMapIndex(reflect.ValueOf("x").Convert(v.Type().Key()), reflect.Zero(v.Type().Elem()))
			v.Set(m)
		case reflect.Struct:
			o.PrintfAt = PrintfAt{Terms: []PrintfTerm{{Name: "x"}}}
			if f.Name != "PrintfAt" {
				t.Fatalf("field %s: a struct the test cannot fill", f.Name)
			}
		default:
			t.Fatalf("field %s: kind %v the test cannot fill", f.Name, v.Kind())
		}
		if o.Key(words) == base {
			t.Errorf("field %s does not change the key", f.Name)
		}
		// The same options made again give the same key (no pointer in
		// the key's text).
		o2 := o
		if o2.Key(words) != o.Key(words) {
			t.Errorf("field %s: two keys of the same options", f.Name)
		}
	}
	if (Options{Checks: map[string]bool{"a": true, "b": false}}).Key(words) !=
		(Options{Checks: map[string]bool{"b": false, "a": true}}).Key(words) {
		t.Error("the checks' order changes the key")
	}
}
