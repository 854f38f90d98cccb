package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/ingest"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/term"
)

func recordCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "record",
		Usage:     "record commits and link them to conversations; the post-commit hook runs this",
		UsageText: "git convo record [-v] [<rev>...]\ngit convo record --hook=post-commit\ngit convo record --hook=post-rewrite --rewrite-type=<amend|rebase> < old-new-pairs",
		Description: `Reads each commit (default HEAD) with go-git: hash, branch, author, subject, time and
the files changed against its first parent. It stores it in links.sqlite and links it to
the conversations that edited those files recently (see docs/linking.md).

With --hook the command was started by a git hook: it never prints and never fails; errors
go to the log that "git convo doctor" shows. GIT_CONVO=0 turns the hooks off.
post-rewrite (after amend and rebase) carries every link to the rewritten commits.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "hook", Usage: "started by this git hook (post-commit, post-merge, post-rewrite), or drain: record the queued commits"},
			&cli.StringFlag{Name: "rewrite-type", Usage: "post-rewrite's argument: amend or rebase"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "explain every candidate conversation's score"},
		},
		Action: func(c *cli.Context) error {
			if env.Getenv("GIT_CONVO") == "0" {
				return nil
			}
			hook := c.String("hook")
			if hook == "" {
				drainQueue(c.Context, env, nil, readDrainWait)
				return recordRevs(c.Context, env, c.Args().Slice(), c.Bool("verbose"))
			}
			if env.Getenv("GIT_CONVO_SYNC") != "1" {
				detach()
			}
			if err := recordHook(c.Context, env, hook); err != nil {
				env.log().Printf("record", "%s: %v", hook, err)
			}
			return nil // a hook never fails the commit
		},
	}
}

func newRecorder(ctx context.Context, env *Env, dir string, scrub bool) (*ingest.Recorder, error) {
	repo, err := gitx.Open(ctx, dir, scrub)
	if err != nil {
		return nil, err
	}
	s, err := env.openStore(ctx, false)
	if err != nil {
		return nil, err
	}
	return recorderFor(ctx, env, repo, s), nil
}

// recorderFor records commits of repo into s, sharing their links after.
func recorderFor(ctx context.Context, env *Env, repo *gitx.Repo, s *store.Store) *ingest.Recorder {
	r := env.writer(ctx, s).Recorder(repo)
	r.Shared = func(ctx context.Context, hashes ...string) { shareAfter(ctx, env, repo.TopLevel, s, hashes...) }
	return r
}

func recordHook(ctx context.Context, env *Env, hook string) error {
	if hook == "drain" {
		// Started by a capture (or anything else) in any directory: the
		// queue says which work trees to read.
		drainQueue(ctx, env, nil, backgroundDrainWait)
		return nil
	}
	repo, err := gitx.Open(ctx, ".", true)
	if err != nil {
		return err
	}
	// Read what the hook is about before the database, so that if the
	// database cannot be written the work is spooled, not lost.
	var head *gitx.Commit
	var pairs [][2]string
	switch hook {
	case "post-commit":
		if head, err = repo.ReadCommit(ctx, "HEAD"); err != nil {
			return err
		}
	case "post-merge":
		// The queue and the reflog say whether the merge made a commit: a
		// fast-forward (a pull) makes none, and HEAD is then someone
		// else's commit, not this work tree's to record.
	case "post-rewrite":
		pairs = rewritePairs(env.Stdin)
	default:
		return fmt.Errorf("unknown hook %q", hook)
	}
	s, err := env.openStore(ctx, false)
	if err != nil {
		e := ingest.Spooled{Repo: repo.TopLevel, Rewrite: pairs, AtMs: env.Now().UnixMilli()}
		if head != nil {
			e.Commit = head.Hash
		}
		return spoolEntry(env, e, err)
	}
	r := recorderFor(ctx, env, repo, s)
	defer r.Store.Close()
	drainSpool(ctx, env, r.Store) // Cursor events kept while the database was unavailable
	// The commits the hooks queued, this one among them.
	drainQueue(ctx, env, r.Store, backgroundDrainWait)
	switch hook {
	case "post-merge":
		return nil
	case "post-commit":
		// A block of an older version queues nothing: record HEAD (a
		// no-op when the queue had it).
		done, err := r.Store.RecordedCommits(ctx, []string{head.Hash})
		if err != nil || done[head.Hash] {
			return err
		}
		return r.RecordHead(ctx)
	default: // post-rewrite
		return r.Rewrite(ctx, pairs)
	}
}

// rewritePairs reads post-rewrite's "<old> <new> [extra]" lines.
func rewritePairs(in io.Reader) [][2]string {
	var out [][2]string
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 {
			out = append(out, [2]string{f[0], f[1]})
		}
	}
	return out
}

func recordRevs(ctx context.Context, env *Env, revs []string, verbose bool) error {
	if len(revs) == 0 {
		revs = []string{"HEAD"}
	}
	r, err := newRecorder(ctx, env, ".", false)
	if err != nil {
		return err
	}
	defer r.Store.Close()
	for _, h := range revs {
		if h != "HEAD" && !gitx.IsFullHash(h) {
			resolved, err := r.Repo.RevParse(ctx, h)
			if err != nil {
				return err
			}
			h = resolved[0]
		}
		c, decisions, err := r.Record(ctx, h, store.LinkSourceRelink)
		if err != nil {
			return err
		}
		linked := 0
		for _, d := range decisions {
			if d.Linked {
				linked++
			}
		}
		fmt.Fprintf(env.Stdout, "recorded %s %s: %d conversation%s linked\n", shortHash(c.Hash), c.Subject, linked, plural(linked))
		if verbose {
			for _, d := range decisions {
				verdict := "linked"
				if !d.Linked {
					verdict = "not linked: " + d.Skipped
				}
				fmt.Fprintf(env.Stdout, "  %s score %.2f (%s) %s\n", term.Line(d.ConversationID), d.Score, term.Line(d.Reason), verdict)
			}
		}
	}
	return nil
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// newConfigCache reads each repository's convo.* settings once, with the
// process's environment, as the git it replaces did.
func newConfigCache(ctx context.Context) ingest.ConfigCache {
	return ingest.NewConfigCache(ctx, os.Getenv)
}
