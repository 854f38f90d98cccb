package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/util/errlog"
	"github.com/git-convo/git-convo/pkg/util/term"
)

// spoolStale is how long spooled events may wait before doctor calls it a
// problem: an agent's turn ends, a commit is recorded or a command reads
// well within it, and each of them records what waits.
const spoolStale = time.Hour

// spoolChecks reports events waiting in the spool: normal for an agent's
// turn in progress (its edit events wait there), a problem when they wait
// because links.sqlite cannot be written or for longer than spoolStale;
// and events set aside because they can never be replayed.
func spoolChecks(sp app.Spooled, dbWritable bool, now time.Time) []check {
	var out []check
	dir := sp.Dir
	if sp.Pending > 0 {
		oldest, since := sp.Oldest, "an unknown time"
		if !oldest.IsZero() {
			since = oldest.Format(time.RFC3339)
		}
		c := check{Name: "spool", OK: true,
			Detail: fmt.Sprintf("%d hook event(s) waiting in %s since %s: recorded at the end of the agent's turn, at the next commit or before the next read",
				sp.Pending, dir, since)}
		switch {
		case !dbWritable:
			c.OK, c.Warn = false, true
			c.Detail = fmt.Sprintf("%d hook event(s) waiting in %s since %s: links.sqlite cannot be written", sp.Pending, dir, since)
			c.Fix = "fix the links db problem above; the next hook then records them"
		case !oldest.IsZero() && now.Sub(oldest) > spoolStale:
			c.Warn = true
			c.Detail = fmt.Sprintf("%d hook event(s) waiting in %s since %s: no git-convo process has recorded them for %s (the log says if recording failed)",
				sp.Pending, dir, since, term.Duration(now.Sub(oldest)))
			c.Fix = "git convo doctor --replay-spool records them now"
		}
		out = append(out, c)
	}
	if sp.Aside > 0 {
		if n := sp.Unknown; n > 0 {
			out = append(out, check{Name: "unknown hooks", OK: true, Warn: true,
				Detail: fmt.Sprintf("%d hook payload(s) that no agent recognises reached git-convo's hooks (the log names the hooks configuration that sent each); kept in %s", n, sp.AsideDir),
				Fix:    "see which program sends them in the log; a git-convo that knows it records them with git convo doctor --replay-spool"})
		}
		out = append(out, check{Name: "spool", OK: true, Warn: true,
			Detail: fmt.Sprintf("%d hook event(s) set aside in %s: replaying them failed for a reason waiting will not cure (the log says which)", sp.Aside, sp.AsideDir),
			Fix:    "git convo doctor --replay-spool tries them again once the cause is fixed; delete the files to drop them"})
	}
	return out
}

// lostCheck reports a line the error log could not take (a full disk): it
// waits in the preallocated last-error record until the log works again.
func lostCheck(logPath string) []check {
	errlog.Prepare(logPath) // so a later full disk can still be reported
	line := errlog.LastError(logPath)
	if line == "" {
		return nil
	}
	defer errlog.Flush(logPath) // reported now; in the log's recent errors from now on
	return []check{{Name: "lost errors", OK: false, Detail: "the log could not be written (a full disk, or a read-only directory); the last error was: " + line,
		Fix: "free disk space (df -h " + filepath.Dir(logPath) + ") or make that directory writable; hook events may have been lost meanwhile"}}
}

// replaySpool puts the set-aside entries back and records everything
// waiting now (doctor --replay-spool).
func replaySpool(ctx context.Context, env *Env) error {
	r, err := env.app().ReplaySpool(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "put back %d set-aside event(s); replayed %d; %d still waiting, %d set aside\n",
		r.PutBack, r.Replayed, r.Waiting, r.Aside)
	if r.Aside > 0 {
		fmt.Fprintf(env.Stdout, "see why in %s\n", strings.TrimSpace(env.log().Path))
	}
	return nil
}
