package gitconfig

import "testing"

// Any config file text parses without a panic, and hands over to git
// rather than guess at what it cannot read.
func FuzzSettingsParse(f *testing.F) {
	f.Add("[color]\n\tui = auto\n")
	f.Add("[a \"b\\\"c\"] x = \"1 ; 2\" # c\n\\\n")
	f.Fuzz(func(t *testing.T, text string) {
		_ = New().Parse([]byte(text))
	})
}

// Parse and the getters on the forms git writes and reads; what git alone
// reads exactly is ErrNeedsGit.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, text, key, want string
		set                   bool
		err                   error
	}{
		{"plain", "[core]\n\tpager = less -R\n", "core.pager", "less -R", true, nil},
		{"section case", "[Core]\n\tPager = x\n", "core.pager", "x", true, nil},
		{"subsection kept", "[branch \"Main\"]\n\tremote = origin\n", "branch.Main.remote", "origin", true, nil},
		{"quotes and comment", "[a]\n\tb = \"x ; y\" ; c\n", "a.b", "x ; y", true, nil},
		{"last wins", "[a]\n\tb = 1\n\tb = 2\n", "a.b", "2", true, nil},
		{"bare key", "[a]\n\tb\n", "a.b", "", true, nil},
		{"continued", "[a]\n\tb = x\\\ny\n", "a.b", "xy", true, nil},
		{"include", "[include]\n\tpath = x\n", "", "", false, ErrNeedsGit},
		{"no section", "b = 1\n", "", "", false, ErrNeedsGit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			if err := s.Parse([]byte(tc.text)); err != tc.err {
				t.Fatalf("Parse: %v, want %v", err, tc.err)
			}
			if tc.key == "" {
				return
			}
			if got, set := s.Get(tc.key); got != tc.want || set != tc.set {
				t.Errorf("Get(%q) = %q %v, want %q %v", tc.key, got, set, tc.want, tc.set)
			}
		})
	}
}

func TestParseBool(t *testing.T) {
	for in, want := range map[string][2]bool{
		"yes": {true, true}, "Off": {false, true}, "": {false, true}, "2k": {true, true},
		"0m": {false, true}, "maybe": {false, false}, "1kk": {false, false},
	} {
		if on, ok := ParseBool(in); on != want[0] || ok != want[1] {
			t.Errorf("ParseBool(%q) = %v %v, want %v", in, on, ok, want)
		}
	}
}
