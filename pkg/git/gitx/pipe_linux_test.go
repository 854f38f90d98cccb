package gitx

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestGrowPipe: git's output pipe holds a megabyte (where the system's
// limit allows), not Linux's default 64 KB.
func TestGrowPipe(t *testing.T) {
	if b, err := os.ReadFile("/proc/sys/fs/pipe-max-size"); err == nil {
		if n, _ := strconv.Atoi(strings.TrimSpace(string(b))); n < pipeSize {
			t.Skipf("fs.pipe-max-size is %d", n)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	growPipe(r)
	raw, err := r.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var size uintptr
	_ = raw.Control(func(fd uintptr) {
		size, _, _ = syscall.Syscall(syscall.SYS_FCNTL, fd, 1032 /* F_GETPIPE_SZ */, 0)
	})
	if size < pipeSize {
		t.Errorf("pipe holds %d bytes, want %d", size, pipeSize)
	}
}
