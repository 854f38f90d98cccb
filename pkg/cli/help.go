package cli

import (
	"github.com/urfave/cli/v2"
)

// helpArgs turns "git convo help [<command>]" into "git convo [<command>]
// --help", as "git help <command>" is "git <command> --help". urfave/cli's
// own help command is hidden (a command named "help" would also take the
// app's --help flag away), and its "help, h" subcommand is taken out of
// every command (withoutHelpSubcommands).
func helpArgs(args []string) []string {
	if len(args) < 2 || args[1] != "help" {
		return args
	}
	out := []string{args[0]}
	if len(args) > 2 && args[2] != "help" { // git help takes one command
		out = append(out, args[2])
	}
	return append(out, "--help")
}

// withoutHelpSubcommands stops urfave/cli from adding its "help, h"
// subcommand to each command and subcommand: an argument "h" or "help" is
// the user's (a revision, a path, a word): git convo show h shows the branch
// h. Every command still takes -h and --help.
func withoutHelpSubcommands(cmds []*cli.Command) []*cli.Command {
	for _, c := range cmds {
		c.HideHelpCommand = true
		withoutHelpSubcommands(c.Subcommands)
	}
	return cmds
}
