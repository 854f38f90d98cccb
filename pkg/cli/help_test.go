package cli

import (
	"strings"
	"testing"
)

func TestHelpArgs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"help", "--help"},
		{"help show", "show --help"},
		{"help help", "--help"},
		{"help show extra", "show --help"},
		{"show help", "show help"}, // a revision named help
		{"show h", "show h"},
		{"", ""},
	} {
		got := helpArgs(append([]string{"git-convo"}, strings.Fields(tc.in)...))
		if strings.Join(got[1:], " ") != tc.want {
			t.Errorf("%q: %q, want %q", tc.in, got[1:], tc.want)
		}
	}
}
