package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/errlog"
	"github.com/git-convo/git-convo/pkg/util/term"
)

// check is one line of doctor's report.
type check = app.Finding

func doctorCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "doctor",
		UsageText: "git convo doctor [--json] [--derived] [--replay-spool]",
		Usage:     "check the setup and show recent errors",
		Description: `Checks the git hooks of this repository (present, executable, pointing at a binary that
exists, and whether it is this git-convo), each agent's hooks, the links database (readable,
writable, its directory can be created, schema version), hook events waiting in the spool
or set aside there, errors the log could not take (a full disk), the agents' stores (` + agentDisplays(env, ", ") + `), how
long ago the last capture and record ran, the settings, and sharing (on or off, the
remote, the last push and fetch, the last push error); then shows the recent
errors from the log. Every problem comes with its fix. Exits 1 when a check fails; a state
that is normal before first use (nothing recorded yet) or that you chose (install
--<agent>=none) is information, not a failure. A links.sqlite of the Node prototype at its
default place is mentioned until "git convo import --from-prototype" has copied it.
--replay-spool first retries the spooled events, set-aside ones included. --derived lists
the derived links instead (squash and rebase merges recognised from shared notes), each
with where it lives, who wrote it, and whether today's rules would make it again.`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the checks as JSON"},
			&cli.BoolFlag{Name: "replay-spool", Usage: "retry the spooled hook events now, set-aside ones included, then check"},
			&cli.BoolFlag{Name: "derived", Usage: "list the derived links (squash merges recognised from shared notes) instead"}},
		Action: func(c *cli.Context) error {
			if c.Bool("derived") {
				return doctorDerived(c.Context, env, c.Bool("json"))
			}
			if c.Bool("replay-spool") {
				if err := replaySpool(c.Context, env); err != nil {
					return err
				}
			}
			checks, errs := runDoctor(c.Context, env)
			failed := false
			for _, ch := range checks {
				failed = failed || !ch.OK
			}
			if c.Bool("json") {
				if errs == nil {
					errs = []errlog.Entry{} // none is [], never null
				}
				out := map[string]any{"checks": checks, "recentErrors": errs, "ok": !failed, "version": buildInfo()}
				enc := json.NewEncoder(term.JSONWriter(env.Stdout))
				enc.SetIndent("", "  ")
				if err := enc.Encode(out); err != nil {
					return err
				}
			} else {
				for _, ch := range checks {
					mark := "ok  "
					switch {
					case !ch.OK:
						mark = "FAIL"
					case ch.Warn:
						mark = "warn"
					}
					fmt.Fprintf(env.Stdout, "%s %-14s %s\n", mark, ch.Name, term.Line(ch.Detail))
					if ch.Fix != "" && (!ch.OK || ch.Warn) {
						fmt.Fprintf(env.Stdout, "     %-14s fix: %s\n", "", term.Line(ch.Fix))
					}
				}
				if len(errs) > 0 {
					fmt.Fprintf(env.Stdout, "\nRecent errors (%s):\n", env.log().Path)
					for _, e := range errs {
						fmt.Fprintf(env.Stdout, "  %s\n", term.Line(e.Raw))
					}
				}
			}
			if failed {
				return exitError{ExitError}
			}
			return nil
		},
	}
}

func runDoctor(ctx context.Context, env *Env) ([]check, []errlog.Entry) {
	var checks []check
	add := func(c check) { checks = append(checks, c) }

	bi := buildInfo()
	add(check{Name: "version", OK: true, Detail: fmt.Sprintf("git-convo %s, %s, links-db schema %d", versionString(), bi.Platform, bi.SchemaVersion)})
	exe := env.Executable
	add(check{Name: "binary", OK: exe != "", Detail: exe})

	var agentMore []check // the agents' checks beyond their hooks (their stores), shown last
	if repo, err := gitx.Open(ctx, ".", false); err != nil {
		add(check{Name: "repository", OK: true, Warn: true, Detail: "not in a git repository: repository checks skipped"})
		_, agentMore = doctorAgents(env, nil, nil)
	} else {
		checks = append(checks, env.app().GitHooksHealth(ctx, repo, exe)...)
		values, _ := gitx.ConfigRegexp(ctx, repo.TopLevel, `^convo\.`)
		if _, err := link.ParseConfig(values); err != nil {
			add(check{Name: "settings", OK: true, Warn: true, Detail: err.Error() + " (the default is used)", Fix: "correct it with git config"})
		} else {
			add(check{Name: "settings", OK: true, Detail: fmt.Sprintf("%d convo.* setting(s)", len(values))})
		}
		var hooks []check
		hooks, agentMore = doctorAgents(env, repo, values)
		checks = append(checks, hooks...)
		checks = append(checks, doctorShare(ctx, env, repo)...)
		checks = append(checks, doctorInterop(ctx, env, repo)...)
	}

	db := env.app().StoreHealth(ctx)
	for _, c := range db.Findings {
		if !c.At.IsZero() {
			c.Detail = doctorAgo(env, c.At)
		}
		add(c)
	}
	dbWritable := db.Writable

	checks = append(checks, prototypeChecks(ctx, env)...)
	if sp, err := env.app().Spool(); err == nil {
		checks = append(checks, spoolChecks(sp, dbWritable, env.Now())...)
		checks = append(checks, lostCheck(env.log().Path)...)
	}
	checks = append(checks, agentMore...)
	errs, _ := errlog.Tail(env.log().Path, 10)
	return checks, errs
}
