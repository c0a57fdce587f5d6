package session

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// SocketName is the socket's file name inside the server's private
// directory.
const SocketName = "layer.sock"

// maxSocketPath is the longest path a unix socket address can hold.
const maxSocketPath = 107

// Server accepts the layer's connections on a unix socket in a private
// directory and feeds their frames to a Collector. An app may create several
// Vulkan instances, each with its own connection: all are accepted. A
// connection that sends a garbage frame is closed with a notice; the
// launcher never crashes on what a connection sends.
type Server struct {
	// OnPaused, when set before the app starts, is called (on the
	// connection's goroutine, after the collector has the message) when a
	// layer says it paused the app.
	OnPaused func()

	c    *Collector
	dir  string
	path string
	ln   *net.UnixListener

	mu    sync.Mutex
	conns map[*net.UnixConn]bool // open connections → done (bye or EOF)
	// paused are the connections whose layer paused the app and waits
	// for Continue.
	paused    map[*net.UnixConn]bool
	total     int
	stopped   bool          // no more accepts
	change    chan struct{} // closed and replaced on every state change
	acceptEnd chan struct{} // closed when the accept loop returns
	wg        sync.WaitGroup
	// frames counts the frames the connections applied: Drain's measure
	// of progress.
	frames    atomic.Uint64
	closeOnce sync.Once
	closeErr  error
}

// Listen creates a private directory (mode 0700) under base — or, when base
// is "", under $XDG_RUNTIME_DIR or else os.TempDir() — opens a unix socket
// in it and starts accepting connections for c.
func Listen(base string, c *Collector) (*Server, error) {
	if base == "" {
		base = os.Getenv("XDG_RUNTIME_DIR")
		if fi, err := os.Stat(base); base == "" || err != nil || !fi.IsDir() {
			base = os.TempDir()
		}
	}
	removeStaleDirs(base)
	dir, err := PrivateDir(base)
	if err != nil {
		return nil, err
	}
	// Who owns the directory: a later launcher removes it when this one
	// died without its Close (removeStaleDirs).
	if err := os.WriteFile(filepath.Join(dir, pidFileName), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("create socket directory: %w", err)
	}
	path := filepath.Join(dir, SocketName)
	if len(path) > maxSocketPath {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("listen: socket path %s is longer than %d bytes; set XDG_RUNTIME_DIR or TMPDIR to a shorter directory", path, maxSocketPath)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	ln.SetUnlinkOnClose(true)
	s := &Server{c: c, dir: dir, path: path, ln: ln, conns: map[*net.UnixConn]bool{},
		paused: map[*net.UnixConn]bool{}, change: make(chan struct{}), acceptEnd: make(chan struct{})}
	go s.accept()
	return s, nil
}

// pidFileName is the file of a socket directory that holds the pid of
// the launcher that made it.
const pidFileName = "launcher.pid"

// removeStaleDirs removes the socket directories under base that a
// launcher killed before its Close left behind: the user's own 0700
// "gpuav-dbg-*" directories whose launcher.pid names no live process. Only
// the files a launcher and its layers put there go (the socket, the pid
// file, lost counts), then the directory if that emptied it; a directory
// without a pid file, or whose pid is alive (or was given to another
// process since), is left.
func removeStaleDirs(base string) {
	dirs, _ := filepath.Glob(filepath.Join(base, "gpuav-dbg-*"))
	for _, dir := range dirs {
		if checkPrivate(dir) != nil {
			continue
		}
		b, err := readSmall(filepath.Join(dir, pidFileName), 32)
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 || pid == os.Getpid() || !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			continue
		}
		lost, _ := filepath.Glob(filepath.Join(dir, wire.LostFilePattern))
		for _, p := range append(lost, filepath.Join(dir, SocketName), filepath.Join(dir, pidFileName)) {
			os.Remove(p)
		}
		os.Remove(dir) // only when empty
	}
}

// readSmall reads a regular file of at most max bytes, not through a
// link.
func readSmall(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > max {
		return nil, fmt.Errorf("%s: not a small regular file", path)
	}
	return io.ReadAll(io.LimitReader(f, max))
}

// PrivateDir creates a fresh directory under base that only the user can
// enter (os.MkdirTemp, then chmod 0700) and checks that it is a real
// directory, owned by the user, with exactly that mode.
func PrivateDir(base string) (string, error) {
	dir, err := os.MkdirTemp(base, "gpuav-dbg-")
	if err != nil {
		return "", fmt.Errorf("create socket directory: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("create socket directory: %w", err)
	}
	if err := checkPrivate(dir); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// checkPrivate verifies a private directory.
func checkPrivate(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("check socket directory: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("socket directory %s is not a directory", dir)
	}
	if perm := fi.Mode().Perm(); perm != 0o700 {
		return fmt.Errorf("socket directory %s has mode %#o, want 0700", dir, perm)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("socket directory %s is owned by uid %d, not %d", dir, st.Uid, os.Getuid())
	}
	return nil
}

// SocketPath is the socket the layer connects to (VK_LAYER_GPUAV_DBG_SOCKET).
func (s *Server) SocketPath() string { return s.path }

// Dir is the server's private directory.
func (s *Server) Dir() string { return s.dir }

// Connections is how many connections the server has accepted.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

// signal wakes waiters. Called with s.mu held.
func (s *Server) signal() {
	close(s.change)
	s.change = make(chan struct{})
}

// accept accepts connections until the listener stops.
func (s *Server) accept() {
	defer close(s.acceptEnd)
	for {
		conn, err := s.ln.AcceptUnix()
		if err != nil {
			s.mu.Lock()
			stopped := s.stopped
			s.mu.Unlock()
			var ne net.Error
			if stopped || errors.Is(err, net.ErrClosed) || (errors.As(err, &ne) && ne.Timeout()) {
				return
			}
			s.c.Notice("error", fmt.Sprintf("accept on %s: %v", s.path, err))
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if err := checkPeer(conn); err != nil {
			s.c.Notice("error", fmt.Sprintf("refused a connection: %v", err))
			conn.Close()
			continue
		}
		s.mu.Lock()
		if s.stopped {
			s.mu.Unlock()
			conn.Close()
			return
		}
		s.total++
		id := s.total
		s.conns[conn] = false
		s.wg.Add(1)
		s.signal()
		s.mu.Unlock()
		go s.serve(id, conn)
	}
}

// checkPeer refuses a peer of another user (the directory's mode already
// keeps them out; this is a second lock).
func checkPeer(conn *net.UnixConn) error {
	raw, err := conn.SyscallConn()
	if err != nil {
		return nil
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil || cerr != nil {
		return nil // no credentials to check on this system
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("peer pid %d runs as uid %d, not %d", cred.Pid, cred.Uid, os.Getuid())
	}
	return nil
}

// markDone notes that a connection said bye or ended.
func (s *Server) markDone(conn *net.UnixConn) {
	s.mu.Lock()
	if done, ok := s.conns[conn]; ok && !done {
		s.conns[conn] = true
		s.signal()
	}
	s.mu.Unlock()
}

// serve reads one connection's frames until it ends or sends garbage.
func (s *Server) serve(id int, conn *net.UnixConn) {
	defer s.wg.Done()
	defer func() {
		conn.Close()
		s.mu.Lock()
		delete(s.conns, conn)
		delete(s.paused, conn)
		s.signal()
		s.mu.Unlock()
	}()
	r := bufio.NewReaderSize(conn, 64<<10)
	var off int64
	first, bye := true, false
	defer func() { s.c.ConnectionEnded(id, bye) }()
	var dec wire.PackedDecoder // this connection's packed records
	process := NewConnection() // its process and shader ids
	for {
		k, payload, err := wire.ReadFrame(r)
		if err != nil {
			s.mu.Lock()
			stopped := s.stopped
			s.mu.Unlock()
			switch {
			case err == io.EOF:
			case stopped && errors.Is(err, net.ErrClosed):
			case errors.Is(err, wire.ErrTruncated):
				s.c.Notice("warning", fmt.Sprintf("connection %d: the layer's stream ended inside a frame at byte %d (did the app crash?): %v", id, off, err))
			default:
				s.c.Notice("error", fmt.Sprintf("connection %d: bad frame at byte %d: %v; connection closed", id, off, err))
			}
			return
		}
		switch {
		case k.LauncherOnly():
			s.c.Notice("error", fmt.Sprintf("connection %d: a %v frame at byte %d is the launcher's, not the layer's; connection closed", id, k, off))
			return
		case first && k != wire.KindHello:
			s.c.Notice("error", fmt.Sprintf("connection %d: first frame is %v, want hello; connection closed", id, k))
			return
		}
		err = s.c.recordFrame(k, payload, &dec, process)
		switch {
		case errors.Is(err, ErrInvalid):
			// The framing is intact: reject this frame, keep the rest.
			s.c.Notice("error", fmt.Sprintf("connection %d: rejected the %v frame at byte %d: %v", id, k, off, err))
		case err != nil:
			s.c.Notice("error", fmt.Sprintf("connection %d: bad %v frame at byte %d: %v; connection closed", id, k, off, err))
			return
		}
		first = false
		s.frames.Add(1)
		off += int64(wire.HeaderSize + len(payload))
		switch k {
		case wire.KindBye:
			bye = true
			s.markDone(conn)
		case wire.KindPaused:
			s.mu.Lock()
			s.paused[conn] = true
			s.mu.Unlock()
			if s.OnPaused != nil {
				s.OnPaused()
			}
		}
	}
}

// Continue lets every app the layer paused at its first error continue:
// a Continue frame to each connection that said Paused, recorded in the
// session when it reached one. It returns how many it reached.
func (s *Server) Continue() int {
	s.mu.Lock()
	n := 0
	frame, _ := wire.Encode(wire.KindContinue, &wire.Continue{})
	for conn := range s.paused {
		delete(s.paused, conn)
		// A connection that ended since is no longer waiting: its app
		// went on (or away) by itself.
		_ = conn.SetWriteDeadline(time.Now().Add(time.Second))
		if _, err := conn.Write(frame); err == nil {
			n++
		}
	}
	s.mu.Unlock()
	if n > 0 {
		_ = s.c.Record(wire.KindContinue, &wire.Continue{})
	}
	return n
}

// drainPoll is how often Drain looks at the connections' progress.
const drainPoll = 20 * time.Millisecond

// Drain is called once the app has exited: it accepts the connections the
// app made but the server had not yet accepted, stops accepting, and waits
// for every connection to say bye or end — as long as the connections
// still pending make progress (a frame applied within idle), and at most
// limit in all. It reports whether all ended; Close then cuts the others
// (counted in Session.StreamsCut). A launcher that was stopped or slowed
// while the app ran reads the whole backlog here, however long it takes,
// before the report is written.
func (s *Server) Drain(idle, limit time.Duration) bool {
	start := time.Now()
	// Connections already queued are accepted at once; then Accept times out.
	_ = s.ln.SetDeadline(time.Now().Add(min(idle, 50*time.Millisecond)))
	<-s.acceptEnd
	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	last, lastAt := s.frames.Load(), time.Now()
	for {
		s.mu.Lock()
		pending := 0
		for _, done := range s.conns {
			if !done {
				pending++
			}
		}
		ch := s.change
		s.mu.Unlock()
		if pending == 0 {
			return true
		}
		now := time.Now()
		if n := s.frames.Load(); n != last {
			last, lastAt = n, now
		}
		if now.Sub(lastAt) >= idle || now.Sub(start) >= limit {
			return false
		}
		select {
		case <-ch:
		case <-time.After(drainPoll):
		}
	}
}

// maxLostFile is the largest lost-counts file read (a Lost message of
// wire.ClientMaxLostGroups groups is about 400 KiB).
const maxLostFile = 4 << 20

// readLostFiles records the counts that the layer's clients whose socket
// failed (a launcher that read nothing for wire.ClientCloseTimeout) left
// in the directory at their close (wire.LostFilePattern), once their
// connections are over: the report then says exactly what it misses.
func (s *Server) readLostFiles() {
	paths, _ := filepath.Glob(filepath.Join(s.dir, wire.LostFilePattern))
	for _, p := range paths {
		if err := s.readLostFile(p); err != nil {
			s.c.Notice("error", fmt.Sprintf("the layer's count of what it could not deliver: %v", err))
		}
	}
}

func (s *Server) readLostFile(p string) error {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxLostFile {
		return fmt.Errorf("%s: not a regular file of at most %d bytes", p, maxLostFile)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxLostFile))
	if err != nil {
		return err
	}
	var l wire.Lost
	if err := json.Unmarshal(b, &l); err != nil {
		return fmt.Errorf("%s: %v", p, err)
	}
	if err := s.c.Record(wire.KindLost, &l); err != nil {
		return fmt.Errorf("%s: %v", p, err)
	}
	return nil
}

// Close stops accepting, closes every connection (one that had not ended
// is a stream cut), waits for their readers and removes the private
// directory. Later calls return the first's result.
func (s *Server) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.close() })
	return s.closeErr
}

func (s *Server) close() error {
	s.mu.Lock()
	s.stopped = true
	for conn := range s.conns {
		conn.Close()
	}
	s.mu.Unlock()
	err := s.ln.Close()
	<-s.acceptEnd
	s.wg.Wait()
	s.readLostFiles()
	if rerr := os.RemoveAll(s.dir); rerr != nil && err == nil {
		err = rerr
	}
	if err != nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("close server %s: %w", s.path, err)
	}
	return nil
}
