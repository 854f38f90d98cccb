// Package templates holds the shell blocks git-convo writes into git hooks,
// every version ever shipped, so an install recognises and upgrades old ones.
package templates

import (
	"embed"
	"fmt"
	"slices"
	"strings"
)

//go:embed v1/*.sh v2/*.sh v3/*.sh
var files embed.FS

// Current is the block version install writes.
const Current = "v3"

// Versions lists every block version ever shipped, oldest first.
func Versions() []string { return []string{"v1", "v2", "v3"} }

// Hooks lists the git hooks git-convo installs.
func Hooks() []string { return []string{"post-commit", "post-merge", "post-rewrite", "pre-push"} }

// Render returns the current block for hook with bin, the absolute path of
// git-convo, and queue, the file the commit hooks append to, both safely
// shell-quoted (spaces, quotes).
func Render(hook, bin, queue string) (string, error) {
	return RenderVersion(Current, hook, bin, queue)
}

// RenderVersion renders a given block version (tests of upgrades use old
// ones; v1 has no queue).
func RenderVersion(version, hook, bin, queue string) (string, error) {
	b, err := readBlock(version, hook)
	if err != nil {
		return "", err
	}
	s := strings.ReplaceAll(string(b), "{{BIN}}", shellQuote(bin))
	return strings.ReplaceAll(s, "{{QUEUE}}", shellQuote(queue)), nil
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// readBlock reads hook's block of version: a version holds only the blocks
// it changed, the others are the earlier version's.
func readBlock(version, hook string) ([]byte, error) {
	vs := Versions()
	at := slices.Index(vs, version)
	for i := at; i >= 0; i-- {
		if b, err := files.ReadFile(vs[i] + "/" + hook + ".sh"); err == nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("no %s block for hook %s", version, hook)
}
