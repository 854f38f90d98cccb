package cli

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// optionsFirst lets a command's options stand anywhere among its arguments,
// as git's do (git convo search rotation --json, conversation <id> --json),
// and reads an attached value of a one-letter option (-n1 as -n 1). The
// flag library stops at the first argument that is no option, so the
// options are moved before the others, which follow a "--": after it, and
// after a "--" of the user's, nothing is an option. Commands that read
// their arguments themselves (log, show, blame, stats), and those with
// subcommands (share), are left alone.
func optionsFirst(cmds []*cli.Command, args []string) []string {
	if len(args) < 3 || args[len(args)-1] == "--generate-bash-completion" {
		return args
	}
	var cmd *cli.Command
	for _, c := range cmds {
		if c.HasName(args[1]) {
			cmd = c
		}
	}
	if cmd == nil || cmd.SkipFlagParsing || len(cmd.Subcommands) > 0 {
		return args
	}
	known, valued := map[string]bool{}, map[string]bool{}
	for _, f := range cmd.Flags {
		tv, ok := f.(cli.DocGenerationFlag)
		for _, n := range f.Names() {
			known[n] = true
			valued[n] = ok && tv.TakesValue()
		}
	}
	var opts, rest []string
	in := args[2:]
	for i := 0; i < len(in); i++ {
		a := in[i]
		if a == "--" {
			rest = append(rest, in[i+1:]...)
			break
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			rest = append(rest, a)
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !hasValue && !known[name] && !strings.HasPrefix(a, "--") && len(name) > 1 && valued[name[:1]] {
			opts = append(opts, a[:2], a[2:]) // -n1
			continue
		}
		opts = append(opts, a)
		if valued[name] && !hasValue && i+1 < len(in) {
			opts = append(opts, in[i+1])
			i++
		}
	}
	out := append(append([]string{}, args[:2]...), opts...)
	if len(rest) > 0 {
		out = append(append(out, "--"), rest...)
	}
	return out
}
