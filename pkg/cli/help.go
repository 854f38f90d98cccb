package cli

import (
	"github.com/urfave/cli/v2"
)

// helpCommand is "git convo help [<command>]", as "git help" is: the
// top-level help, or one command's. Only at the top level: a read command's
// argument named help or h is a revision or a path.
func helpCommand() *cli.Command {
	return &cli.Command{
		Name:      "help",
		Usage:     "show this help, or a command's (git convo help <command>)",
		UsageText: "git convo help [<command>]",
		// No "help" subcommand of its own: its argument is a command name.
		HideHelpCommand: true,
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.ShowAppHelp(c)
			}
			name := c.Args().First()
			if c.App.Command(name) == nil {
				return usagef("'%s' is not a git-convo command. See 'git convo --help'.", name)
			}
			return cli.ShowCommandHelp(c, name)
		},
	}
}
