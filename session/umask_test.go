package session

import "syscall"

// setUmask sets the process umask and returns the old one.
func setUmask(m int) int { return syscall.Umask(m) }
