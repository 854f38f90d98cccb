package cli

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/term"
)

func statsCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "stats",
		Usage:     "the share of added lines written by agents, per file and per author",
		UsageText: "git convo stats [--json] [<git log options>] [<revision range>] [[--] <path>...]",
		Description: `Adds up, over the recorded commits of a range (default: the last 1,000 commits of
HEAD), the lines each commit added and how many of them an agent's edit wrote, per file and
per commit author. Paths, with or without "--", limit the files counted. A file moved by
hand (a rename, as git finds renames) counts only the lines it changed. A merge adds no
lines of its own (as in git log --numstat): its branch's commits count them. Blank lines are
left out of every count, where git log --numstat counts them: a blank line is no evidence of
who wrote it. Commits recorded before line-level attribution existed are left out of the
counts.`,
		SkipFlagParsing: true,
		Flags:           helpFlags(statsOptionHelp()), // listed by --help; parsed in gitargs.go
		Action:          gitLogStyle("stats", env, runStats),
	}
}

type lineCount struct {
	Name   string  `json:"name"`
	Added  int     `json:"added"`
	Agent  int     `json:"agent"`
	Share  float64 `json:"share"`
	Commit int     `json:"commits"`
}

type statsJSON struct {
	Commits   int         `json:"commits"`  // commits in the range
	Examined  int         `json:"examined"` // of them, with line evidence recorded
	Added     int         `json:"added"`
	Agent     int         `json:"agent"`
	Share     float64     `json:"share"`
	ByFile    []lineCount `json:"byFile"`
	ByAuthor  []lineCount `json:"byAuthor"`
	Pathspecs []string    `json:"paths,omitempty"`
	// Commits counted from other tools' notes, by source ("git-ai's
	// notes"): git-convo had no line evidence of them (docs/interop.md).
	Sources map[string]int `json:"fromOtherTools,omitempty"`
}

func runStats(ctx context.Context, env *Env, opts logOptions, gitArgs []string) error {
	if opts.oneline || opts.nameOnly || opts.onlyLinked {
		return usagef("git convo stats prints totals, not commits: --oneline, --name-only and --only-linked are for git convo log")
	}
	paths, revs := statsPaths(gitArgs)
	if !revs {
		// The default range; a -n of the user's, after it, still wins.
		gitArgs = append([]string{"-n", "1000"}, gitArgs...)
	}
	rc, err := newReadContextWith(ctx, env, opts.color, opts.json, !opts.noPager)
	if err != nil {
		return err
	}
	defer rc.Close()
	repo, err := gitx.Open(ctx, ".", false)
	if err != nil {
		return err
	}
	var commits []gitx.Commit
	if err := rc.repo.StreamLog(ctx, gitArgs, gitx.LogOptions{}, func(c gitx.Commit) bool {
		commits = append(commits, c)
		return true
	}); err != nil {
		return err
	}
	if err := rc.Ready(); err != nil {
		return err
	}
	hashes := make([]string, 0, len(commits))
	author := map[string]string{}
	for _, c := range commits {
		author[c.Hash] = c.Author
		if len(c.Parents) < 2 {
			// A merge adds no lines of its own (git log --numstat); one
			// recorded before that rule holds its first-parent diff.
			hashes = append(hashes, c.Hash)
		}
	}
	fileStats, sources, err := rc.FileStats(ctx, hashes) // local, shared, other tools'
	if err != nil {
		return err
	}
	prefixes := pathPrefixes(repo, paths)
	out := statsJSON{Commits: len(commits), Pathspecs: paths, Sources: sources}
	files, authors := map[string]*lineCount{}, map[string]*lineCount{}
	examined, fileCommits, authorCommits := map[string]bool{}, map[string]map[string]bool{}, map[string]map[string]bool{}
	for _, fs := range fileStats {
		examined[fs.CommitHash] = true
		if !matchesPrefix(fs.Path, prefixes) || fs.Added == 0 {
			continue
		}
		add := func(m map[string]*lineCount, seen map[string]map[string]bool, key string) {
			lc := m[key]
			if lc == nil {
				lc = &lineCount{Name: key}
				m[key] = lc
				seen[key] = map[string]bool{}
			}
			lc.Added += fs.Added
			lc.Agent += fs.Agent
			if !seen[key][fs.CommitHash] {
				seen[key][fs.CommitHash] = true
				lc.Commit++
			}
		}
		add(files, fileCommits, fs.Path)
		add(authors, authorCommits, author[fs.CommitHash])
		out.Added += fs.Added
		out.Agent += fs.Agent
	}
	out.Examined = len(examined)
	out.Share = share(out.Agent, out.Added)
	out.ByFile, out.ByAuthor = sortedCounts(files), sortedCounts(authors)
	rc.startPager()
	defer rc.stopPager()
	if rc.json {
		return rc.ioErr(rc.io.WriteJSON(out))
	}
	w := rc.io.Out
	p := rc.io.Palette()
	fmt.Fprintf(w, "%s of %d added lines written by agents (%s), in %d of %d commits with line evidence\n\n",
		p.Bold(fmt.Sprint(out.Agent)), out.Added, percent(out.Share), out.Examined, out.Commits)
	for _, f := range slices.Sorted(maps.Keys(out.Sources)) {
		fmt.Fprintf(w, "%s\n", p.Dim(fmt.Sprintf("%d of those commits counted from %s", out.Sources[f], term.Line(f))))
	}
	if len(out.Sources) > 0 {
		fmt.Fprintln(w)
	}
	for _, section := range []struct {
		title string
		rows  []lineCount
	}{{"By author", out.ByAuthor}, {"By file", out.ByFile}} {
		if len(section.rows) == 0 {
			continue
		}
		fmt.Fprintln(w, p.Bold(section.title))
		for _, r := range section.rows {
			fmt.Fprintf(w, "  %6s  %5d / %-5d  %s\n", percent(r.Share), r.Agent, r.Added, term.Line(r.Name))
		}
		fmt.Fprintln(w)
	}
	return nil
}

func share(agent, added int) float64 {
	if added == 0 {
		return 0
	}
	return float64(int(float64(agent)/float64(added)*1000+0.5)) / 1000
}

func percent(f float64) string { return fmt.Sprintf("%.0f%%", f*100) }

func sortedCounts(m map[string]*lineCount) []lineCount {
	out := make([]lineCount, 0, len(m))
	for _, lc := range m {
		lc.Share = share(lc.Agent, lc.Added)
		out = append(out, *lc)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Added != out[j].Added {
			return out[i].Added > out[j].Added
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// statsPaths finds the pathspecs among git log arguments: all after "--",
// and before it each argument that is no option and names a file or
// directory (git takes such an argument as a path, and refuses one that is
// also a revision). revs reports a revision among them.
func statsPaths(gitArgs []string) (paths []string, revs bool) {
	valued := logSpec().valued
	options := true
	for i := 0; i < len(gitArgs); i++ {
		a := gitArgs[i]
		switch {
		case a == "--":
			return append(paths, gitArgs[i+1:]...), revs
		case options && a == "--end-of-options":
			options = false
		case options && strings.HasPrefix(a, "-"):
			if valued[a] {
				i++
			}
		default:
			if _, err := os.Stat(a); err == nil {
				paths = append(paths, a)
			} else {
				revs = true
			}
		}
	}
	return paths, revs
}

// pathPrefixes turns pathspecs (relative to the current directory) into
// repo-relative prefixes.
func pathPrefixes(repo *gitx.Repo, paths []string) []string {
	var out []string
	for _, p := range paths {
		abs := p
		if !path.IsAbs(p) {
			abs = path.Join(cwdOr("."), p)
		}
		if rel := strings.TrimPrefix(abs, repo.TopLevel); rel != abs {
			out = append(out, strings.Trim(rel, "/"))
		} else {
			out = append(out, strings.Trim(p, "/"))
		}
	}
	return out
}

func matchesPrefix(p string, prefixes []string) bool {
	if len(prefixes) == 0 {
		return true
	}
	for _, pre := range prefixes {
		if pre == "" || p == pre || strings.HasPrefix(p, pre+"/") {
			return true
		}
	}
	return false
}

func cwdOr(def string) string {
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return def
}
