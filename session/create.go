package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ErrRefusedPath is wrapped by the errors of files gpuav-dbg will not
// write: a symbolic link, something other than a regular file, another
// user's file, a file with other hard links, or (for names gpuav-dbg
// picks itself) any file already there.
var ErrRefusedPath = errors.New("refused")

// Replace says whether CreatePrivate may replace a file already at the
// path: the user's own regular file, never anything else.
type Replace bool

const (
	// NewOnly creates a new file or fails: the names gpuav-dbg picks (the
	// app's output files), where anything already there is not its own.
	NewOnly Replace = false
	// ReplaceOwn also replaces (truncates) a regular file the user owns
	// that has no other hard link: a session or report file the user
	// named, from an earlier run.
	ReplaceOwn Replace = true
)

// CreatePrivate creates path for writing with mode (exactly, whatever the
// umask), in a way another user sharing the directory (/tmp, a CI
// workspace) cannot turn against the user: a new file is created with
// O_EXCL and O_NOFOLLOW, so neither a file nor a symbolic link planted at
// the path is followed, truncated or kept with its owner and mode. A file
// already there is refused, unless replace is ReplaceOwn and it is a
// regular file of the user's (checked on the opened descriptor, which
// O_NOFOLLOW keeps from being a link) with no other hard link: that one is
// truncated. A refusal wraps ErrRefusedPath and says why in one line.
func CreatePrivate(path string, mode os.FileMode, replace Replace) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, mode)
	if err == nil {
		if err := f.Chmod(mode); err != nil {
			f.Close()
			os.Remove(path)
			return nil, err
		}
		return f, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	fi, lerr := os.Lstat(path)
	if lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%w: %s is a symbolic link (gpuav-dbg never writes through one)", ErrRefusedPath, path)
	}
	if !replace {
		return nil, fmt.Errorf("%w: %s already exists (gpuav-dbg creates it only as a new file)", ErrRefusedPath, path)
	}
	if lerr == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is not a regular file; gpuav-dbg replaces only a regular file of yours", ErrRefusedPath, path)
	}
	// O_NONBLOCK: a FIFO put there since cannot hang the open (it fails
	// with ENXIO, or opens and is refused below).
	f, err = os.OpenFile(path, os.O_WRONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("%w: %s is a symbolic link (gpuav-dbg never writes through one)", ErrRefusedPath, path)
		}
		if errors.Is(err, syscall.ENXIO) {
			return nil, fmt.Errorf("%w: %s is not a regular file; gpuav-dbg replaces only a regular file of yours", ErrRefusedPath, path)
		}
		return nil, err
	}
	if why := notOwnFile(f); why != "" {
		f.Close()
		return nil, fmt.Errorf("%w: %s %s; gpuav-dbg replaces only a regular file of yours", ErrRefusedPath, path, why)
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// notOwnFile says why an opened file is not one CreatePrivate may
// replace, or "".
func notOwnFile(f *os.File) string {
	fi, err := f.Stat()
	if err != nil {
		return "cannot be examined: " + err.Error()
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.Mode().IsRegular():
		return "is not a regular file"
	case !ok:
		return "has no owner to check"
	case int(st.Uid) != os.Geteuid():
		return fmt.Sprintf("belongs to another user (uid %d)", st.Uid)
	case st.Nlink != 1:
		return fmt.Sprintf("has %d hard links", st.Nlink)
	}
	return ""
}
