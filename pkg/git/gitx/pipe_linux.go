package gitx

import (
	"io"
	"syscall"
)

// pipeSize is what growPipe asks for: Linux's default limit for an
// unprivileged process (fs.pipe-max-size), some 5,000 commits of log.
const pipeSize = 1 << 20

// fSetPipeSz is F_SETPIPE_SZ, which package syscall does not name.
const fSetPipeSz = 1031

// growPipe enlarges the pipe git writes its output into from 64 KB, so
// that git seldom waits for us to read: on a loaded machine a reader that
// waits for a core would otherwise hold git up at every 64 KB. Failure
// (an older kernel, a lower limit) leaves the pipe as it was.
func growPipe(r io.Reader) {
	sc, ok := r.(syscall.Conn)
	if !ok {
		return
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return
	}
	_ = raw.Control(func(fd uintptr) {
		_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, fd, fSetPipeSz, pipeSize)
	})
}
