package hookrun

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/write/ingest"
)

// RecordHook records what the git hook named hook (post-commit,
// post-merge, post-rewrite) is about, in the work tree at dir, with the
// commits the hooks queued (DrainQueue alone records the queue from any
// directory). post-rewrite's "<old> <new>" lines come on stdin. It never
// fails: errors go to the log, and a commit the database cannot take is
// spooled.
func (o Options) RecordHook(ctx context.Context, hook, dir string, stdin io.Reader) {
	if err := o.recordHook(ctx, hook, dir, stdin); err != nil {
		o.Log.Printf("record", "%s: %v", hook, err)
	}
}

func (o Options) recordHook(ctx context.Context, hook, dir string, stdin io.Reader) error {
	repo, err := gitx.Open(ctx, dir, true)
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
		pairs = rewritePairs(stdin)
	default:
		return fmt.Errorf("unknown hook %q", hook)
	}
	s, err := o.open(ctx, 0)
	if err != nil {
		e := ingest.Spooled{Repo: repo.TopLevel, Rewrite: pairs, AtMs: o.Now().UnixMilli()}
		if head != nil {
			e.Commit = head.Hash
		}
		return o.spoolCommit(e, err)
	}
	defer s.Close()
	// The agents' spooled events, then the commits the hooks queued, this
	// one among them.
	o.DrainQueue(ctx, s, BackgroundDrainWait)
	r := o.Recorder(ctx, repo, s)
	switch hook {
	case "post-merge":
		return nil
	case "post-commit":
		// A block of an older version queues nothing: record HEAD (a
		// no-op when the queue had it).
		done, err := s.RecordedCommits(ctx, []string{head.Hash})
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
