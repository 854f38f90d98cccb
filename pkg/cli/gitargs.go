package cli

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// The read commands that wrap a git command (log, stats, show, blame) take
// git's own arguments as the user typed them: git-convo takes out its own
// options and hands the rest to git in their order, so every form git
// accepts (-n5, -L2,+3, --since=2.weeks, a path without --, options after
// the file) reaches git as git would parse it, and no value is split.

// gitArgSpec says how one git command's arguments are read.
type gitArgSpec struct {
	own     []string          // git-convo's own flags besides the read flags (--full, --only-linked)
	valued  map[string]bool   // git options whose value may be the next argument (-n, --author, -L)
	refused map[string]string // git options git-convo does not honour, with what to do instead
	// shortFlags are git's one-letter options without a value that may be
	// bundled (-sw); shortValued those whose value follows (-L, -S).
	shortFlags, shortValued string
}

// readArgs is what a wrapped read command takes for itself.
type readArgs struct {
	json, noPager, help bool
	color               string
	flags               map[string]bool // the spec's own flags that were given
	git                 []string        // the rest, for git, in order
}

// splitGitArgs takes git-convo's options out of args. After "--" or
// "--end-of-options" nothing is an option; the value of a git option that
// takes one is never read as an option.
func splitGitArgs(args []string, spec gitArgSpec) (readArgs, error) {
	ra := readArgs{color: "auto", flags: map[string]bool{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(a, "=")
		switch {
		case a == "--" || a == "--end-of-options":
			ra.git = append(ra.git, args[i:]...)
			return ra, checkColor(ra)
		case a == "--json":
			ra.json = true
		case a == "--no-pager":
			ra.noPager = true
		case a == "-h" || a == "--help":
			ra.help = true
		case a == "--color":
			ra.color = "always"
		case name == "--color" && hasValue:
			ra.color = strings.TrimPrefix(a, "--color=")
		case a == "--no-color":
			ra.color = "never"
		case contains(spec.own, a):
			ra.flags[a] = true
		case refusal(spec, a) != "":
			return ra, usagef("%s", refusal(spec, a))
		case spec.valued[a] && i+1 < len(args):
			ra.git = append(ra.git, a, args[i+1])
			i++
		case isShortBundle(a):
			// -L<value>, -n5, -sw: a value letter takes the rest, or the
			// next argument when it ends the bundle.
			for j := 1; j < len(a); j++ {
				if strings.IndexByte(spec.shortValued, a[j]) >= 0 {
					if j+1 == len(a) && i+1 < len(args) {
						ra.git = append(ra.git, "-"+a[j:], args[i+1])
						i++
					} else {
						ra.git = append(ra.git, "-"+a[j:])
					}
					break
				}
				ra.git = append(ra.git, "-"+a[j:j+1])
			}
		default:
			ra.git = append(ra.git, a)
		}
	}
	return ra, checkColor(ra)
}

func checkColor(ra readArgs) error {
	if ra.color != "auto" && ra.color != "always" && ra.color != "never" {
		return usagef("--color=%s: want auto, always or never", ra.color)
	}
	return nil
}

// isShortBundle is "-x…", several one-letter options or one with its value.
func isShortBundle(a string) bool {
	return len(a) > 2 && a[0] == '-' && a[1] != '-'
}

// refusal is why a git option is not taken, or "".
func refusal(spec gitArgSpec, a string) string {
	name, _, _ := strings.Cut(a, "=")
	if why, ok := spec.refused[name]; ok {
		return why
	}
	if isShortBundle(a) {
		// Each letter of a bundle, up to one that takes a value.
		for j := 1; j < len(a); j++ {
			if why, ok := spec.refused["-"+a[j:j+1]]; ok {
				return why
			}
			if strings.IndexByte(spec.shortFlags, a[j]) < 0 {
				break
			}
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// refuse builds a refusal table: every option named gets the same advice.
func refuse(m map[string]string, why string, names ...string) map[string]string {
	for _, n := range names {
		m[n] = n + ": " + why
	}
	return m
}

// setOf is a set of strings.
func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// logSpec reads git log's arguments (log, stats). Options that change the
// shape of git's output are refused with a pointer to git itself:
// git-convo prints its own lines. --oneline and --name-only are honoured.
func logSpec(own ...string) gitArgSpec {
	r := refuse(map[string]string{}, "git convo log prints its own line per commit; run git log for this format",
		"--graph", "-p", "-u", "--patch", "--patch-with-stat", "--patch-with-raw", "--stat", "--numstat", "--shortstat",
		"--dirstat", "--cumulative", "--summary", "--name-status", "--raw", "--format", "--pretty", "-z",
		"--word-diff", "--color-words", "--cc", "-c", "--check", "--line-prefix", "--show-signature", "-L",
		"--compact-summary", "--stat-width", "--stat-name-width", "--stat-count", "--stat-graph-width", "-W",
		"--function-context", "-U", "--unified")
	refuse(r, "git convo prints to its own output; redirect it instead", "--output")
	return gitArgSpec{
		own: own,
		valued: setOf("-n", "--max-count", "--skip", "--since", "--after", "--until", "--before", "--author",
			"--committer", "--grep", "--grep-reflog", "--min-parents", "--max-parents", "-S", "-G", "-O", "--exclude",
			"--since-as-filter"),
		refused:     r,
		shortFlags:  "ipumcsWz",
		shortValued: "nSGOLU",
	}
}

// commandHelp prints a command's help from its action: the command's own
// context lists only its help subcommand, so the app's context is asked.
func commandHelp(c *cli.Context, name string) error {
	if l := c.Lineage(); len(l) > 1 && l[1].Command != nil {
		return cli.ShowCommandHelp(l[1], name)
	}
	return cli.ShowCommandHelp(c, name)
}
