//go:build windows

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"golang.org/x/term"
)

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

func evalSymlinks(p string) (string, error) { return filepath.EvalSymlinks(p) }

func detach() {}

// detachedProcess is DETACHED_PROCESS: no console, so the background worker
// neither flashes a window nor dies with the console that ran the hook.
const detachedProcess = 0x00000008

// spawnDetached starts exe with args in its own process group without a
// console or standard streams, and does not wait.
func spawnDetached(exe string, args []string) error {
	cmd := exec.Command(exe, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | detachedProcess, HideWindow: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

func execReplace(bin string, argv, env []string) error {
	cmd := exec.Command(bin, argv[1:]...)
	cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = env, os.Stdin, os.Stdout, os.Stderr
	return cmd.Run()
}

func ignoreFileSizeSignal() {}
