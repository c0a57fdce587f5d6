package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// History is the saved sessions of a directory (by default DefaultDir):
// every run of an app is a file <app>-<YYYYMMDD-HHMMSS>.gvs there, so the
// runs of one app, oldest first, are its history.
type History struct {
	Dir string
}

// Run is one saved session in a history.
type Run struct {
	Path string
	// App is the app's name as the file name spells it (AppName).
	App string
	// Time is when the run started, to the second, local time.
	Time time.Time
	// Seq tells apart runs started in the same second (0, then 2, 3...).
	Seq int
	// Rerun is the number of a run the TUI started again from this one
	// (<first run>.2.gvs, .3...; 0 for the first run).
	Rerun int
}

// compareRuns orders runs by start time, then sequence, then re-run, then
// app name.
func compareRuns(a, b Run) int {
	if c := a.Time.Compare(b.Time); c != 0 {
		return c
	}
	if a.Seq != b.Seq {
		return a.Seq - b.Seq
	}
	if a.Rerun != b.Rerun {
		return a.Rerun - b.Rerun
	}
	return strings.Compare(a.App, b.App)
}

// ErrNoPrevious: the run is its app's first.
var ErrNoPrevious = errors.New("no earlier run of this app")

// DefaultHistory is the history in DefaultDir.
func DefaultHistory() (*History, error) {
	dir, err := DefaultDir()
	if err != nil {
		return nil, err
	}
	return &History{Dir: dir}, nil
}

// timeLayout is the time in a session file name.
const timeLayout = "20060102-150405"

// AppName is the name an app's sessions are filed under: the base name of
// its path, characters other than letters, digits, '.', '_' and '-'
// replaced by '_'.
func AppName(app string) string {
	name := unsafeName.ReplaceAllString(filepath.Base(app), "_")
	if name == "" || name == "." || name == ".." {
		name = "app"
	}
	return name
}

// ParseRunName reads a session file name (<app>-<time>[-N][.R].gvs: R
// for a re-run); ok is false for other names.
func ParseRunName(path string) (Run, bool) {
	base := filepath.Base(path)
	stem, found := strings.CutSuffix(base, FileExt)
	if !found {
		return Run{}, false
	}
	rerun := 0
	if i := strings.LastIndexByte(stem, '.'); i >= 0 {
		if n, err := strconv.Atoi(stem[i+1:]); err == nil && n >= 2 {
			rerun, stem = n, stem[:i]
		}
	}
	seq := 0
	if i := strings.LastIndexByte(stem, '-'); i >= 0 && len(stem)-i <= 4 {
		if n, err := strconv.Atoi(stem[i+1:]); err == nil && n >= 2 {
			seq, stem = n, stem[:i]
		}
	}
	if len(stem) < len(timeLayout)+2 || stem[len(stem)-len(timeLayout)-1] != '-' {
		return Run{}, false
	}
	t, err := time.ParseInLocation(timeLayout, stem[len(stem)-len(timeLayout):], time.Local)
	if err != nil {
		return Run{}, false
	}
	return Run{Path: path, App: stem[:len(stem)-len(timeLayout)-1], Time: t, Seq: seq, Rerun: rerun}, true
}

// Runs lists the saved runs of app (a path or a name; "" for every app),
// oldest first. A missing directory is an empty history.
func (h *History) Runs(app string) ([]Run, error) {
	entries, err := os.ReadDir(h.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("session history %s: %w", h.Dir, err)
	}
	name := ""
	if app != "" {
		name = AppName(app)
	}
	var runs []Run
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		r, ok := ParseRunName(filepath.Join(h.Dir, e.Name()))
		if !ok || (name != "" && r.App != name) {
			continue
		}
		runs = append(runs, r)
	}
	slices.SortFunc(runs, compareRuns)
	return runs, nil
}

// Previous is the run of the same app saved just before the session file
// path (ErrNoPrevious when there is none): what a re-run is compared with.
func (h *History) Previous(path string) (Run, error) {
	cur, ok := ParseRunName(path)
	if !ok {
		return Run{}, fmt.Errorf("session history: %s is not named like a saved run (<app>-<time>%s)", path, FileExt)
	}
	runs, err := h.Runs(cur.App)
	if err != nil {
		return Run{}, err
	}
	for i := len(runs) - 1; i >= 0; i-- {
		r := runs[i]
		if compareRuns(r, cur) < 0 {
			return r, nil
		}
	}
	return Run{}, ErrNoPrevious
}

// OpenPair opens two sessions to compare. A truncated one opens as far as
// it is readable and its *TruncatedError is returned with both sessions;
// any other error comes with nil sessions.
func OpenPair(oldPath, newPath string) (old, cur *Session, err error) {
	old, errOld := Open(oldPath)
	cur, errNew := Open(newPath)
	if old == nil || cur == nil {
		return nil, nil, errors.Join(errOld, errNew)
	}
	return old, cur, errors.Join(errOld, errNew)
}

// DiffKind says how a group changed between two runs.
type DiffKind int

// Diff kinds.
const (
	// DiffSame: the group is in both runs with the same count.
	DiffSame DiffKind = iota
	// DiffNew: only the newer run has the group.
	DiffNew
	// DiffFixed: only the older run has the group.
	DiffFixed
	// DiffChanged: both have it, with another count or descriptor index.
	DiffChanged
	// DiffUnchecked: only the older run has the group, and the newer run
	// could not have found it (GroupDiff.Reason: its check off, the layer
	// not loaded, the app crashed...): not fixed, no longer checked.
	DiffUnchecked
)

// String names the kind: same, new, fixed, changed.
func (k DiffKind) String() string {
	switch k {
	case DiffSame:
		return "same"
	case DiffNew:
		return "new"
	case DiffFixed:
		return "fixed"
	case DiffChanged:
		return "changed"
	case DiffUnchecked:
		return "no longer checked"
	}
	return fmt.Sprintf("DiffKind(%d)", int(k))
}

// GroupDiff is one group of either run and how it changed.
type GroupDiff struct {
	Kind DiffKind
	// Key is what matched the groups: check, source location and action.
	Key string
	// Old and New are the groups in the older and newer run (Old is nil
	// for a new group, New for a fixed one).
	Old, New *ErrorGroup
	// Reason says why the newer run could not find the group
	// (DiffUnchecked).
	Reason string
}

// CountDelta is the newer count minus the older.
func (d GroupDiff) CountDelta() int {
	n := 0
	if d.New != nil {
		n += d.New.Count
	}
	if d.Old != nil {
		n -= d.Old.Count
	}
	return n
}

// DiffSummary counts the diffs by kind.
type DiffSummary struct {
	New, Fixed, Changed, Same, Unchecked int
}

// String is "2 new, 1 fixed, 0 changed, 3 same", with ", 2 no longer
// checked" after "fixed" when there are any.
func (s DiffSummary) String() string {
	unchecked := ""
	if s.Unchecked > 0 {
		unchecked = fmt.Sprintf(", %d no longer checked", s.Unchecked)
	}
	return fmt.Sprintf("%d new, %d fixed%s, %d changed, %d same", s.New, s.Fixed, unchecked, s.Changed, s.Same)
}

// Summarize counts diffs by kind.
func Summarize(diffs []GroupDiff) DiffSummary {
	var s DiffSummary
	for _, d := range diffs {
		switch d.Kind {
		case DiffNew:
			s.New++
		case DiffFixed:
			s.Fixed++
		case DiffChanged:
			s.Changed++
		case DiffUnchecked:
			s.Unchecked++
		default:
			s.Same++
		}
	}
	return s
}

// CompareKey is what identifies a group across runs, where handles and
// shader ids may differ: the check, the source location (file:line, else
// the shader id and instruction) and the action (command and index).
func CompareKey(g *ErrorGroup) string {
	where := g.where()
	if src := g.Source; src != nil && src.File != "" && src.Line > 0 {
		where = fmt.Sprintf("%s:%d", src.File, src.Line)
	}
	return fmt.Sprintf("%s %s %s #%d", g.Check, where, g.Action, g.ActionIndex)
}

// Compare matches the groups of an older and a newer run by CompareKey
// (groups with the same key pair up in arrival order) and says what is new,
// fixed, changed (count or descriptor index) or the same: the newer run's
// groups in its order, then the fixed ones in the older run's order. A
// group only the older run has is fixed only when the newer run could
// have found it (Session.NotCheckedFor); else it is no longer checked.
func Compare(old, cur *Session) []GroupDiff {
	byKey := map[string][]*ErrorGroup{}
	if old != nil {
		for _, g := range old.Groups {
			k := CompareKey(g)
			byKey[k] = append(byKey[k], g)
		}
	}
	matched := map[*ErrorGroup]bool{}
	var diffs []GroupDiff
	if cur != nil {
		for _, g := range cur.Groups {
			k := CompareKey(g)
			d := GroupDiff{Kind: DiffNew, Key: k, New: g}
			if olds := byKey[k]; len(olds) > 0 {
				d.Old, byKey[k] = olds[0], olds[1:]
				matched[d.Old] = true
				d.Kind = DiffSame
				if d.Old.Count != g.Count || !sameDescriptor(d.Old.Descriptor, g.Descriptor) {
					d.Kind = DiffChanged
				}
			}
			diffs = append(diffs, d)
		}
	}
	if old != nil {
		for _, g := range old.Groups {
			if !matched[g] {
				d := GroupDiff{Kind: DiffFixed, Key: CompareKey(g), Old: g}
				if cur != nil {
					if why := cur.NotCheckedFor(g.Check); why != "" {
						d.Kind, d.Reason = DiffUnchecked, why
					}
				}
				diffs = append(diffs, d)
			}
		}
	}
	return diffs
}

func sameDescriptor(a, b *Descriptor) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
