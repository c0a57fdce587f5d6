package session

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// Retention caps the saved sessions of a history: the oldest runs go
// first, until every run left is younger than MaxAge and together they
// take at most MaxBytes (0: no cap of that kind).
type Retention struct {
	MaxBytes int64
	MaxAge   time.Duration
}

// DefaultRetention keeps 1 GiB, and 30 days, of sessions.
var DefaultRetention = Retention{MaxBytes: 1 << 30, MaxAge: 30 * 24 * time.Hour}

// The retention settings are the options table's keep_size ("1GiB", the
// default, "500MB", "0" for no cap) and keep_age ("30d", the default, "12h",
// "0" for no cap): environment variables of gpuav-dbg.

// String is "1 GiB or 30 days".
func (r Retention) String() string {
	size, age := "any size", "any age"
	if r.MaxBytes > 0 {
		size = FormatBytes(r.MaxBytes)
	}
	if r.MaxAge > 0 {
		age = formatAge(r.MaxAge)
	}
	return size + " or " + age
}

func formatAge(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		n := int(d / (24 * time.Hour))
		return strconv.Itoa(n) + " " + plural(n, "day", "days")
	}
	return d.String()
}

// RetentionFrom reads the caps from the environment (options.KeepSize,
// options.KeepAge), the defaults where unset.
func RetentionFrom(getenv func(string) string) (Retention, error) {
	r := DefaultRetention
	if v := strings.TrimSpace(getenv(options.KeepSize.Env)); v != "" {
		n, err := ParseBytes(v)
		if err != nil {
			return r, fmt.Errorf("%s: %w", options.KeepSize.Env, err)
		}
		r.MaxBytes = n
	}
	if v := strings.TrimSpace(getenv(options.KeepAge.Env)); v != "" {
		d, err := ParseAge(v)
		if err != nil {
			return r, fmt.Errorf("%s: %w", options.KeepAge.Env, err)
		}
		r.MaxAge = d
	}
	return r, nil
}

// byteUnits are the size suffixes ParseBytes reads, longest first.
var byteUnits = []struct {
	suffix string
	n      int64
}{
	{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
	{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"kB", 1e3},
	{"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"k", 1 << 10}, {"B", 1},
}

// ParseBytes reads a size: "1GiB", "500MB", "2G" (binary), "4096", "0".
func ParseBytes(s string) (int64, error) {
	s = strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range byteUnits {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = strings.TrimSpace(rest), u.n
			break
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f*float64(mult) > 1<<62 {
		return 0, fmt.Errorf("%q is not a size (such as 1GiB, 500MB, 0 for no cap)", s)
	}
	return int64(f * float64(mult)), nil
}

// ParseAge reads an age: "30d", "12h", "90m", "0".
func ParseAge(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseFloat(days, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%q is not an age (such as 30d, 12h, 0 for no cap)", s)
		}
		return time.Duration(n * float64(24*time.Hour)), nil
	}
	if s == "0" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not an age (such as 30d, 12h, 0 for no cap)", s)
	}
	return d, nil
}

// FormatBytes is a size as people read it: "512 B", "41 KB", "22.3 MB",
// "1 GiB" (binary units above a KiB, named as most tools name them).
func FormatBytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n < 1<<20:
		return fmt.Sprintf("%d KB", (n+1<<9)>>10)
	case n < 1<<30:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.2f GB", float64(n)/(1<<30))
}

// SavedRun is a run of a history with what it takes on disk: its session
// file and the companions the launcher wrote beside it (the app's output
// files the session names).
type SavedRun struct {
	Run
	// Size is the bytes of the session file and its companions.
	Size int64
	// Modified is when the session file was last written.
	Modified time.Time
	// Companions are the other files of the run that are there.
	Companions []string
}

// Saved lists the runs of app ("" for all) with their sizes, oldest first.
func (h *History) Saved(app string) ([]SavedRun, error) {
	runs, err := h.Runs(app)
	if err != nil {
		return nil, err
	}
	out := make([]SavedRun, 0, len(runs))
	for _, r := range runs {
		fi, err := os.Lstat(r.Path)
		if err != nil || !fi.Mode().IsRegular() {
			continue // gone since, or not a file the launcher wrote
		}
		sr := SavedRun{Run: r, Size: fi.Size(), Modified: fi.ModTime()}
		for _, c := range h.companions(r.Path) {
			if ci, err := os.Lstat(c); err == nil && ci.Mode().IsRegular() {
				sr.Companions = append(sr.Companions, c)
				sr.Size += ci.Size()
			}
		}
		out = append(out, sr)
	}
	return out, nil
}

// companionHead is how much of a session file is read for its app's
// output files (the launcher's app_started frame comes first).
const companionHead = 1 << 20

// companions are the files beside a session that the launcher wrote for
// it: the app's output files its app_started frame names, when they are
// in the history's directory and named after the session (its name
// without .gvs, then a dot); else the "<stem>.stdout" and ".stderr" it
// used to write. Nothing else is ever a companion.
func (h *History) companions(path string) []string {
	stem := strings.TrimSuffix(filepath.Base(path), FileExt)
	ok := func(f string) bool {
		return filepath.Dir(f) == filepath.Clean(h.Dir) && strings.HasPrefix(filepath.Base(f), stem+".") &&
			!strings.HasSuffix(f, FileExt) && (strings.HasSuffix(f, ".stdout") || strings.HasSuffix(f, ".stderr"))
	}
	var out []string
	for _, f := range appOutputFiles(path) {
		if !filepath.IsAbs(f) {
			f = filepath.Join(filepath.Dir(path), f)
		}
		if f = filepath.Clean(f); ok(f) && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		for _, ext := range []string{".stdout", ".stderr"} {
			out = append(out, filepath.Join(filepath.Dir(path), stem+ext))
		}
	}
	return out
}

// appOutputFiles reads the app's output files from a session file's
// app_started frame (within its first MiB); nil when there is none.
func appOutputFiles(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, companionHead))
	if err != nil {
		return nil
	}
	header := ""
	for _, h := range fileHeaders {
		if strings.HasPrefix(string(data), h) {
			header = h
		}
	}
	if header == "" {
		return nil
	}
	fr := &frameReader{r: bufio.NewReader(bytes.NewReader(data[len(header):])), header: header, off: int64(len(header))}
	for {
		k, payload, err := fr.next()
		if err != nil {
			return nil
		}
		if k == wire.KindAppStarted {
			m, err := wire.Decode(k, payload)
			if st, ok := m.(*wire.AppStarted); err == nil && ok {
				var out []string
				for _, p := range []string{st.Stdout, st.Stderr} {
					if p != "" {
						out = append(out, p)
					}
				}
				return out
			}
			return nil
		}
	}
}

// Pruned is a run Prune deleted, and why.
type Pruned struct {
	SavedRun
	Reason string
}

// Prune deletes the oldest saved runs (their session files and
// companions) until r holds: first every run older than r.MaxAge, then the
// oldest until the rest take at most r.MaxBytes. keep lists session files
// never deleted (the runs of this invocation). It returns what it deleted,
// oldest first; an error names what it could not delete.
func (h *History) Prune(r Retention, now time.Time, keep ...string) ([]Pruned, error) {
	runs, err := h.Saved("")
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(runs, func(a, b SavedRun) int { return a.Modified.Compare(b.Modified) })
	var total int64
	for _, sr := range runs {
		total += sr.Size
	}
	kept := func(p string) bool {
		for _, k := range keep {
			if a, err := filepath.Abs(k); err == nil && a == p {
				return true
			}
			if k == p {
				return true
			}
		}
		return false
	}
	var out []Pruned
	var errs []error
	for _, sr := range runs {
		if kept(sr.Path) {
			continue
		}
		why := ""
		switch {
		case r.MaxAge > 0 && now.Sub(sr.Modified) > r.MaxAge:
			why = fmt.Sprintf("older than %s", formatAge(r.MaxAge))
		case r.MaxBytes > 0 && total > r.MaxBytes:
			why = fmt.Sprintf("the sessions take more than %s", FormatBytes(r.MaxBytes))
		default:
			continue
		}
		if err := removeRun(sr); err != nil {
			errs = append(errs, err)
			continue
		}
		total -= sr.Size
		out = append(out, Pruned{SavedRun: sr, Reason: why})
	}
	return out, errors.Join(errs...)
}

// removeRun deletes a run's companions, then its session file (so that a
// failure leaves the session, which lists them, to try again).
func removeRun(sr SavedRun) error {
	var errs []error
	for _, c := range sr.Companions {
		if err := os.Remove(c); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("prune %s: %w", c, bare(err)))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if err := os.Remove(sr.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("prune %s: %w", sr.Path, bare(err))
	}
	return nil
}
