package sourcemap

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// MaxSourceFile is the largest source file a Disk reads.
const MaxSourceFile = 4 << 20

// forbiddenRoots are never read, whatever the search path says: what is
// there is not source text, and reading it can leak secrets
// (/proc/self/environ) or hang (/dev).
var forbiddenRoots = []string{"/proc", "/sys", "/dev"}

// SourceExtensions are the file name extensions a Disk reads by default:
// those of GLSL, HLSL, Slang, WGSL, Metal and OpenCL sources and of the
// headers they include. A file of any other extension (or of none) is not
// read unless the user adds its extension (Disk.AllowExtensions: --source-ext,
// GPUAV_DBG_SOURCE_EXT): a module names whatever file the app's author (or
// an attacker) wrote into it, and a working directory holds more than
// shaders (.git/config, .env, id_rsa...).
var SourceExtensions = []string{
	".glsl", ".vert", ".frag", ".comp", ".geom", ".tesc", ".tese", ".mesh", ".task",
	".rgen", ".rint", ".rahit", ".rchit", ".rmiss", ".rcall",
	".vs", ".fs", ".gs", ".cs", ".vsh", ".fsh", ".glslh", ".glsli",
	".hlsl", ".hlsli", ".fx", ".fxh", ".slang", ".slangh", ".wgsl", ".metal", ".cl",
	".h", ".hpp", ".inc",
}

// Why a file that exists was not read (Disk.OnRefuse).
const (
	// RefusedHidden: the file's path below its source directory has a
	// component that starts with a dot (.git/, .env, .ssh/...).
	RefusedHidden = "hidden"
	// RefusedExtension: the file's extension is not a shader source's.
	RefusedExtension = "extension"
)

// Disk finds the source files a module names but does not carry (compiled
// with -g and the text stripped, or only OpLine), in a list of directories.
// A module is untrusted: the file names it gives are only read inside those
// directories, after resolving symlinks and "..", never under /proc, /sys
// or /dev, never where the path below the directory has a component that
// starts with a dot (a directory the user names may itself be one), only
// with a shader source's extension (SourceExtensions, AllowExtensions),
// and only when they are regular text files of at most MaxSourceFile
// bytes. Each file is read once and kept. It is safe for concurrent use.
type Disk struct {
	// Hint, when set, ends the note of a file that was not found (for
	// example how to add a directory to the search path).
	Hint string
	// OnRead, when set, is called with each file read from disk (not
	// one given by Record), once.
	OnRead func(name, path string, lines []string)
	// OnRefuse, when set, is called once for each file name whose file
	// exists inside the source directories but was not read because it is
	// hidden or not a shader source (why: RefusedHidden, RefusedExtension).
	OnRefuse func(name, path, why string)

	dirs  []string
	roots []string // the directories' real paths: what may be read
	exts  map[string]bool
	mu    sync.Mutex
	files map[string]diskFile
}

type diskFile struct {
	path  string
	lines []string
	err   error
	// how says where the text comes from ("read from PATH").
	how string
	// refused and why: a file that exists was not read (OnRefuse).
	refused, why string
}

// refusal is the error of a file that exists but is hidden or not a
// shader source.
type refusal struct {
	path, why, text string
}

func (r *refusal) Error() string { return r.text }

// NewDisk returns a Disk that looks in dirs, in order; empty entries are
// dropped, and so are directories under /proc, /sys or /dev.
func NewDisk(dirs ...string) *Disk {
	d := &Disk{files: map[string]diskFile{}, exts: map[string]bool{}}
	d.AllowExtensions(SourceExtensions...)
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		d.dirs = append(d.dirs, dir)
		real, err := realPath(dir)
		if err == nil && !forbidden(real) {
			d.roots = append(d.roots, real)
		}
	}
	return d
}

// realPath is path made absolute, with every symlink and ".." resolved.
func realPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// forbidden reports whether a real path is under /proc, /sys or /dev.
func forbidden(real string) bool {
	for _, r := range forbiddenRoots {
		if real == r || strings.HasPrefix(real, r+"/") {
			return true
		}
	}
	return false
}

// within reports whether a real path is inside one of the directories.
func (d *Disk) within(real string) bool {
	for _, root := range d.roots {
		rel, err := filepath.Rel(root, real)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return true
		}
	}
	return false
}

// AllowExtensions adds file name extensions ("comp" or ".comp", any case)
// to those the Disk reads. Call it before the first Find.
func (d *Disk) AllowExtensions(exts ...string) {
	for _, e := range exts {
		e = strings.ToLower(strings.TrimSpace(e))
		if e == "" || e == "." {
			continue
		}
		if !strings.HasPrefix(e, ".") {
			e = "." + e
		}
		d.exts[e] = true
	}
}

// hidden reports whether a real path inside a source directory has a
// component below that directory that starts with a dot. Each directory
// it lies in is asked: a path hidden below one may not be below another
// (a --source-path that names a dot-directory itself).
func (d *Disk) hidden(real string) bool {
	for _, root := range d.roots {
		rel, err := filepath.Rel(root, real)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			continue
		}
		dot := false
		for _, c := range strings.Split(rel, "/") {
			if strings.HasPrefix(c, ".") {
				dot = true
				break
			}
		}
		if !dot {
			return false
		}
	}
	return true
}

// Dirs returns the directories a Disk looks in.
func (d *Disk) Dirs() []string { return append([]string(nil), d.dirs...) }

// candidates lists the paths tried for a file name, in order: an absolute
// name as it is; then the name under each directory; then, for a name with
// directories in it (or an absolute one), its base name under each
// directory.
func (d *Disk) candidates(name string) []string {
	var out []string
	if filepath.IsAbs(name) {
		out = append(out, filepath.Clean(name))
	} else {
		for _, dir := range d.dirs {
			out = append(out, filepath.Join(dir, name))
		}
	}
	if base := filepath.Base(name); base != filepath.Clean(name) || filepath.IsAbs(name) {
		for _, dir := range d.dirs {
			out = append(out, filepath.Join(dir, base))
		}
	}
	return out
}

// Find returns the path and lines (line N is element N-1) of the file a
// module names, or an error saying where it looked and what it refused.
func (d *Disk) Find(name string) (string, []string, error) {
	path, lines, _, err := d.FindNote(name)
	return path, lines, err
}

// FindNote is Find that also says where the text comes from, for a note
// after "source text ": "read from PATH (the module carries none)", or
// for a file recorded at run time (Record) "recorded at run time from PATH
// (the module carries none)" and whether the file on disk has changed
// since.
func (d *Disk) FindNote(name string) (path string, lines []string, how string, err error) {
	if d == nil {
		return "", nil, "", errors.New("no search path")
	}
	d.mu.Lock()
	f, ok := d.files[name]
	if !ok {
		f = d.find(name)
		d.files[name] = f
	}
	d.mu.Unlock()
	if !ok && f.err == nil && d.OnRead != nil {
		d.OnRead(name, f.path, f.lines)
	}
	if !ok && f.refused != "" && d.OnRefuse != nil {
		d.OnRefuse(name, f.refused, f.why)
	}
	return f.path, f.lines, f.how, f.err
}

// Record gives the Disk the text of a file read at run time (a session
// being opened): Find returns it, not what the disk holds now, and its
// note says when the file on disk differs from it or is gone.
func (d *Disk) Record(name, path string, lines []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	how := "recorded at run time from " + path + " (the module carries none)"
	now := d.find(name)
	switch {
	case now.err != nil:
		how += "; it is not on disk now"
	case !slices.Equal(now.lines, lines):
		how += fmt.Sprintf("; %s on disk has changed since", now.path)
	}
	d.files[name] = diskFile{path: path, lines: lines, how: how}
}

func (d *Disk) find(name string) diskFile {
	if name == "" {
		return diskFile{err: errors.New("no file name")}
	}
	if strings.IndexByte(name, 0) >= 0 {
		return diskFile{err: errors.New("a file name with a NUL byte")}
	}
	var problems []string
	var refused *refusal
	for _, p := range d.candidates(name) {
		lines, err := d.readLines(p)
		if err == nil {
			return diskFile{path: p, lines: lines, how: "read from " + p + " (the module carries none)"}
		}
		if r := (*refusal)(nil); errors.As(err, &r) && refused == nil {
			refused = r
		}
		if !errors.Is(err, os.ErrNotExist) {
			problems = append(problems, err.Error())
		}
	}
	if len(problems) > 0 {
		f := diskFile{err: errors.New(strings.Join(problems, "; "))}
		if refused != nil {
			f.refused, f.why = refused.path, refused.why
		}
		return f
	}
	if len(d.dirs) == 0 {
		return diskFile{err: errors.New("no search path")}
	}
	return diskFile{err: fmt.Errorf("not found in %s", strings.Join(d.dirs, ", "))}
}

// readLines reads path when it is allowed: inside a directory of the
// search path once symlinks and ".." are resolved, not under /proc, /sys
// or /dev, a regular file of at most MaxSourceFile bytes with no NUL byte.
// It splits it into lines without their line ends.
func (d *Disk) readLines(path string) ([]string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	if forbidden(real) || !d.within(real) {
		return nil, fmt.Errorf("%s: outside the source directories (%s); not read", path, strings.Join(d.dirs, ", "))
	}
	if d.hidden(real) {
		return nil, &refusal{path: path, why: RefusedHidden,
			text: fmt.Sprintf("%s: a hidden path (a name that starts with a dot) below the source directories; not read (name its directory with --source-path to read it)", path)}
	}
	if ext := strings.ToLower(filepath.Ext(real)); !d.exts[ext] {
		what := "no extension"
		if ext != "" {
			what = "extension " + ext
		}
		return nil, &refusal{path: path, why: RefusedExtension,
			text: fmt.Sprintf("%s: %s is not a shader source's; not read (add it with --source-ext or GPUAV_DBG_SOURCE_EXT)", path, what)}
	}
	// O_NOFOLLOW: the last element cannot have become a link since;
	// O_NONBLOCK: a FIFO put there cannot hang the open.
	f, err := os.OpenFile(real, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	if fi.Size() > MaxSourceFile {
		return nil, fmt.Errorf("%s: larger than %d MiB", path, MaxSourceFile>>20)
	}
	// The file opened is the one checked (no directory swapped meanwhile).
	if opened, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", f.Fd())); err == nil && opened != real {
		return nil, fmt.Errorf("%s: changed while being opened; not read", path)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxSourceFile+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(b) > MaxSourceFile {
		return nil, fmt.Errorf("%s: larger than %d MiB", path, MaxSourceFile>>20)
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return nil, fmt.Errorf("%s: not a text file", path)
	}
	return splitLines(string(b)), nil
}

// splitLines splits text into lines, dropping a final newline and each
// line's carriage return.
func splitLines(text string) []string {
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return []string{}
	}
	lines := strings.Split(text, "\n")
	for i := range lines {
		lines[i] = strings.TrimSuffix(lines[i], "\r")
	}
	return lines
}
