//go:build !windows

package main

import (
	"os/exec"
	"syscall"
)

// maxRSS is the peak resident size in KB of a command that has run and
// of the children it waited for, as wait4 gives it (Linux counts in KB).
func maxRSS(cmd *exec.Cmd) int64 {
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss)
	}
	return 0
}
