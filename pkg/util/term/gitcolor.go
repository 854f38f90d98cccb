package term

import (
	"fmt"
	"strconv"
	"strings"
)

// GitReset ends a color as git writes it.
const GitReset = "\x1b[m"

// gitColorNames are git's color names, in ANSI order (color.c).
var gitColorNames = []string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}

// gitColorAttrs are git's attributes and their SGR codes; "no"/"no-"
// before one turns it off.
var gitColorAttrs = map[string][2]int{
	"bold": {1, 22}, "dim": {2, 22}, "italic": {3, 23}, "ul": {4, 24}, "blink": {5, 25}, "reverse": {7, 27}, "strike": {9, 29},
}

// ParseGitColor turns a git color value ("bold red", "ul #ff0000 blue",
// "208", "reset", "normal") into the escape sequence git writes for it,
// byte for byte: attributes in ascending code order, then foreground,
// then background (color.c: color_parse_mem). An empty value is no color.
func ParseGitColor(value string) (string, error) {
	var codes []string
	var fg, bg string
	nColors := 0
	var attrs [30]bool
	reset := false
	for _, w := range strings.Fields(value) {
		lw := strings.ToLower(w)
		if lw == "reset" {
			reset = true
			continue
		}
		if c, ok := parseGitColorWord(lw); ok {
			switch nColors {
			case 0:
				fg = c.sgr(false)
			case 1:
				bg = c.sgr(true)
			default:
				return "", fmt.Errorf("bad color %q: more than two colors", value)
			}
			nColors++
			continue
		}
		// Attributes, unlike colors, are lower case only (color.c).
		name, off := w, false
		if n, ok := strings.CutPrefix(w, "no"); ok {
			name, off = strings.TrimPrefix(n, "-"), true
		}
		a, ok := gitColorAttrs[name]
		if !ok {
			return "", fmt.Errorf("bad color %q", value)
		}
		if off {
			attrs[a[1]] = true
		} else {
			attrs[a[0]] = true
		}
	}
	if reset {
		codes = append(codes, "")
	}
	for code, on := range attrs {
		if on {
			codes = append(codes, strconv.Itoa(code))
		}
	}
	for _, c := range []string{fg, bg} {
		if c != "" {
			codes = append(codes, c)
		}
	}
	if len(codes) == 0 {
		return "", nil
	}
	return "\x1b[" + strings.Join(codes, ";") + "m", nil
}

// gitColor is one parsed color word.
type gitColor struct {
	kind    int // 0 normal (no color), 1 ANSI, 2 256-color, 3 RGB, 4 default
	n       int // ANSI index (bright: +60) or 256-color number
	r, g, b int
}

func (c gitColor) sgr(bg bool) string {
	base := 30
	if bg {
		base = 40
	}
	switch c.kind {
	case 1:
		return strconv.Itoa(base + c.n)
	case 2:
		return fmt.Sprintf("%d;5;%d", base+8, c.n)
	case 3:
		return fmt.Sprintf("%d;2;%d;%d;%d", base+8, c.r, c.g, c.b)
	case 4:
		return strconv.Itoa(base + 9)
	}
	return ""
}

// parseGitColorWord reads a color word as git does: a name, "bright" and
// a name, a number (-1 is normal, 0-7 ANSI, 8-255 the 256 colors) or
// #rrggbb.
func parseGitColorWord(w string) (gitColor, bool) {
	switch w {
	case "normal":
		return gitColor{}, true
	case "default":
		return gitColor{kind: 4}, true
	}
	name, bright := strings.CutPrefix(w, "bright")
	for i, n := range gitColorNames {
		if name == n {
			if bright {
				i += 60
			}
			return gitColor{kind: 1, n: i}, true
		}
	}
	if hex, ok := strings.CutPrefix(w, "#"); ok && len(hex) == 6 {
		v, err := strconv.ParseUint(hex, 16, 32)
		if err != nil {
			return gitColor{}, false
		}
		return gitColor{kind: 3, r: int(v >> 16), g: int(v >> 8 & 0xff), b: int(v & 0xff)}, true
	}
	n, err := strconv.Atoi(w)
	switch {
	case err != nil || n < -1 || n > 255:
		return gitColor{}, false
	case n == -1:
		return gitColor{}, true
	case n < 8:
		return gitColor{kind: 1, n: n}, true
	case n < 16: // git writes 8-15 as the bright ANSI colors, 90-97
		return gitColor{kind: 1, n: n - 8 + 60}, true
	}
	return gitColor{kind: 2, n: n}, true
}
