package cli

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// The read commands that wrap git (show, log, blame, stats) parse their own
// arguments (gitargs.go), so urfave knows none of their options. These tables
// say what each takes for itself; helpFlags turns a table into the flags
// listed under OPTIONS in --help (never parsed: SkipFlagParsing), and a test
// checks every one is taken by the command's argument parser.

// ownOption is one option a read command takes for itself.
type ownOption struct {
	names []string // as typed, the long form first: "--show-email", "-e"
	usage string
}

// readOptionHelp are the options every read command takes.
func readOptionHelp() []ownOption {
	return []ownOption{
		{names: []string{"--json"}, usage: "print JSON (docs/json.md) instead of text"},
		{names: []string{"--color"}, usage: "color the output; --color=<when> takes always, never or auto (auto, the default: on a terminal, as NO_COLOR, color.convo and color.ui allow)"},
		{names: []string{"--no-color"}, usage: "the same as --color=never"},
		{names: []string{"--no-pager"}, usage: "do not page the output (as git --no-pager; core.pager and GIT_PAGER are honoured otherwise)"},
	}
}

func showOptionHelp() []ownOption {
	return append([]ownOption{
		{names: []string{"--full"}, usage: "add each conversation's transcript (Cursor's database, the agent's transcript, or the hooks' record)"},
	}, readOptionHelp()...)
}

func logOptionHelp() []ownOption {
	return append([]ownOption{
		{names: []string{"--only-linked"}, usage: "only the commits that have a conversation"},
		{names: []string{"--oneline"}, usage: "git log --oneline's own line for each commit"},
		{names: []string{"--name-only"}, usage: "the paths each commit changed, under its line"},
	}, readOptionHelp()...)
}

func blameOptionHelp() []ownOption {
	return append([]ownOption{
		{names: []string{"-s"}, usage: "leave out the author and date columns, as git blame -s"},
		{names: []string{"--show-email", "-e"}, usage: "the author's email instead of the name, as git blame -e"},
		{names: []string{"-l"}, usage: "full commit hashes, as git blame -l"},
		{names: []string{"-b"}, usage: "blank hashes for boundary commits, as git blame -b"},
	}, readOptionHelp()...)
}

func statsOptionHelp() []ownOption { return readOptionHelp() }

// helpFlags are the flags --help lists for a table. The flags are registered
// (though never parsed), so a name is only a name: an option's value form is
// said in its usage.
func helpFlags(opts []ownOption) []cli.Flag {
	flags := make([]cli.Flag, 0, len(opts))
	for _, o := range opts {
		names := make([]string, len(o.names))
		for i, n := range o.names {
			names[i] = strings.TrimLeft(n, "-")
		}
		flags = append(flags, &cli.BoolFlag{Name: names[0], Aliases: names[1:], Usage: o.usage, DisableDefaultText: true})
	}
	return flags
}
