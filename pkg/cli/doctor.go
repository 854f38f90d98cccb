package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/hooks/templates"
	"github.com/git-convo/git-convo/pkg/cursor"
	"github.com/git-convo/git-convo/pkg/errlog"
	"github.com/git-convo/git-convo/pkg/githooks"
	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/link"
	"github.com/git-convo/git-convo/pkg/spool"
	"github.com/git-convo/git-convo/pkg/store"
)

// check is one line of doctor's report.
type check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Warn   bool   `json:"warning,omitempty"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

func doctorCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "doctor",
		Usage: "check the setup and show recent errors",
		Description: `Checks the git hooks of this repository (present, executable, pointing at a binary that
exists), Cursor's hooks, the links database (readable, schema version), Cursor's database,
how long ago the last capture and record ran, and the settings; then shows the recent
errors from the log. Every problem comes with its fix. Exits 1 when a check fails; a state
that is normal before first use (nothing recorded yet) or that you chose (install
--cursor=none) is information, not a failure. A links.sqlite of the Node prototype at its
default place is mentioned until "git convo import --from-prototype" has copied it.`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the checks as JSON"}},
		Action: func(c *cli.Context) error {
			checks, errs := runDoctor(c.Context, env)
			failed := false
			for _, ch := range checks {
				failed = failed || !ch.OK
			}
			if c.Bool("json") {
				out := map[string]any{"checks": checks, "recentErrors": errs, "ok": !failed, "version": buildInfo()}
				enc := json.NewEncoder(env.Stdout)
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
					fmt.Fprintf(env.Stdout, "%s %-14s %s\n", mark, ch.Name, ch.Detail)
					if ch.Fix != "" && (!ch.OK || ch.Warn) {
						fmt.Fprintf(env.Stdout, "     %-14s fix: %s\n", "", ch.Fix)
					}
				}
				if len(errs) > 0 {
					fmt.Fprintf(env.Stdout, "\nRecent errors (%s):\n", env.log().Path)
					for _, e := range errs {
						fmt.Fprintf(env.Stdout, "  %s\n", e.Raw)
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

	if repo, err := gitx.Open(ctx, ".", false); err != nil {
		add(check{Name: "repository", OK: true, Warn: true, Detail: "not in a git repository: repository checks skipped"})
	} else {
		checks = append(checks, doctorGitHooks(ctx, repo)...)
		values, _ := gitx.ConfigRegexp(ctx, repo.TopLevel, `^convo\.`)
		if _, err := link.ParseConfig(values); err != nil {
			add(check{Name: "settings", OK: true, Warn: true, Detail: err.Error() + " (the default is used)", Fix: "correct it with git config"})
		} else {
			add(check{Name: "settings", OK: true, Detail: fmt.Sprintf("%d convo.* setting(s)", len(values))})
		}
		proj := filepath.Join(repo.TopLevel, ".cursor", "hooks.json")
		userDir, _ := env.userCursorDir()
		user := filepath.Join(userDir, "hooks.json")
		found := ""
		for _, p := range []string{proj, user} {
			if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), "capture") && strings.Contains(string(b), "git-convo") {
				found = p
				break
			}
		}
		switch {
		case found == "" && values[keyCursor] == "none": // the user's choice, remembered by install
			add(check{Name: "cursor hooks", OK: true, Detail: "not installed, as chosen (git config " + keyCursor + " = none): Cursor's conversations are not captured; git convo install --cursor=user captures them"})
		case found == "":
			add(check{Name: "cursor hooks", OK: claudeHooked(env, repo), Warn: true, Detail: "no hooks.json names git-convo capture", Fix: "git convo install"})
		default:
			if missing, _ := cursor.MissingHooks(found, cursor.DefaultHookSpecs()); len(missing) > 0 {
				add(check{Name: "cursor hooks", OK: true, Warn: true, Detail: fmt.Sprintf("%s lacks %v", found, missing), Fix: "git convo install"})
				break
			}
			add(check{Name: "cursor hooks", OK: true, Detail: found})
		}
		add(doctorClaude(env, repo))
	}

	dbPath, err := env.dbPath()
	if err != nil {
		add(check{Name: "links db", OK: false, Detail: err.Error(), Fix: "set GIT_CONVO_DB"})
	} else if s, err := store.Open(ctx, dbPath, store.Options{MustExist: true, Resolver: resolver()}); errors.Is(err, store.ErrNotFound) {
		// Normal before the first capture or recorded commit: not a failure.
		add(check{Name: "links db", OK: true, Detail: dbPath + ": nothing recorded yet (created by the first Cursor hook or commit)"})
	} else if err != nil {
		fix := "move the file aside; git-convo starts a new one (links in the old file are not lost: keep it)"
		switch {
		case os.IsNotExist(err) || strings.Contains(err.Error(), "not found"):
			fix = "nothing recorded yet: work with Cursor's agent and commit"
		case store.IsReadOnly(err) || strings.Contains(err.Error(), "readonly"):
			fix = "make it writable: chmod u+w " + dbPath
		}
		add(check{Name: "links db", OK: false, Detail: err.Error(), Fix: fix})
	} else {
		v, _ := s.Version(ctx)
		counts, _ := s.Counts(ctx)
		add(check{Name: "links db", OK: true, Detail: fmt.Sprintf("%s (schema %d; %d conversations, %d commits, %d links)",
			dbPath, v, counts.Conversations, counts.Commits, counts.Links)})
		for _, m := range []struct{ key, name, fix string }{
			{"lastCapture", "last capture", "no Cursor hook has run yet: check Cursor's hooks (Cursor Settings > Hooks) and restart Cursor"},
			{"lastRecord", "last record", "no commit recorded yet: commit, or run git convo record"},
		} {
			at, _ := s.Meta(ctx, m.key)
			if at == "" {
				add(check{Name: m.name, OK: true, Warn: true, Detail: "never", Fix: m.fix})
				continue
			}
			detail := at
			if t, err := time.Parse(time.RFC3339, at); err == nil {
				detail = link.Ago(env.Now().Sub(t)) + " ago (" + at + ")"
			}
			add(check{Name: m.name, OK: true, Detail: detail})
		}
		s.Close()
	}

	checks = append(checks, prototypeChecks(ctx, env)...)
	if dbPath, err := env.dbPath(); err == nil {
		if pending, _ := spool.Pending(spool.Dir(dbPath)); len(pending) > 0 {
			add(check{Name: "spool", OK: true, Warn: true,
				Detail: fmt.Sprintf("%d Cursor event(s) waiting in %s: the links database could not be written when they came", len(pending), spool.Dir(dbPath)),
				Fix:    "fix the links database problem above; the next hook records them"})
		}
	}
	if p, err := cursor.DefaultDBPath(env.Getenv); err != nil {
		add(check{Name: "cursor db", OK: true, Warn: true, Detail: err.Error()})
	} else if _, err := os.Stat(p); err != nil {
		add(check{Name: "cursor db", OK: true, Warn: true, Detail: p + " not found: titles and summaries will be missing",
			Fix: "set CURSOR_DB_PATH to Cursor's globalStorage/state.vscdb"})
	} else {
		add(check{Name: "cursor db", OK: true, Detail: p})
	}
	errs, _ := errlog.Tail(env.log().Path, 10)
	return checks, errs
}

func doctorGitHooks(ctx context.Context, repo *gitx.Repo) []check {
	loc, err := githooks.Locate(ctx, repo.TopLevel)
	if err != nil {
		return []check{{Name: "git hooks", OK: false, Detail: err.Error()}}
	}
	var out []check
	for _, name := range gitHooks() {
		path := filepath.Join(loc.Dir, name)
		if f := loc.ManagerFile(name); f != "" {
			path = f
		}
		st := githooks.Inspect(path)
		c := check{Name: name, OK: st.Installed && st.Executable && st.BinaryExists, Detail: path}
		switch {
		case !st.Installed:
			c.Fix = "git convo install"
			c.Detail += ": no git-convo block"
		case !st.Executable:
			c.Fix = "chmod +x " + path
			c.Detail += ": not executable, git will not run it"
		case !st.BinaryExists:
			c.Fix = "reinstall git-convo, then git convo install (the hook names " + st.Binary + ")"
			c.Detail += ": the binary it names is gone"
		case st.Block != mustRender(name, st.Binary):
			c.Warn = true
			c.Fix = "git convo install (upgrades the block)"
			c.Detail += ": an older block version"
		}
		out = append(out, c)
	}
	return out
}

// mustRender is the current block for hook naming bin ("" on error).
func mustRender(hook, bin string) string {
	b, err := templates.Render(hook, bin)
	if err != nil {
		return ""
	}
	return b
}
