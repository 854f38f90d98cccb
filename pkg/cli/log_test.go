package cli

import "testing"

func TestAbbrevOption(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-n5"}, false},
		{[]string{"--abbrev=12"}, true},
		{[]string{"--no-abbrev", "-n1"}, true},
		{[]string{"--", "--abbrev=12"}, false}, // a path
	} {
		if got := abbrevOption(tc.args); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.args, got, tc.want)
		}
	}
}
