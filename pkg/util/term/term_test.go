package term

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestColorDecision(t *testing.T) {
	gitOn := func(bool) (bool, bool) { return true, true }
	gitOff := func(bool) (bool, bool) { return false, true }
	gitFails := func(bool) (bool, bool) { return false, false }
	tests := []struct {
		name    string
		mode    string
		noColor string
		tty     bool
		git     func(bool) (bool, bool)
		want    bool
	}{
		{"always beats NO_COLOR", "always", "1", false, gitOff, true},
		{"never beats git", "never", "", true, gitOn, false},
		{"NO_COLOR beats git", "auto", "1", true, gitOn, false},
		{"git says on", "auto", "", false, gitOn, true},
		{"git says off", "auto", "", true, gitOff, false},
		{"git cannot answer: tty", "auto", "", true, gitFails, true},
		{"git cannot answer: pipe", "auto", "", false, gitFails, false},
		{"no git: pipe", "auto", "", false, nil, false},
	}
	for _, tt := range tests {
		if got := ColorDecision(tt.mode, tt.noColor, tt.tty, tt.git); got != tt.want {
			t.Errorf("%s: got %v", tt.name, got)
		}
	}
}

func TestPaletteOnlyWhenColored(t *testing.T) {
	var out bytes.Buffer
	io := New(nil, &out, &out, true, true, func(string) string { return "" })
	io.SetColor("never", true, nil)
	if got := io.Palette().Hash("abc"); got != "abc" {
		t.Errorf("uncolored hash = %q", got)
	}
	io.SetColor("always", true, nil)
	if got := io.Palette().Hash("abc"); !strings.Contains(got, "\x1b[33m") {
		t.Errorf("colored hash = %q", got)
	}
	p := io.Palette()
	first := p.Key("conv-1", "x")
	if again := p.Key("conv-1", "x"); again != first || !strings.Contains(first, "\x1b[") {
		t.Errorf("a key's color is not stable or missing: %q %q", first, again)
	}
}

func TestRelativeTime(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for d, want := range map[time.Duration]string{
		5 * time.Second:      "5 seconds ago",
		time.Second:          "1 second ago",
		10 * time.Minute:     "10 minutes ago",
		3 * time.Hour:        "3 hours ago",
		3 * 24 * time.Hour:   "3 days ago",
		21 * 24 * time.Hour:  "3 weeks ago",
		200 * 24 * time.Hour: "7 months ago",
		800 * 24 * time.Hour: "2 years ago",
		-time.Hour:           "in the future",
	} {
		if got := RelativeTime(now.Add(-d), now); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
}

func TestPager(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "paged")
	envFile := filepath.Join(dir, "env")
	var out bytes.Buffer
	env := map[string]string{}
	io := New(nil, &out, &out, true, true, func(k string) string { return env[k] })
	if err := io.StartPager("cat > '" + got + "'; env > '" + envFile + "'"); err != nil {
		t.Fatal(err)
	}
	io.Out.Write([]byte("hello pager\n"))
	if err := io.StopPager(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(got); string(b) != "hello pager\n" {
		t.Errorf("pager got %q", b)
	}
	e, _ := os.ReadFile(envFile)
	for _, want := range []string{"LESS=FRX", "LV=-c", "GIT_PAGER_IN_USE=true"} {
		if !strings.Contains(string(e), want) {
			t.Errorf("pager env lacks %s", want)
		}
	}
	// No pager when not a terminal, or when one already runs.
	for _, tc := range []struct {
		tty bool
		env map[string]string
	}{{false, nil}, {true, map[string]string{"GIT_PAGER_IN_USE": "1"}}} {
		var o bytes.Buffer
		io := New(nil, &o, &o, tc.tty, tc.tty, func(k string) string { return tc.env[k] })
		io.StartPager("false")
		io.Out.Write([]byte("direct"))
		io.StopPager()
		if o.String() != "direct" {
			t.Errorf("tty=%v env=%v: a pager ran", tc.tty, tc.env)
		}
	}
}

func TestPagerQuitEarly(t *testing.T) {
	var out bytes.Buffer
	io := New(nil, &out, &out, true, true, func(string) string { return "" })
	if err := io.StartPager("true"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	var err error
	for range 1000 {
		if _, err = io.Out.Write(bytes.Repeat([]byte("x"), 4096)); err != nil {
			break
		}
	}
	if serr := io.StopPager(); serr != nil {
		t.Errorf("StopPager after an early quit: %v", serr)
	}
	if err == nil || !IsBrokenPipe(err) {
		t.Errorf("write after the pager quit: %v, want a broken pipe", err)
	}
	if IsBrokenPipe(errors.New("other")) || !IsBrokenPipe(syscall.EPIPE) {
		t.Error("IsBrokenPipe")
	}
}

func TestWriteJSON(t *testing.T) {
	var out bytes.Buffer
	io := New(nil, &out, &out, false, false, nil)
	io.WriteJSON(map[string]string{"a": "<b>"})
	io.WriteJSON([]int{1})
	io.Flush()
	if out.String() != "{\"a\":\"<b>\"}\n[1]\n" {
		t.Errorf("JSON Lines = %q", out.String())
	}
}

// TestParseGitColorAsGit: every color value gives the bytes git's own
// parser gives (git config --get-color), and the values git refuses are
// refused.
func TestParseGitColorAsGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, v := range []string{"yellow", "bold red", "ul #ff0080 blue", "208", "brightgreen", "brightred brightblue",
		"reset", "reset bold", "nobold", "no-ul dim", "normal", "normal red", "-1 blue", "default", "black default",
		"italic strike reverse blink", "", "Bold RED", "bold dim bold", "7", "255 0", "#ABCDEF",
		"red green blue", "bogus", "300", "#12345", "nobogus", "8", "9 12", "15", "16"} {
		cmd := exec.Command("git", "config", "--get-color", "", v)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		want, gitErr := cmd.Output()
		got, err := ParseGitColor(v)
		if (err != nil) != (gitErr != nil) {
			t.Errorf("%q: error %v, git's %v", v, err, gitErr)
		} else if err == nil && got != string(want) {
			t.Errorf("%q: %q, git writes %q", v, got, want)
		}
	}
}

// TestDimToAsDim: DimTo writes what Dim of the pieces put together is,
// colored or not.
func TestDimToAsDim(t *testing.T) {
	for _, on := range []bool{false, true} {
		p := newPalette(on)
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		p.DimTo(w, "(", "Dev 3", ", ", "8 hours ago", ")")
		w.Flush()
		if want := p.Dim("(Dev 3, 8 hours ago)"); b.String() != want {
			t.Errorf("on %v: %q, want %q", on, b.String(), want)
		}
		if on && b.String() == "(Dev 3, 8 hours ago)" {
			t.Errorf("on: not colored")
		}
	}
}
