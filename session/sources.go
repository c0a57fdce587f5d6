package session

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/options"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
	"github.com/gpuav-dbg/gpuav-dbg/sourcemap"
)

// SourcePathHint ends the note of a source file that is not in the search
// path: how the user adds a directory.
var SourcePathHint = "add its directory with --source-path DIR or " + options.SourcePath.Env

// SourceDirs is the search path for source files a module names but does
// not carry: the app's working directory, then the user's directories
// (relative ones are taken from the working directory).
func SourceDirs(dir string, path []string) []string {
	var out []string
	if dir != "" {
		out = append(out, dir)
	}
	for _, p := range path {
		if p == "" {
			continue
		}
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		out = append(out, p)
	}
	return out
}

// setSourceDirs takes the search path from the app-started message, live
// and when a session file is replayed. Called with c.mu held.
func (c *Collector) setSourceDirs(m *wire.AppStarted) {
	c.sourceExt = append(c.sourceExt, m.SourceExt...)
	if m.Dir == "" && len(m.SourcePath) == 0 {
		if c.disk != nil {
			c.disk.AllowExtensions(m.SourceExt...)
		}
		return
	}
	c.setDisk(append(SourceDirs(m.Dir, m.SourcePath), c.extraDirs...))
	// Maps built before know nothing of the disk: nothing to redo, lookups
	// pass the disk each time.
}

// setDisk makes the search path dirs. A file read from disk live is kept
// in the session file (wire.SourceFile), so that opening the session shows
// the text of the run. Called with c.mu held, or before the collector is
// shared.
func (c *Collector) setDisk(dirs []string) {
	c.disk = sourcemap.NewDisk(dirs...)
	c.disk.Hint = SourcePathHint
	c.disk.AllowExtensions(c.sourceExt...)
	c.disk.OnRefuse = c.noticeRefusedSource
	if !c.replay {
		c.disk.OnRead = func(name, path string, lines []string) {
			c.sourceFiles = append(c.sourceFiles, &wire.SourceFile{Name: name, Path: path, Lines: lines})
		}
	}
}

// recordSource gives the search path a file read during the run: the
// session shows its text as it was then, and says when the disk differs.
// Called with c.mu held.
func (c *Collector) recordSource(m *wire.SourceFile) {
	if c.disk == nil {
		c.setDisk(c.extraDirs)
	}
	lines := m.Lines
	if lines == nil {
		lines = []string{}
	}
	c.disk.Record(m.Name, m.Path, lines)
}

// noticeRefusedSource says that a source file a module names exists but
// was not read: one notice per reason, naming the first few files. Called
// with c.mu held (the disk is asked while a message is applied).
func (c *Collector) noticeRefusedSource(name, path, why string) {
	var rest string
	switch why {
	case sourcemap.RefusedHidden:
		rest = "hidden (a name below the source directories starts with a dot: .git/, .env, .ssh/...); name its directory with --source-path to read it"
	default:
		rest = "not a shader source by its extension; add the extension with --source-ext or " + options.SourceExt.Env
	}
	c.noticeCause("warning", "source refused: "+why, name, func(n int, list string) string {
		if n == 1 {
			return fmt.Sprintf("source file %s not read: %s", list, rest)
		}
		return fmt.Sprintf("%d source files not read (%s): %s", n, list, rest)
	})
}

// OpenOptions adjust how a session file is read back.
type OpenOptions struct {
	// SourcePath is searched, after the directories the run recorded, for
	// shader source files the modules name but do not carry (open
	// --source-path): the sources may have moved since the run.
	SourcePath []string
	// SourceExt are file name extensions read as shader sources besides
	// those the run recorded and sourcemap.SourceExtensions (open
	// --source-ext).
	SourceExt []string
}

// OpenWith is Open with options.
func OpenWith(path string, o OpenOptions) (*Session, error) {
	return openFile(path, func(c *Collector) {
		c.sourceExt = append(c.sourceExt, o.SourceExt...)
		if len(o.SourcePath) > 0 {
			c.extraDirs = o.SourcePath
			c.setDisk(o.SourcePath)
		}
	})
}

// diskMapper is a sourceMapper that can also read files from disk.
type diskMapper interface {
	LookupIn(instruction int, d *sourcemap.Disk) sourcemap.Location
	FileLinesIn(file string, d *sourcemap.Disk) []string
}

// mapLookup looks an instruction up, with the search path when the map
// can use it.
func (c *Collector) mapLookup(m sourceMapper, instruction int) (sourcemap.Location, []string) {
	var loc sourcemap.Location
	var lines []string
	if dm, ok := m.(diskMapper); ok {
		loc = dm.LookupIn(instruction, c.disk)
		if loc.File != "" {
			lines = dm.FileLinesIn(loc.File, c.disk)
		}
		return loc, lines
	}
	loc = m.Lookup(instruction)
	if loc.File != "" {
		lines = m.FileLines(loc.File)
	}
	return loc, lines
}

// sourceFrom converts a source-map location to the report's form.
func sourceFrom(loc sourcemap.Location) *Source {
	src := &Source{File: loc.File, Line: loc.Line, Column: loc.Column, Text: loc.Text, Language: loc.Language, Note: loc.Note,
		Function: loc.Function, Context: loc.Context, ContextLine: loc.ContextLine}
	for _, f := range loc.InlinedAt {
		src.InlinedAt = append(src.InlinedAt, SourceFrame{Function: f.Function, File: f.File, Line: f.Line, Text: f.Text})
	}
	return src
}

// resolve returns the file on disk that a location's source came from: the
// file the module names, found in the search path and, when the module
// carries the text, with the same line there (else it is another file of
// that name, or one edited since). "" when there is none. Called with
// c.mu held.
func (c *Collector) resolve(loc sourcemap.Location) string {
	if c.disk == nil || loc.File == "" {
		return ""
	}
	path, lines, err := c.disk.Find(loc.File)
	if err != nil {
		return ""
	}
	if loc.Text != "" && (loc.Line < 1 || loc.Line > len(lines) ||
		strings.TrimSpace(lines[loc.Line-1]) != strings.TrimSpace(loc.Text)) {
		return ""
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return path
}
