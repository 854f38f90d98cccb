package cli

import (
	"strings"
	"testing"
)

func TestOptionsFirst(t *testing.T) {
	cmds := commands(&Env{})
	for _, tc := range []struct{ in, want string }{
		{"search rotation --json", "search --json -- rotation"},
		{"search --json -- --json", "search --json -- --json"},
		{"conversations -n1", "conversations -n 1"},
		{"conversations -n 1 --since 2.weeks", "conversations -n 1 --since 2.weeks"},
		{"conversations --since=2.weeks --all", "conversations --since=2.weeks --all"},
		{"conversation abc --json", "conversation --json -- abc"},
		{"search -n 5 key rotation --all", "search -n 5 --all -- key rotation"},
		{"search - x", "search -- - x"},
		{"log -n1 a", "log -n1 a"}, // reads its own arguments
		{"search a --generate-bash-completion", "search a --generate-bash-completion"},
		{"share status --json", "share status --json"}, // a command with subcommands
	} {
		got := optionsFirst(cmds, append([]string{"git-convo"}, strings.Fields(tc.in)...))
		if strings.Join(got[1:], " ") != tc.want {
			t.Errorf("%s: %q, want %q", tc.in, got[1:], tc.want)
		}
	}
}
