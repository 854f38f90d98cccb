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

// TestDecorates: log.decorate, then the last --decorate option, as git's
// parse_decoration_style reads them; auto is the terminal's.
func TestDecorates(t *testing.T) {
	tests := []struct {
		args      []string
		terminal  bool
		cfg       string
		cfgSet    bool
		decorates bool
	}{
		{nil, true, "", false, true},
		{nil, false, "", false, false},
		{nil, true, "false", true, false},
		{nil, false, "short", true, true},
		// git compares the styles case-sensitively: FULL, Short and AUTO
		// decorate nothing (builtin/log.c: parse_decoration_style).
		{nil, false, "FULL", true, false},
		{nil, true, "Short", true, false},
		{nil, true, "AUTO", true, false},
		{nil, false, "full", true, true},
		{nil, false, "TRUE", true, true},
		{nil, true, "auto", true, true},
		{nil, false, "auto", true, false},
		{nil, true, "bogus", true, false},
		{[]string{"--decorate"}, false, "no", true, true},
		{[]string{"--decorate=auto"}, true, "no", true, true},
		{[]string{"--decorate=no"}, true, "", false, false},
		{[]string{"--decorate=yes"}, false, "", false, true},
		{[]string{"--decorate", "--no-decorate"}, false, "", false, false},
		{[]string{"--no-decorate", "--decorate=full"}, false, "", false, true},
		{[]string{"--", "--decorate"}, false, "", false, false},
	}
	for _, tt := range tests {
		config := func() (string, bool) { return tt.cfg, tt.cfgSet }
		if got := decorates(tt.args, tt.terminal, config); got != tt.decorates {
			t.Errorf("decorates(%q, terminal %v, log.decorate %q set %v) = %v", tt.args, tt.terminal, tt.cfg, tt.cfgSet, got)
		}
	}
}
