// Package cli builds git-convo's commands: one file per command, each a thin
// layer that parses flags and calls the packages that do the work.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/agents"
	"github.com/git-convo/git-convo/pkg/app"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/errlog"
	"github.com/git-convo/git-convo/pkg/util/platform"
	"github.com/git-convo/git-convo/pkg/util/term"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitError = 1 // the command failed; the message says why
	ExitUsage = 2 // bad flags or arguments
)

// Env is everything a command may take from the outside world, so tests can
// run commands in-process with their own streams and environment.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads the environment (os.Getenv in production).
	Getenv func(string) string
	// LookupEnv tells a variable set empty from one unset, where git does
	// (GIT_PAGER, PAGER); nil: Getenv's non-empty values are the set ones.
	LookupEnv func(string) (string, bool)
	// Now is the clock.
	Now func() time.Time
	// Executable is the absolute path of the running git-convo binary, written
	// into hooks so GUI-launched Cursor and IDE git panels find it without PATH
	// (with forward slashes on Windows, for Git for Windows' sh).
	Executable string
	// StdoutTTY and StderrTTY tell whether the streams are terminals.
	StdoutTTY, StderrTTY bool
	// Agents are the coding agents this git-convo knows (cmd/git-convo
	// sets them: pkg/agents/builtin). Commands, flags and help texts loop
	// over them; nil knows none.
	Agents *agents.Registry
	// App is the application the commands call (pkg/app). The composition
	// root sets it (NewApp); an Env without one (a test's) gets one built
	// from its own fields.
	App *app.App
}

// AppConfig is the application's configuration for this environment: its
// clock, environment, agents and stderr, and detached git-convo processes
// started from Executable.
func (env *Env) AppConfig() app.Config {
	return app.Config{Getenv: env.Getenv, Now: env.Now, Agents: env.Agents, Version: Version, Stderr: env.Stderr,
		Spawn: func(args ...string) error { return spawnDetached(env.Executable, args) }}
}

// app is the application this environment's commands call.
func (env *Env) app() *app.App {
	if env.App != nil {
		return env.App
	}
	return app.New(env.AppConfig())
}

// SystemEnv is the real process's environment.
func SystemEnv() *Env {
	exe, err := os.Executable()
	if err == nil {
		if real, err2 := evalSymlinks(exe); err2 == nil {
			exe = real
		}
	}
	return &Env{
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
		Getenv:     os.Getenv,
		LookupEnv:  os.LookupEnv,
		Now:        app.Clock(os.Getenv("GIT_CONVO_NOW")),
		Executable: platform.ShellPath(runtime.GOOS, exe),
		StdoutTTY:  isTerminal(os.Stdout),
		StderrTTY:  isTerminal(os.Stderr),
	}
}

// usageError marks an error as a usage problem (exit 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// exitError carries an exit code with no further message (already printed).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// Run runs git-convo with args (args[0] is the program name) and returns the
// process exit code.
func Run(args []string, env *Env) int {
	// A full disk or a file-size limit must fail a write, not kill a hook.
	ignoreFileSizeSignal()
	ca := newApp(env)
	unknown := false
	ca.CommandNotFound = func(c *cli.Context, name string) {
		unknown = true
		fmt.Fprintf(env.Stderr, "git-convo: '%s' is not a git-convo command. See 'git convo --help'.\n", name)
	}
	err := ca.RunContext(context.Background(), optionsFirst(ca.Commands, helpArgs(args)))
	if unknown {
		return ExitUsage
	}
	if err == nil {
		return ExitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	// A git command that failed speaks for itself: its stderr as git wrote
	// it (fatal:, hints, warnings) and its exit code (128 for fatal).
	if ge, ok := err.(*gitx.Error); ok && ge.Stderr != "" && ge.ExitCode() > 0 {
		if !ge.Shown {
			io.WriteString(env.Stderr, ge.Stderr)
		}
		return ge.ExitCode()
	}
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(env.Stderr, "git-convo: %s\n", ue.msg)
		return ExitUsage
	}
	var aue app.UsageError // the application's word for the same
	if errors.As(err, &aue) {
		fmt.Fprintf(env.Stderr, "git-convo: %s\n", aue.Msg)
		return ExitUsage
	}
	fmt.Fprintf(env.Stderr, "git-convo: %s\n", term.Line(err.Error()))
	return ExitError
}

func newApp(env *Env) *cli.App {
	app := &cli.App{
		Name:                 "git-convo",
		HelpName:             "git convo",
		Usage:                "link commits to the AI conversations that produced them",
		UsageText:            "git convo <command> [options] [arguments]",
		Version:              versionString(),
		Reader:               env.Stdin,
		Writer:               env.Stdout,
		ErrWriter:            env.Stderr,
		EnableBashCompletion: true,
		HideHelpCommand:      true,
		Description: `git-convo answers the question git cannot: which AI conversation produced this
commit, this file, this line, and why. The agents' hooks (` + agentDisplays(env, ", ") + `) call "git convo capture";
a post-commit hook calls "git convo record"; "show", "log" and "blame" read the links.

Start with "git convo install" in a repository (or "git convo demo" to see it work).
"git convo help <command>" (or "git convo <command> --help") explains one command.`,
		Commands: commands(env),
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return usagef("%v (see `git convo --help`)", err)
		},
		ExitErrHandler: func(*cli.Context, error) {}, // Run maps errors to exit codes
	}
	return app
}

func commands(env *Env) []*cli.Command {
	return withoutHelpSubcommands([]*cli.Command{
		showCommand(env),
		logCommand(env),
		blameCommand(env),
		statsCommand(env),
		prCommand(env),
		conversationsCommand(env),
		conversationCommand(env),
		searchCommand(env),
		linkCommand(env),
		unlinkCommand(env),
		relinkCommand(env),
		importCommand(env),
		installCommand(env),
		uninstallCommand(env),
		doctorCommand(env),
		forgetCommand(env),
		mcpCommand(env),
		demoCommand(env),
		captureCommand(env),
		recordCommand(env),
		enrichCommand(env),
		completionCommand(env),
		manCommand(env),
		shareCommand(env),
		pushCommand(env),
		fetchCommand(env),
		traceCommand(env),
		versionCommand(env),
	})
}

// dbPath is where links.sqlite lives for this environment.
func (env *Env) dbPath() (string, error) { return env.app().DBPath() }

// log returns the error log beside the links database.
func (env *Env) log() errlog.Log { return env.app().Log() }

// openStore opens links.sqlite (app.OpenStore).
func (env *Env) openStore(ctx context.Context, mustExist bool) (*app.Store, error) {
	return env.app().OpenStore(ctx, mustExist)
}
