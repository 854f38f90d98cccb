package gitx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The in-process reader sees what `git config --list -z` prints, for every
// syntax git accepts in a config file, in the global, repository and
// worktree files and GIT_CONFIG_COUNT.
func TestSettingsMatchGit(t *testing.T) {
	tests := []struct{ name, global, local string }{
		{"plain", "[color]\n\tui = auto\n[core]\n\tpager = less -R\n", "[convo]\n\twindow = 2h\n"},
		{"case and subsections", "[Color]\n\tUI = Always\n[branch \"Feature/X\"]\n\tRemote = origin\n[convo \"a b\"]\n\tx = 1\n", ""},
		{"bare key and empty value", "[convo]\n\tflag\n\tempty =\n\tspaced = \"  two  \"  \n", ""},
		{"quotes, escapes, comments", "[core]\n\tpager = \"less\" -R # comment\n\teditor = vi ; other\n\tx = a\\\"b\\\\c\\td\\n\n", ""},
		{"continuation", "[core]\n\tpager = less \\\n  -R\n", ""},
		{"repeated keys, last wins", "[color]\n\tui = never\n", "[color]\n\tui = always\n\tconvo = false\n"},
		{"old-style subsection", "[remote.Origin]\n\turl = x\n", ""},
		{"section and key on one line", "[color] ui = never\n", ""},
		{"crlf", "[color]\r\n\tui = never\r\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newTestRepo(t)
			global := filepath.Join(t.TempDir(), "global")
			os.WriteFile(global, []byte(tt.global), 0o644)
			t.Setenv("GIT_CONFIG_GLOBAL", global)
			if tt.local != "" {
				f, _ := os.OpenFile(filepath.Join(r.dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
				f.WriteString(tt.local)
				f.Close()
			}
			t.Setenv("GIT_CONFIG_COUNT", "1")
			t.Setenv("GIT_CONFIG_KEY_0", "Convo.FromEnv")
			t.Setenv("GIT_CONFIG_VALUE_0", "yes")
			sub := filepath.Join(r.dir, "sub")
			os.MkdirAll(sub, 0o755)
			mine, err := loadSettingsInProcess(sub, os.Getenv)
			if err != nil {
				t.Fatalf("in process: %v", err)
			}
			git, err := settingsFromGit(context.Background(), runner{dir: sub})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(mine.Raw(), git.Raw()) {
				t.Errorf("in process:\n%q\ngit:\n%q", mine.Raw(), git.Raw())
			}
		})
	}
}

// Includes and `git -c` go to git, which reads them exactly.
func TestSettingsHandOverToGit(t *testing.T) {
	r := newTestRepo(t)
	inc := filepath.Join(t.TempDir(), "inc")
	os.WriteFile(inc, []byte("[color]\n\tconvo = always\n"), 0o644)
	r.git("config", "include.path", inc)
	if _, err := loadSettingsInProcess(r.dir, os.Getenv); err == nil {
		t.Error("an include was read in process")
	}
	s, err := LoadSettings(context.Background(), r.dir, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Get("color.convo"); v != "always" {
		t.Errorf("color.convo through the include = %q", v)
	}
}

// ColorBool answers as `git config --get-colorbool`.
func TestSettingsColorBool(t *testing.T) {
	tests := []struct {
		config string
		tty    bool
		want   bool
	}{
		{"", true, true},
		{"", false, false},
		{"[color]\n\tui = always\n", false, true},
		{"[color]\n\tui = never\n", true, false},
		{"[color]\n\tui = true\n", false, false},
		{"[color]\n\tui = true\n", true, true},
		{"[color]\n\tui = false\n", true, false},
		{"[color]\n\tui = always\n\tconvo = never\n", true, false},
		{"[color]\n\tconvo\n", true, true},
		{"[color]\n\tui = 2\n", true, true}, // an integer is a boolean to git
		{"[color]\n\tui = 0\n", true, false},
	}
	for _, tt := range tests {
		r := newTestRepo(t)
		global := filepath.Join(t.TempDir(), "global")
		os.WriteFile(global, []byte(tt.config), 0o644)
		t.Setenv("GIT_CONFIG_GLOBAL", global)
		t.Setenv("TERM", "xterm")
		s, err := loadSettingsInProcess(r.dir, os.Getenv)
		if err != nil {
			t.Fatal(err)
		}
		on, ok := s.ColorBool("color.convo", tt.tty, os.Getenv)
		gitOn, gitOK := r.open().ColorBool(context.Background(), "color.convo", tt.tty)
		if on != tt.want || !ok || on != gitOn || !gitOK {
			t.Errorf("%q tty=%v: %v %v; git %v; want %v", tt.config, tt.tty, on, ok, gitOn, tt.want)
		}
	}
}

// Bool reads a boolean as `git config --type=bool` does.
func TestSettingsBoolMatchesGit(t *testing.T) {
	r := newTestRepo(t)
	values := []string{"yes", "On", "TRUE", "no", "off", "0", "1", "2", "-3", "2k", "0m", "1G", "", "maybe", "1kk", "k", "some value"}
	var b strings.Builder
	b.WriteString("[core]\n\trepositoryformatversion = 0\n[convo]\n\tbare\n")
	for i, v := range values {
		fmt.Fprintf(&b, "\tv%d = %s\n", i, v)
	}
	r.write(".git/config", b.String())
	s, err := loadSettingsInProcess(r.dir, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	repo := r.open()
	for i := -1; i < len(values); i++ {
		key, v := "convo.bare", "(bare)"
		if i >= 0 {
			key, v = fmt.Sprintf("convo.v%d", i), values[i]
		}
		on, ok := s.Bool(key)
		gitOn, gitSet, err := repo.ConfigBool(context.Background(), key)
		if ok != (err == nil && gitSet) || ok && on != gitOn {
			t.Errorf("%q: %v %v; git %v %v %v", v, on, ok, gitOn, gitSet, err)
		}
	}
}

// TestSettingsGitsAnswer: where git reads the configuration otherwise than
// the obvious way, the in-process reader reads it as git does or hands
// over to git; LoadSettings always has git's answer.
func TestSettingsGitsAnswer(t *testing.T) {
	for _, c := range []struct {
		name, global, system string
		env                  map[string]string // "" unsets
	}{
		{"comment ending in a backslash", "[core]\n# a comment \\\n\tpager = less\n", "", nil},
		{"inline comment ending in a backslash", "[core]\n\teditor = vi # see \\\n\tpager = less\n", "", nil},
		{"GIT_CONFIG_GLOBAL set empty", "", "", map[string]string{"GIT_CONFIG_GLOBAL": ""}},
		{"GIT_CONFIG_NOSYSTEM=0", "", "[core]\n\tpager = from-system\n", map[string]string{"GIT_CONFIG_NOSYSTEM": "0"}},
		{"GIT_CONFIG_NOSYSTEM=false", "", "[core]\n\tpager = from-system\n", map[string]string{"GIT_CONFIG_NOSYSTEM": "false"}},
		{"GIT_CONFIG_NOSYSTEM=1", "", "[core]\n\tpager = from-system\n", map[string]string{"GIT_CONFIG_NOSYSTEM": "1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newTestRepo(t)
			home := os.Getenv("HOME")
			os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n\tpager = from-home\n"), 0o644)
			if c.global != "" {
				global := filepath.Join(t.TempDir(), "global")
				os.WriteFile(global, []byte(c.global), 0o644)
				t.Setenv("GIT_CONFIG_GLOBAL", global)
			}
			if c.system != "" {
				system := filepath.Join(t.TempDir(), "system")
				os.WriteFile(system, []byte(c.system), 0o644)
				t.Setenv("GIT_CONFIG_SYSTEM", system)
			}
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			git, err := settingsFromGit(context.Background(), runner{dir: r.dir})
			if err != nil {
				t.Fatal(err)
			}
			if mine, err := loadSettingsInProcess(r.dir, os.Getenv); err == nil && !reflect.DeepEqual(mine.Raw(), git.Raw()) {
				t.Errorf("in process:\n%q\ngit:\n%q", mine.Raw(), git.Raw())
			}
			s, err := LoadSettings(context.Background(), r.dir, os.Getenv)
			if err != nil || !reflect.DeepEqual(s.Raw(), git.Raw()) {
				t.Errorf("LoadSettings: %v\n%q\ngit:\n%q", err, s.Raw(), git.Raw())
			}
		})
	}
}

// An unset TERM is a dumb terminal to git: no color on auto.
func TestSettingsColorBoolUnsetTerm(t *testing.T) {
	r := newTestRepo(t)
	for _, term := range []string{"", "dumb", "xterm"} {
		t.Setenv("TERM", term)
		if term == "" {
			os.Unsetenv("TERM")
		}
		s, err := loadSettingsInProcess(r.dir, os.Getenv)
		if err != nil {
			t.Fatal(err)
		}
		on, _ := s.ColorBool("color.diff", true, os.Getenv)
		gitOn, _ := r.open().ColorBool(context.Background(), "color.diff", true)
		if on != gitOn {
			t.Errorf("TERM=%q: %v, git %v", term, on, gitOn)
		}
	}
}
