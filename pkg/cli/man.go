package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"
)

// agentManEnv is the man page's entries for the agents' environment
// variables.
func agentManEnv(env *Env) string {
	var b strings.Builder
	for _, a := range env.Agents.Agents() {
		for _, v := range a.Words().Env {
			b.WriteString(".TP\n.B " + v[0] + "\n" + v[1] + "\n")
		}
	}
	return b.String()
}

// agentManConfig is the man page's entries for convo.<agent>.
func agentManConfig(env *Env) string {
	var b strings.Builder
	for _, a := range env.Agents.Agents() {
		fmt.Fprintf(&b, ".TP\n.B %s\nWhere install puts %s's hooks without --%s (user, project or none); install --%s sets it.\n",
			scopeKey(a), a.Words().Display, a.Name(), a.Name())
	}
	return b.String()
}

// manCommand prints the man page, generated from the same command
// definitions as --help so the two never disagree. install.sh installs it so
// `git convo --help` (which git turns into `man git-convo`) works.
func manCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "man",
		UsageText: "git convo man",
		Usage:     "print the man page (roff)",
		Hidden:    true,
		Action: func(c *cli.Context) error {
			_, err := fmt.Fprint(env.Stdout, manPage(c.App, env))
			return err
		},
	}
}

func manPage(app *cli.App, env *Env) string {
	var b strings.Builder
	esc := func(s string) string {
		s = strings.ReplaceAll(s, `\`, `\\`)
		var lines []string
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
				l = `\&` + l
			}
			lines = append(lines, l)
		}
		return strings.Join(lines, "\n")
	}
	b.WriteString(".TH GIT-CONVO 1 \"\" \"git-convo " + Version + "\" \"Git Manual\"\n")
	b.WriteString(".SH NAME\ngit-convo \\- " + esc(app.Usage) + "\n")
	b.WriteString(".SH SYNOPSIS\n.B git convo\n.I command\n[\\fIoptions\\fR] [\\fIarguments\\fR]\n")
	b.WriteString(".SH DESCRIPTION\n.nf\n" + esc(app.Description) + "\n.fi\n")
	b.WriteString(".SH COMMANDS\n")
	for _, cmd := range app.Commands {
		if cmd.Hidden {
			continue
		}
		b.WriteString(".SS " + cmd.Name + "\n")
		if cmd.UsageText != "" {
			b.WriteString(".nf\n" + esc(cmd.UsageText) + "\n.fi\n")
		}
		b.WriteString(esc(cmd.Usage) + ".\n")
		if cmd.Description != "" {
			b.WriteString(".PP\n.nf\n" + esc(cmd.Description) + "\n.fi\n")
		}
		for _, f := range cmd.Flags {
			names := f.Names()
			var parts []string
			for _, n := range names {
				if len(n) == 1 {
					parts = append(parts, "-"+n)
				} else {
					parts = append(parts, "--"+n)
				}
			}
			usage := ""
			if df, ok := f.(cli.DocGenerationFlag); ok {
				usage = df.GetUsage()
			}
			b.WriteString(".TP\n.B " + esc(strings.Join(parts, ", ")) + "\n" + esc(usage) + "\n")
		}
	}
	b.WriteString(`.SH ENVIRONMENT
.TP
.B GIT_CONVO_DB
Path of links.sqlite (default: $XDG_DATA_HOME/git-convo/links.sqlite on Linux,
~/Library/Application Support/git-convo/links.sqlite on macOS, %APPDATA%\\git-convo\\links.sqlite on Windows).
CURSOR_LINKS_DB_PATH is honoured as a fallback.
` + agentManEnv(env) + `.TP
.B GIT_CONVO
Set to 0 to turn the git hooks off.
.TP
.B GIT_CONVO_SYNC
Set to 1 to run the post-commit work in the foreground, and to record every agent hook event at once instead of spooling the events inside a turn (tests, CI).
.TP
.B NO_COLOR
Turns color off unless --color=always is given.
.SH CONFIGURATION
.TP
.B convo.window, convo.overlapWeight, convo.recencyWeight, convo.threshold
The linking settings; see docs/linking.md.
.TP
.B color.convo
Whether read commands use color (falls back to color.ui; color.pager and TERM=dumb as in git).
What they print of git's (show's header, log --oneline's line) follows color.diff, as git's own.
.TP
.B color.diff.commit, color.decorate.<slot>, log.decorate
Hashes and decorations as git log shows them on a terminal; see README.md, On a terminal.
` + agentManConfig(env) + `.SH FILES
The error log git-convo.log sits beside links.sqlite; git convo doctor shows it.
A links.sqlite written by the Node prototype (cursor-chat-history-mcp) is adopted in place when
opened, after a backup beside it (links.sqlite.prototype-backup); git convo import --from-prototype
copies one from ~/.local/share/CursorChatHistory/links.sqlite (or a path given) instead.
.SH SEE ALSO
.BR git-log (1),
.BR git-blame (1),
.BR git-show (1)
`)
	return b.String()
}

func completionCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash or zsh)",
		UsageText: "git convo completion bash|zsh",
		Description: `bash: source it after git's own completion (install.sh installs it into
share/bash-completion/completions); git's completion then completes "git convo <TAB>".
zsh: put it on $fpath as _git-convo.`,
		Action: func(c *cli.Context) error {
			switch c.Args().First() {
			case "bash":
				_, err := fmt.Fprint(env.Stdout, bashCompletion(c.App))
				return err
			case "zsh":
				_, err := fmt.Fprint(env.Stdout, zshCompletion(c.App))
				return err
			default:
				return usagef("usage: git convo completion bash|zsh")
			}
		},
	}
}

// commandWords lists the visible commands and, for each, its flags.
func commandWords(app *cli.App) ([]string, map[string][]string) {
	var names []string
	flags := map[string][]string{}
	for _, cmd := range app.Commands {
		if cmd.Hidden {
			continue
		}
		names = append(names, cmd.Name)
		for _, f := range cmd.Flags {
			for _, n := range f.Names() {
				if len(n) > 1 {
					flags[cmd.Name] = append(flags[cmd.Name], "--"+n)
				}
			}
		}
		sort.Strings(flags[cmd.Name])
	}
	if flags["log"] == nil {
		flags["log"] = []string{"--json", "--only-linked", "--color=", "--no-pager"}
	}
	return names, flags
}

func bashCompletion(app *cli.App) string {
	names, flags := commandWords(app)
	var b strings.Builder
	b.WriteString("# bash completion for git convo (git calls _git_convo for `git convo <TAB>`)\n")
	b.WriteString("_git_convo ()\n{\n\tlocal subcommands=\"" + strings.Join(names, " ") + "\"\n")
	b.WriteString("\tlocal subcommand=\"$(__git_find_on_cmdline \"$subcommands\")\"\n")
	b.WriteString("\tif [ -z \"$subcommand\" ]; then\n\t\t__gitcomp \"$subcommands --help --version\"\n\t\treturn\n\tfi\n")
	b.WriteString("\tcase \"$subcommand,$cur\" in\n")
	for _, n := range names {
		if len(flags[n]) > 0 {
			b.WriteString("\t" + n + ",--*) __gitcomp \"" + strings.Join(flags[n], " ") + "\" ;;\n")
		}
	}
	b.WriteString("\tblame,*) __git_complete_revlist_file ;;\n")
	b.WriteString("\tshow,*|log,*|record,*|relink,*|link,*|unlink,*) __git_complete_revlist ;;\n")
	b.WriteString("\tinstall,*) __gitcomp \"--cursor=user --cursor=project --cursor=none --force\" ;;\n")
	b.WriteString("\tcompletion,*) __gitcomp \"bash zsh\" ;;\n")
	b.WriteString("\tesac\n}\n")
	b.WriteString("# Standalone git-convo as well.\ncomplete -o bashdefault -o default -o nospace -F _git_convo git-convo 2>/dev/null || true\n")
	return b.String()
}

func zshCompletion(app *cli.App) string {
	var b strings.Builder
	b.WriteString("#compdef git-convo\n# zsh completion for git convo: put this file on $fpath as _git-convo.\n")
	b.WriteString("# zsh's git completion runs _git-convo for `git convo <TAB>`.\n")
	b.WriteString("_git-convo() {\n  local -a subcommands\n  subcommands=(\n")
	for _, cmd := range app.Commands {
		if cmd.Hidden {
			continue
		}
		fmt.Fprintf(&b, "    '%s:%s'\n", cmd.Name, strings.ReplaceAll(cmd.Usage, "'", `'\''`))
	}
	b.WriteString("  )\n  if (( CURRENT == 2 )); then\n    _describe -t commands 'git convo command' subcommands\n  else\n")
	b.WriteString("    case $words[2] in\n      blame) _files ;;\n      *) _files ;;\n    esac\n  fi\n}\n")
	b.WriteString("_git-convo \"$@\"\n")
	return b.String()
}
