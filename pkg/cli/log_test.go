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

func TestMaxCount(t *testing.T) {
	for _, tc := range []struct {
		args []string
		n    int
		ok   bool
	}{
		{nil, 0, false},
		{[]string{"-n", "1000"}, 1000, true},
		{[]string{"-n5"}, 5, true},
		{[]string{"-3", "main"}, 3, true},
		{[]string{"--max-count=7"}, 7, true},
		{[]string{"--max-count", "9", "-n2"}, 2, true},
		{[]string{"--since=2.weeks", "f.txt"}, 0, false},
		{[]string{"-n", "-1"}, 0, false}, // git: no limit
		{[]string{"--", "-5"}, 0, false},
	} {
		if n, ok := maxCount(tc.args); n != tc.n || ok != tc.ok {
			t.Errorf("%q: %d %v, want %d %v", tc.args, n, ok, tc.n, tc.ok)
		}
	}
}
