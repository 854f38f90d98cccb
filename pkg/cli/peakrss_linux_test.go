package cli

import (
	"os"
	"syscall"
)

// peakRSS is the peak resident bytes of a process git-convo ran and of the
// children it waited for (Linux counts kilobytes).
func peakRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10
	}
	return -1
}
