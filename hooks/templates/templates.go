// Package templates holds the shell blocks git-convo writes into git hooks,
// every version ever shipped, so an install recognises and upgrades old ones.
package templates

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed v1/*.sh
var files embed.FS

// Current is the block version install writes.
const Current = "v1"

// Versions lists every block version ever shipped, oldest first.
func Versions() []string { return []string{"v1"} }

// Hooks lists the git hooks git-convo installs.
func Hooks() []string { return []string{"post-commit", "post-rewrite", "pre-push"} }

// Render returns the current block for hook with bin, the absolute path of
// git-convo, safely shell-quoted (spaces, quotes).
func Render(hook, bin string) (string, error) { return RenderVersion(Current, hook, bin) }

// RenderVersion renders a given block version (tests of upgrades use old ones).
func RenderVersion(version, hook, bin string) (string, error) {
	b, err := files.ReadFile(version + "/" + hook + ".sh")
	if err != nil {
		return "", fmt.Errorf("no %s block for hook %s", version, hook)
	}
	return strings.ReplaceAll(string(b), "{{BIN}}", shellQuote(bin)), nil
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
