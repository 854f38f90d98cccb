package source

import (
	"regexp"
	"sync"
)

// gitCommitRE finds a git commit in a shell command: "git commit", also
// after "git -C dir" or chained with && or ;.
var gitCommitRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[;&|(\s])git(\s+-[cC]\s+\S+|\s+--?[a-z-]+(=\S+)?)*\s+commit(\s|$)`)
})

// commitLineRE is git commit's summary line: "[branch abc1234] subject" or
// "[main (root-commit) abc1234] subject" ("detached HEAD" for the branch
// off any branch). git prints it only once the commit
// exists, so it is the proof that a commit succeeded even when the agent's
// shell gives no exit code (a failed or empty commit prints none).
var commitLineRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\[(?:detached HEAD|[^\]\s]+)(?: \([a-z-]+\))? ([0-9a-f]{7,40})\]`)
})

// escapeRE matches terminal escape sequences: CSI (colors, cursor moves)
// and OSC (titles, shell-integration marks, ended by BEL or ST).
var escapeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)`)
})

// ShellCommit returns the commit, abbreviated as git printed it, that a
// shell command made: "" unless command runs git commit and output holds
// git's summary line for it.
func ShellCommit(command, output string) string {
	if !RunsGitCommit(command) {
		return ""
	}
	// A terminal's output may hold escape sequences (colors, the shell
	// integration's OSC marks) before the line.
	if m := commitLineRE().FindStringSubmatch(escapeRE().ReplaceAllString(output, "")); m != nil {
		return m[1]
	}
	return ""
}

// RunsGitCommit reports whether a shell command runs git commit.
func RunsGitCommit(command string) bool { return gitCommitRE().MatchString(command) }
