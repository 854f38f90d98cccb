package githooks

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/git-convo/git-convo/pkg/util/atomicfile"
)

// InstallFile puts block into the hook file at path and says what it did:
// created, installed, upgraded or unchanged. A new file is `#!/bin/sh` plus
// the block, mode 0755; an existing file keeps its mode and every byte of the
// user's content. Writes are atomic.
func InstallFile(path, block string) (string, error) {
	path, via, err := throughLink(path)
	if err != nil {
		return "", err
	}
	res, err := installFile(path, block)
	return res + via, err
}

// throughLink follows a symlinked hook (.git/hooks/post-commit ->
// ../../scripts/post-commit) to the file it names: the block goes into that
// file and the link stays a link, so uninstall leaves exactly what was there.
// The note says so.
func throughLink(path string) (string, string, error) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return path, "", nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		dest, _ := os.Readlink(path)
		return "", "", fmt.Errorf("the hook is a symbolic link to %s, which cannot be read (%v): fix or remove the link, then install again", dest, err)
	}
	return target, " (in " + target + ", which the hook links to)", nil
}

func installFile(path, block string) (string, error) {
	content, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return "", err
	}
	if os.IsNotExist(err) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return "", err
		}
		if err := atomicfile.Write(path, []byte("#!/bin/sh\n"+block), 0o755); err != nil {
			return "", err
		}
		return "created", nil
	}
	if !IsShell(content) {
		line, _, _ := bytes.Cut(content, []byte("\n"))
		return "", fmt.Errorf("%w (%s): add `git-convo record --hook=%s </dev/null >/dev/null 2>&1 &` to it yourself", ErrNotShell, strings.TrimSpace(string(line)), filepath.Base(path))
	}
	old := Current(content)
	out, err := Insert(content, block)
	if err != nil {
		return "", err
	}
	if bytes.Equal(out, content) {
		return "unchanged", nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if err := atomicfile.Write(path, out, fi.Mode().Perm()); err != nil {
		return "", err
	}
	result := "installed"
	if old != "" {
		result = "upgraded"
	}
	if fi.Mode().Perm()&0o111 == 0 {
		result += " (the hook is not executable, so git does not run it: chmod +x " + path + ")"
	}
	return result, nil
}

// UninstallFile removes the block from the hook file at path: removed,
// deleted (nothing but a shebang was left) or not present.
func UninstallFile(path string) (string, error) {
	path, via, err := throughLink(path)
	if err != nil {
		return "", err
	}
	res, err := uninstallFile(path)
	return res + via, err
}

func uninstallFile(path string) (string, error) {
	content, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return "not present", nil
	}
	if err != nil {
		return "", err
	}
	out, had, err := Remove(content)
	if err != nil {
		return "", err
	}
	if !had {
		return "not present", nil
	}
	if len(bytes.TrimSpace(out)) == 0 || string(bytes.TrimSpace(out)) == "#!/bin/sh" {
		if err := os.Remove(path); err != nil {
			return "", err
		}
		return "deleted (it held only git-convo's block)", nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if err := atomicfile.Write(path, out, fi.Mode().Perm()); err != nil {
		return "", err
	}
	return "removed", nil
}

// Location is the hooks directory git uses for a work tree, and whether a
// hook manager owns it.
type Location struct {
	Dir     string // absolute
	Manager string // "", "husky", "disabled"
	// HuskyDir is husky's directory of user hook files (.husky) when husky
	// v9 owns Dir (.husky/_): its generated files call .husky/<hook>.
	HuskyDir string
	// Scope is where core.hooksPath is set: "" (unset: the repository's own
	// hooks), local, worktree, global, system or command.
	Scope string
	// InWorkTree: Dir is inside the work tree, where its files are likely
	// committed and shared with the team.
	InWorkTree bool
}

// Shared reports hooks that serve more than this repository: a
// core.hooksPath set for the user or the system.
func (l Location) Shared() bool { return l.Scope == "global" || l.Scope == "system" }

// Locate asks git where hooks live (`git rev-parse --git-path hooks`, which
// honours core.hooksPath and linked worktrees) and detects hook managers.
func Locate(ctx context.Context, workTree string) (Location, error) {
	cmd := exec.CommandContext(ctx, "git", "rev-parse", "--path-format=absolute", "--git-path", "hooks")
	cmd.Dir = workTree
	out, err := cmd.Output()
	if err != nil {
		return Location{}, fmt.Errorf("finding the hooks directory: %v", err)
	}
	loc := Location{Dir: strings.TrimSpace(string(out))}
	scope := exec.CommandContext(ctx, "git", "config", "--show-scope", "--get", "core.hooksPath")
	scope.Dir = workTree
	if out, err := scope.Output(); err == nil {
		loc.Scope, _, _ = strings.Cut(string(out), "\t")
	}
	if loc.Scope != "" && workTree != "" {
		if rel, err := filepath.Rel(workTree, loc.Dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) &&
			rel != ".git" && !strings.HasPrefix(rel, ".git"+string(filepath.Separator)) {
			loc.InWorkTree = true
		}
	}
	switch {
	case loc.Dir == "/dev/null" || strings.HasSuffix(loc.Dir, string(filepath.Separator)+"dev"+string(filepath.Separator)+"null"):
		loc.Manager = "disabled"
	case filepath.Base(loc.Dir) == "_" && filepath.Base(filepath.Dir(loc.Dir)) == ".husky":
		loc.Manager, loc.HuskyDir = "husky", filepath.Dir(loc.Dir)
	case filepath.Base(loc.Dir) == ".husky":
		loc.Manager, loc.HuskyDir = "husky", loc.Dir
	}
	return loc, nil
}

// ManagerFile is the file to edit for hook when a manager owns the directory
// ("" otherwise): husky runs .husky/<hook> from its generated stubs.
func (l Location) ManagerFile(hook string) string {
	if l.Manager == "husky" && l.HuskyDir != l.Dir {
		return filepath.Join(l.HuskyDir, hook)
	}
	return ""
}

// Advice explains what to do when a manager owns the hooks directory.
func (l Location) Advice() string {
	switch l.Manager {
	case "disabled":
		return "git hooks are turned off here (core.hooksPath is /dev/null), so git would never run git-convo's hook; " +
			"unset it (git config --unset core.hooksPath) and run git convo install again"
	case "husky":
		return "husky manages this repository's hooks (core.hooksPath=" + l.Dir + "); run `git convo install --force` to add " +
			"git-convo's block to husky's own hook files (" + filepath.Join(l.HuskyDir, "post-commit") + ", post-rewrite)"
	}
	return ""
}

// Status is what a hook file holds, for doctor.
type Status struct {
	Installed    bool
	Executable   bool
	Binary       string // the absolute path the block names (or git-convo on PATH when that is gone)
	Named        string // the path the block names, as written
	BinaryExists bool
	Block        string // the block itself
	Queue        string // the queue file the block appends to ("" for a block older than the queue)
}

// The block's lines that name the binary and the queue (compiled on first
// use, as shellShebang).
var (
	binaryLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*_convo_bin='((?:[^']|'\\'')*)'`) })
	queueLine  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:>>|_convo_q=)'((?:[^']|'\\'')*)'`) })
)

// Inspect reads a hook file's git-convo block.
func Inspect(path string) Status {
	var st Status
	content, err := os.ReadFile(path)
	if err != nil {
		return st
	}
	blk := Current(content)
	if blk == "" {
		return st
	}
	st.Installed, st.Block = true, blk
	if fi, err := os.Stat(path); err == nil {
		st.Executable = fi.Mode().Perm()&0o111 != 0
	}
	if m := queueLine().FindStringSubmatch(blk); m != nil {
		st.Queue = strings.ReplaceAll(m[1], `'\''`, "'")
	}
	if m := binaryLine().FindStringSubmatch(blk); m != nil {
		st.Binary = strings.ReplaceAll(m[1], `'\''`, "'")
		st.Named = st.Binary
		if fi, err := os.Stat(st.Binary); err == nil && !fi.IsDir() {
			st.BinaryExists = true
		} else if p, err := exec.LookPath("git-convo"); err == nil {
			st.BinaryExists, st.Binary = true, p
		}
	}
	return st
}
