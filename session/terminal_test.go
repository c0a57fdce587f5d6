package session

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// hostile is what a forged module or frame puts in every string.
const hostile = "\x1b[2J\x1b]52;c;c2VjcmV0\x07\u009b31m\u009d0;x\x9c\u202e\r"

// fill sets every string reachable from v to hostile, every slice and map
// to one element and every pointer to a new value, so that a test covers
// every field the session has, now and later.
func fill(v reflect.Value, depth int) {
	if depth > 8 {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(hostile)
	case reflect.Pointer:
		if v.Type() == reflect.TypeFor[*time.Location]() {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), depth+1)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0), depth+1)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k := reflect.New(v.Type().Key()).Elem()
		e := reflect.New(v.Type().Elem()).Elem()
		fill(k, depth+1)
		fill(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	}
}

// strings calls f with the path and value of every string reachable from
// v.
func eachString(v reflect.Value, path string, f func(path, s string)) {
	switch v.Kind() {
	case reflect.String:
		f(path, v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			eachString(v.Elem(), path, f)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				eachString(v.Field(i), path+"."+v.Type().Field(i).Name, f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			eachString(v.Index(i), path+"[]", f)
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			eachString(it.Key(), path+"{key}", f)
			eachString(it.Value(), path+"{}", f)
		}
	}
}

// TestForTerminalEveryString: every string of a session whose every
// string is hostile comes out escaped, and the session itself is not
// changed.
func TestForTerminalEveryString(t *testing.T) {
	s := &Session{}
	fill(reflect.ValueOf(s).Elem(), 0)
	out := s.ForTerminal()
	n := 0
	eachString(reflect.ValueOf(out), "Session", func(path, v string) {
		n++
		if strings.ContainsAny(v, "\x1b\x07\r\u009b\u009d\u202e") || strings.Contains(v, "\x9c") {
			t.Errorf("%s = %q", path, v)
		}
		if !strings.Contains(v, `\x1b[2J\x1b]52;c;c2VjcmV0\x07\u009b31m\u009d0;x\x9c\u202e\r`) {
			t.Errorf("%s = %q: not visibly escaped", path, v)
		}
	})
	if n < 80 {
		t.Fatalf("only %d strings in the filled session", n)
	}
	eachString(reflect.ValueOf(s), "Session", func(path, v string) {
		if v != hostile {
			t.Errorf("the original's %s changed to %q", path, v)
		}
	})
}

// TestForTerminalSharesClean: a session with nothing to escape comes back
// sharing its groups, output and sources; a hostile name in one group
// copies that group only.
func TestForTerminalSharesClean(t *testing.T) {
	c := newTestCollector()
	fullRun(t, c)
	s := c.Snapshot()
	out := s.ForTerminal()
	if &out.Groups[0] != &s.Groups[0] || out.Groups[1] != s.Groups[1] || &out.Output[0] != &s.Output[0] ||
		!reflect.DeepEqual(out, s) {
		t.Fatal("a clean session was copied or changed")
	}
	s.Groups[1] = &ErrorGroup{CommandBuffer: Handle{Handle: "0x66", Name: "cmd\u009b2J"}}
	out = s.ForTerminal()
	if out.Groups[0] != s.Groups[0] || out.Groups[1] == s.Groups[1] || out.Groups[1].CommandBuffer.Name != `cmd\u009b2J` ||
		s.Groups[1].CommandBuffer.Name != "cmd\u009b2J" {
		t.Fatalf("groups: %+v", out.Groups[1].CommandBuffer)
	}
}
