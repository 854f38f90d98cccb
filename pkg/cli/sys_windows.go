//go:build windows

package cli

import (
	"os"
	"os/exec"
	"path/filepath"

	"golang.org/x/term"
)

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

func evalSymlinks(p string) (string, error) { return filepath.EvalSymlinks(p) }

func detach() {}

func spawnDetached(exe string, args []string) error {
	cmd := exec.Command(exe, args...)
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
