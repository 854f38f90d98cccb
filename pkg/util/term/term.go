// Package term is the terminal side of git-convo's output: streams, whether
// they are terminals, color, the pager and JSON Lines (after GitHub CLI's
// iostreams).
package term

import (
	"bufio"
	"encoding/json"
	"errors"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fatih/color"
)

// IO is one command's streams and terminal settings. Out is buffered (a
// long log would otherwise cost a write system call per line): call Flush
// when a batch is complete, and StopPager (which flushes) at the end.
type IO struct {
	In     io.Reader
	Out    *bufio.Writer
	ErrOut io.Writer

	stdoutTTY, stderrTTY bool
	getenv               func(string) string
	colorOn              bool
	palette              *Palette

	dest     io.Writer // where Out's bytes go when no pager runs
	pagerCmd *exec.Cmd
	pagerIn  io.WriteCloser
}

// New wraps streams; the TTY flags say whether stdout and stderr are terminals.
func New(in io.Reader, out, errOut io.Writer, stdoutTTY, stderrTTY bool, getenv func(string) string) *IO {
	if getenv == nil {
		getenv = os.Getenv
	}
	t := &IO{In: in, Out: bufio.NewWriterSize(out, 32<<10), dest: out, ErrOut: errOut, stdoutTTY: stdoutTTY, stderrTTY: stderrTTY, getenv: getenv}
	t.palette = newPalette(false)
	return t
}

// StdoutTTY reports whether stdout is a terminal.
func (t *IO) StdoutTTY() bool { return t.stdoutTTY }

// StderrTTY reports whether stderr is a terminal.
func (t *IO) StderrTTY() bool { return t.stderrTTY }

// ColorDecision decides whether to color: --color=always|never wins, then
// NO_COLOR, then git's answer for color.convo (falling back to color.ui),
// then auto (stdout is a terminal). gitColor may be nil; ok=false means git
// could not answer.
func ColorDecision(mode string, noColor string, stdoutTTY bool, gitColor func(stdoutTTY bool) (on, ok bool)) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if noColor != "" {
		return false
	}
	if gitColor != nil {
		if on, ok := gitColor(stdoutTTY); ok {
			return on
		}
	}
	return stdoutTTY
}

// SetColor applies ColorDecision to this IO; terminal is what "auto"
// takes for a terminal (git's: stdout is one and no pager of ours will
// hide it when color.pager is false, or git's pager runs with color.pager).
func (t *IO) SetColor(mode string, terminal bool, gitColor func(stdoutTTY bool) (on, ok bool)) {
	t.colorOn = ColorDecision(mode, t.getenv("NO_COLOR"), terminal, gitColor)
	old := t.palette
	t.palette = newPalette(t.colorOn)
	t.palette.commit, t.palette.decorate = old.commit, old.decorate
}

// SetGitColors takes the colors git uses for what git-convo prints of
// git's: hashes (color.diff.commit, yellow) and decorations
// (color.decorate.<slot>). get reads a setting (value, whether set); a
// value git would refuse keeps git's default.
func (t *IO) SetGitColors(get func(key string) (string, bool)) {
	p := t.palette
	p.commit = gitColorSetting(get, "color.diff.commit", defaultCommitColor)
	p.decorate = map[string]string{}
	for slot, def := range defaultDecorateColors {
		p.decorate[slot] = gitColorSetting(get, "color.decorate."+slot, def)
	}
}

func gitColorSetting(get func(string) (string, bool), key, def string) string {
	if v, set := get(key); set {
		if esc, err := ParseGitColor(v); err == nil {
			return esc
		}
	}
	return def
}

// defaultDecorateColors are git's decoration colors (log-tree.c).
var defaultDecorateColors = map[string]string{
	"branch": "\x1b[1;32m", "remoteBranch": "\x1b[1;31m", "tag": "\x1b[1;33m",
	"stash": "\x1b[1;35m", "HEAD": "\x1b[1;36m", "grafted": "\x1b[1;34m",
}

// PagerInUse reports git's pager running on our stdout (GIT_PAGER_IN_USE,
// set by `git -p` or pager.<cmd>, or by git-convo's own pager): git then
// colors and decorates as for a terminal.
func PagerInUse(getenv func(string) string) bool {
	switch strings.ToLower(getenv("GIT_PAGER_IN_USE")) {
	case "", "0", "false", "no", "off":
		return false
	}
	return true
}

// ColorEnabled reports the color decision.
func (t *IO) ColorEnabled() bool { return t.colorOn }

// Palette returns the colors for this output (no-ops when color is off).
func (t *IO) Palette() *Palette { return t.palette }

// WriteJSON writes v as one compact line (JSON Lines), without HTML escaping,
// with the characters a terminal acts on escaped (JSON).
func (t *IO) WriteJSON(v any) error {
	enc := json.NewEncoder(JSONWriter(t.Out))
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// StartPager pipes Out into the pager command (from `git var GIT_PAGER`),
// run through sh with LESS=FRX and LV=-c unless set, when stdout is a
// terminal and no pager is already running (GIT_PAGER_IN_USE).
func (t *IO) StartPager(pager string) error {
	if !t.stdoutTTY || PagerInUse(t.getenv) || pager == "" || pager == "cat" || t.pagerCmd != nil {
		return nil
	}
	cmd := exec.Command("sh", "-c", pager)
	env := os.Environ()
	// As git, only where unset: LESS set empty stays empty.
	for _, kv := range []string{"LESS=FRX", "LV=-c"} {
		if !hasVar(env, kv[:strings.IndexByte(kv, '=')+1]) {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "GIT_PAGER_IN_USE=true")
	if err := t.Out.Flush(); err != nil {
		return err
	}
	cmd.Stdout = t.dest
	cmd.Stderr = t.ErrOut
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	t.Out, t.pagerCmd, t.pagerIn = bufio.NewWriterSize(in, 32<<10), cmd, in
	return nil
}

// Flush writes out what Out holds.
func (t *IO) Flush() error { return t.Out.Flush() }

// StopPager flushes Out and, when a pager runs, closes its input and waits
// for the user to quit it. Call it at the end of every command that wrote.
func (t *IO) StopPager() error {
	err := t.Out.Flush()
	if t.pagerCmd == nil {
		return err
	}
	_ = t.pagerIn.Close()
	_ = t.pagerCmd.Wait()
	t.Out, t.pagerCmd, t.pagerIn = bufio.NewWriterSize(t.dest, 32<<10), nil, nil
	if IsBrokenPipe(err) {
		return nil // the user quit the pager early
	}
	return err
}

// IsBrokenPipe reports a write to a pager (or a pipe) the reader closed:
// the user quit the pager early, which is not an error.
func IsBrokenPipe(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed)
}

// Palette holds the few colors git-convo uses, bound to one color decision.
type Palette struct {
	on               bool
	commit           string            // the escape for hashes (color.diff.commit)
	decorate         map[string]string // decoration slot: its escape (color.decorate.*)
	bold, dim, green *color.Color
	keyed            []*color.Color
}

func newPalette(on bool) *Palette {
	mk := func(attrs ...color.Attribute) *color.Color {
		c := color.New(attrs...)
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c
	}
	p := &Palette{on: on, commit: defaultCommitColor, bold: mk(color.Bold), dim: mk(color.Faint), green: mk(color.FgGreen)}
	for _, a := range []color.Attribute{color.FgCyan, color.FgMagenta, color.FgGreen, color.FgBlue,
		color.FgHiYellow, color.FgHiCyan, color.FgHiMagenta, color.FgHiGreen} {
		p.keyed = append(p.keyed, mk(a))
	}
	return p
}

// defaultCommitColor is git's color.diff.commit default, yellow.
const defaultCommitColor = "\x1b[33m"

// Hash colors a commit hash as git does (color.diff.commit, yellow by
// default), with git's own bytes.
// GitColored is p with git's parts (Hash, Decoration) colored as on says:
// git's own decision (color.diff) for what git-convo prints of git's.
func (p *Palette) GitColored(on bool) *Palette {
	q := *p
	q.on = on
	return &q
}

func (p *Palette) Hash(s string) string {
	if !p.on {
		return s
	}
	// git writes the reset even for a color set to "normal".
	return p.commit + s + GitReset
}

// Decoration colors a decoration as git does its slot (HEAD, branch,
// remoteBranch, tag, stash, grafted).
func (p *Palette) Decoration(slot, s string) string {
	if !p.on {
		return s
	}
	esc, ok := p.decorate[slot]
	if !ok {
		esc = defaultDecorateColors[slot]
	}
	return esc + s + GitReset
}

// Bold makes s bold.
func (p *Palette) Bold(s string) string {
	if !p.on {
		return s
	}
	return p.bold.Sprint(s)
}

// Dim makes s faint.
func (p *Palette) Dim(s string) string {
	if !p.on {
		return s
	}
	return p.dim.Sprint(s)
}

// DimTo writes the concatenation of parts to w as Dim would color it:
// without color, piece by piece, put together in no string of its own.
func (p *Palette) DimTo(w *bufio.Writer, parts ...string) {
	if !p.on {
		for _, s := range parts {
			w.WriteString(s)
		}
		return
	}
	w.WriteString(p.dim.Sprint(strings.Join(parts, "")))
}

// Key colors s with the color that key (a conversation id) always gets.
func (p *Palette) Key(key, s string) string {
	if !p.on {
		return s
	}
	h := fnv.New32a()
	h.Write([]byte(key))
	return p.keyed[int(h.Sum32()%uint32(len(p.keyed)))].Sprint(s)
}

// RelativeTime says how long before now t was, like git's --date=relative.
func RelativeTime(t, now time.Time) string {
	d := now.Sub(t)
	if d < 0 {
		return "in the future"
	}
	return Duration(d) + " ago"
}

// Duration says how long d is as git's --date=relative does ("5 minutes",
// "1 hour", "3 days"), in the one wording every message to a person uses.
func Duration(d time.Duration) string {
	unit := func(n int, name string) string {
		if n == 1 {
			return "1 " + name
		}
		return strconv.Itoa(n) + " " + name + "s"
	}
	switch {
	case d < 90*time.Second:
		return unit(int(d.Seconds()), "second")
	case d < 90*time.Minute:
		return unit(int(d.Minutes()+0.5), "minute")
	case d < 36*time.Hour:
		return unit(int(d.Hours()+0.5), "hour")
	case d < 14*24*time.Hour:
		return unit(int(d.Hours()/24+0.5), "day")
	case d < 10*7*24*time.Hour:
		return unit(int(d.Hours()/24/7+0.5), "week")
	case d < 365*24*time.Hour:
		return unit(int(d.Hours()/24/30+0.5), "month")
	default:
		return unit(int(d.Hours()/24/365+0.5), "year")
	}
}

// hasVar says whether env holds the variable (prefix "NAME=").
func hasVar(env []string, prefix string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, prefix) {
			return true
		}
	}
	return false
}
