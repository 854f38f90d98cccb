//go:build !windows

package cli

import (
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"

	"golang.org/x/term"
)

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

func evalSymlinks(p string) (string, error) { return filepath.EvalSymlinks(p) }

// detach puts the background worker in its own session, so closing the
// terminal or the IDE that ran `git commit` does not kill it mid-write.
func detach() { _, _ = syscall.Setsid() }

// spawnDetached starts exe with args in its own session with every standard
// stream on /dev/null and does not wait: a hook's background work must never
// hold the pipes of the process that ran the hook.
func spawnDetached(exe string, args []string) error {
	cmd := exec.Command(exe, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

// execReplace runs bin in place of this process (the MCP client keeps its
// pipes to the same process id).
func execReplace(bin string, argv, env []string) error { return syscall.Exec(bin, argv, env) }

// ignoreFileSizeSignal makes writes past a file-size limit (ulimit -f)
// return EFBIG instead of killing the process with SIGXFSZ.
func ignoreFileSizeSignal() { signal.Ignore(syscall.SIGXFSZ) }
