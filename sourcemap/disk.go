package sourcemap

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// MaxSourceFile is the largest source file a Disk reads.
const MaxSourceFile = 16 << 20

// Disk finds the source files a module names but does not carry (compiled
// with -g and the text stripped, or only OpLine), in a list of directories.
// Each file is read once and kept. It is safe for concurrent use.
type Disk struct {
	// Hint, when set, ends the note of a file that was not found (for
	// example how to add a directory to the search path).
	Hint string

	dirs  []string
	mu    sync.Mutex
	files map[string]diskFile
}

type diskFile struct {
	path  string
	lines []string
	err   error
}

// NewDisk returns a Disk that looks in dirs, in order; empty entries are
// dropped.
func NewDisk(dirs ...string) *Disk {
	d := &Disk{files: map[string]diskFile{}}
	for _, dir := range dirs {
		if dir != "" {
			d.dirs = append(d.dirs, dir)
		}
	}
	return d
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
// module names, or an error saying where it looked.
func (d *Disk) Find(name string) (string, []string, error) {
	if d == nil {
		return "", nil, errors.New("no search path")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if f, ok := d.files[name]; ok {
		return f.path, f.lines, f.err
	}
	f := d.find(name)
	d.files[name] = f
	return f.path, f.lines, f.err
}

func (d *Disk) find(name string) diskFile {
	if name == "" {
		return diskFile{err: errors.New("no file name")}
	}
	var problems []string
	for _, p := range d.candidates(name) {
		lines, err := readLines(p)
		if err == nil {
			return diskFile{path: p, lines: lines}
		}
		if !errors.Is(err, os.ErrNotExist) {
			problems = append(problems, err.Error())
		}
	}
	if len(problems) > 0 {
		return diskFile{err: errors.New(strings.Join(problems, "; "))}
	}
	if len(d.dirs) == 0 {
		return diskFile{err: errors.New("no search path")}
	}
	return diskFile{err: fmt.Errorf("not found in %s", strings.Join(d.dirs, ", "))}
}

// readLines reads a regular file of at most MaxSourceFile bytes and splits
// it into lines without their line ends.
func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
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
	b, err := io.ReadAll(io.LimitReader(f, MaxSourceFile+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
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
