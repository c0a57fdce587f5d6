package launcher

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// OutputPaths are the files the app's standard output and error go to,
// next to the session file: "<session without .gvs>.stdout" and
// ".stderr" when no file has those names; else the first free of
// "<stem>.2.stdout", "<stem>.3.stdout"... (outputPath): the launcher
// creates them as new files only, and never touches one it did not
// create (Run.OutputFiles says which it made).
func OutputPaths(sessionPath string) (stdout, stderr string) {
	return outputPath(sessionPath, "stdout", 1), outputPath(sessionPath, "stderr", 1)
}

// outputPath is the n-th name tried for a stream's output file.
func outputPath(sessionPath, stream string, n int) string {
	stem := strings.TrimSuffix(sessionPath, session.FileExt)
	if n == 1 {
		return stem + "." + stream
	}
	return fmt.Sprintf("%s.%d.%s", stem, n, stream)
}

// maxOutputNames is how many names are tried for an output file.
const maxOutputNames = 100

// appOutput is where the app's standard output and error go: files the
// app writes itself (mode 0600, next to the session file), so that it
// runs on with its output kept when the launcher dies (a pipe would kill
// it with SIGPIPE at its next write). The launcher follows the files into
// the session, and to its own output when headless; Close removes them
// once the session holds everything they say.
type appOutput struct {
	stdout, stderr *followed
	stop           chan struct{}
	once           sync.Once
}

// followed is one of the app's output files.
type followed struct {
	path  string
	w, r  *os.File // the app's end (closed here once it started), the launcher's
	lines *lineWriter
	done  chan struct{}
}

// newAppOutput creates the output files of the run whose session file is
// sessionPath; pass, when set, receive the bytes as they come.
func newAppOutput(sessionPath string, col *session.Collector, passOut, passErr io.Writer) (*appOutput, error) {
	o := &appOutput{stop: make(chan struct{})}
	var err error
	if o.stdout, err = openFollowed(sessionPath, &lineWriter{col: col, stream: "stdout", pass: passOut}); err != nil {
		return nil, err
	}
	if o.stderr, err = openFollowed(sessionPath, &lineWriter{col: col, stream: "stderr", pass: passErr}); err != nil {
		o.stdout.remove()
		return nil, err
	}
	return o, nil
}

// openFollowed creates a stream's output file next to the session, as a
// new file (mode 0600, O_EXCL, O_NOFOLLOW): a name already taken (the
// user's own "2> a.stderr", a file or link another user planted, a run
// before whose launcher was killed) is left alone and the next name tried.
func openFollowed(sessionPath string, lines *lineWriter) (*followed, error) {
	var w *os.File
	var path string
	var err error
	for n := 1; n <= maxOutputNames; n++ {
		path = outputPath(sessionPath, lines.stream, n)
		w, err = session.CreatePrivate(path, 0o600, session.NewOnly)
		if !errors.Is(err, session.ErrRefusedPath) {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("create the app's output file: %w", err)
	}
	// The app appends: a child it leaves behind writes after it.
	if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, w.Fd(), syscall.F_SETFL, syscall.O_WRONLY|syscall.O_APPEND); errno != 0 {
		w.Close()
		os.Remove(path)
		return nil, fmt.Errorf("create the app's output file %s: %w", path, errno)
	}
	r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err == nil && !sameFile(w, r) {
		r.Close()
		err = fmt.Errorf("%s changed after it was created", path)
	}
	if err != nil {
		w.Close()
		os.Remove(path)
		return nil, fmt.Errorf("open the app's output file: %w", err)
	}
	return &followed{path: path, w: w, r: r, lines: lines, done: make(chan struct{})}, nil
}

// sameFile reports whether two open files are the same file.
func sameFile(a, b *os.File) bool {
	fa, err1 := a.Stat()
	fb, err2 := b.Stat()
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// files are the app's standard output and error.
func (o *appOutput) files() (stdout, stderr *os.File) { return o.stdout.w, o.stderr.w }

// started closes the launcher's copies of the app's ends and starts
// following the files.
func (o *appOutput) started() {
	for _, f := range []*followed{o.stdout, o.stderr} {
		f.w.Close()
		go f.follow(o.stop)
	}
}

// finish reads what the app wrote to the end, once it has exited, and
// stops following (what a child it left behind writes later stays in the
// files only).
func (o *appOutput) finish() {
	o.once.Do(func() { close(o.stop) })
	<-o.stdout.done
	<-o.stderr.done
}

// remove closes and removes the files.
func (o *appOutput) remove() {
	o.finish()
	o.stdout.remove()
	o.stderr.remove()
}

// paths are the output files' paths.
func (o *appOutput) paths() (stdout, stderr string) { return o.stdout.path, o.stderr.path }

// remove closes the file and removes it when its name is still the file
// the launcher created (nothing else ever is removed).
func (f *followed) remove() {
	if fi, err := os.Lstat(f.path); err == nil {
		if own, err := f.r.Stat(); err == nil && os.SameFile(fi, own) {
			os.Remove(f.path)
		}
	}
	f.w.Close()
	f.r.Close()
}

// follow reads the file as it grows until stop is closed, then to its
// end.
func (f *followed) follow(stop <-chan struct{}) {
	defer close(f.done)
	defer f.lines.Flush()
	buf := make([]byte, 64<<10)
	wait := time.Millisecond
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		n, err := f.r.Read(buf)
		if n > 0 {
			_, _ = f.lines.Write(buf[:n])
			wait = time.Millisecond
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return
		}
		timer.Reset(wait)
		select {
		case <-stop:
			for {
				n, _ := f.r.Read(buf)
				if n == 0 {
					return
				}
				_, _ = f.lines.Write(buf[:n])
			}
		case <-timer.C:
			wait = min(2*wait, followPoll)
		}
	}
}

// isTerminal reports whether r is a terminal.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok || f == nil {
		return false
	}
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}

// maxLine is the longest output line kept whole; longer ones are split.
const maxLine = 64 << 10

// lineWriter records the app's output line by line in the session and,
// when pass is set, passes the bytes through as they come.
type lineWriter struct {
	col    *session.Collector
	stream string
	pass   io.Writer
	mu     sync.Mutex
	buf    []byte
	// block is the lines of one Write, joined by "\n"; lines counts them.
	block []byte
	lines int
}

// Write records every complete line of p, all in one frame (a block).
func (w *lineWriter) Write(p []byte) (int, error) {
	if w.pass != nil {
		_, _ = w.pass.Write(p)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			if len(w.buf) >= maxLine {
				w.add(w.buf[:maxLine])
				w.buf = w.buf[maxLine:]
				continue
			}
			break
		}
		w.add(w.buf[:i])
		w.buf = w.buf[i+1:]
	}
	w.emit()
	return len(p), nil
}

// Flush records a last line without a newline.
func (w *lineWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) > 0 {
		w.add(w.buf)
		w.buf = nil
	}
	w.emit()
}

// add adds a line (without its line end) to the block being made.
func (w *lineWriter) add(line []byte) {
	if w.lines > 0 {
		w.block = append(w.block, '\n')
	}
	w.block = append(w.block, bytes.TrimSuffix(line, []byte{'\r'})...)
	w.lines++
}

// emit records the block's lines in one frame.
func (w *lineWriter) emit() {
	if w.lines == 0 {
		return
	}
	_ = w.col.Record(wire.KindAppOutputBlock, &wire.AppOutputBlock{Stream: w.stream, Text: string(w.block)})
	w.block, w.lines = w.block[:0], 0
	if cap(w.block) > 1<<20 {
		w.block = nil
	}
}
