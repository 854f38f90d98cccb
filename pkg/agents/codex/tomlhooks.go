package codex

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/git-convo/git-convo/pkg/util/regfile"
)

// Codex also reads hooks from a [hooks] table in config.toml, in the shape
// of hooks.json:
//
//	[[hooks.PostToolUse]]
//	matcher = "..."
//	[[hooks.PostToolUse.hooks]]
//	type = "command"
//	command = "git-convo capture --agent codex"
//
// git-convo writes hooks.json only; doctor reads config.toml to know the
// hooks a user wrote there. What follows is not a TOML parser: a read-only
// scan for the command strings at hooks.<Event>.hooks[].command, through
// table headers, dotted keys, inline tables and arrays, whatever else the
// file holds. Anything it cannot read ends the scan with what it found.

// maxConfigTOML bounds the config.toml doctor reads.
const maxConfigTOML = 1 << 20

// tomlHookCommands are the hook commands of a config.toml file, by event;
// nil when it cannot be read.
func tomlHookCommands(path string) map[string][]string {
	b, err := regfile.Read(path, maxConfigTOML)
	if err != nil {
		return nil
	}
	return scanHookCommands(string(b))
}

// scanHookCommands finds the hook commands in a config.toml's text.
func scanHookCommands(text string) map[string][]string {
	s := &tomlScan{src: text, out: map[string][]string{}}
	s.document()
	return s.out
}

type tomlScan struct {
	src string
	i   int
	out map[string][]string
}

// found records a string value at path when it is a hook's command.
func (s *tomlScan) found(path []string, v string) {
	if len(path) == 4 && path[0] == "hooks" && path[2] == "hooks" && path[3] == "command" && path[1] != "" {
		s.out[path[1]] = append(s.out[path[1]], v)
	}
}

// document reads table headers and key/value lines to the end, or to what
// it cannot read.
func (s *tomlScan) document() {
	var table []string
	for {
		s.space(true)
		if s.i >= len(s.src) {
			return
		}
		switch s.src[s.i] {
		case '[':
			s.i++
			array := s.i < len(s.src) && s.src[s.i] == '['
			if array {
				s.i++
			}
			key, ok := s.key()
			if !ok || !s.eat(']') || (array && !s.eat(']')) {
				return
			}
			table = key
		default:
			if !s.keyValue(table) {
				return
			}
		}
		s.space(false)
		if s.i < len(s.src) && s.src[s.i] != '\n' && s.src[s.i] != '\r' {
			return // something after a value on its line
		}
	}
}

// keyValue reads `key = value` under path.
func (s *tomlScan) keyValue(path []string) bool {
	key, ok := s.key()
	if !ok || !s.eat('=') {
		return false
	}
	return s.value(append(append([]string(nil), path...), key...))
}

// key reads a dotted key: bare, "basic" or 'literal' parts.
func (s *tomlScan) key() ([]string, bool) {
	var parts []string
	for {
		s.space(false)
		if s.i >= len(s.src) {
			return nil, false
		}
		switch c := s.src[s.i]; {
		case c == '"' || c == '\'':
			v, ok := s.str()
			if !ok {
				return nil, false
			}
			parts = append(parts, v)
		default:
			start := s.i
			for s.i < len(s.src) && isBare(s.src[s.i]) {
				s.i++
			}
			if s.i == start {
				return nil, false
			}
			parts = append(parts, s.src[start:s.i])
		}
		s.space(false)
		if !s.eat('.') {
			return parts, true
		}
	}
}

func isBare(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// value reads one value at path: a string (a command, maybe), an inline
// table, an array, or a scalar skipped.
func (s *tomlScan) value(path []string) bool {
	s.space(false)
	if s.i >= len(s.src) {
		return false
	}
	switch s.src[s.i] {
	case '"', '\'':
		v, ok := s.str()
		if ok {
			s.found(path, v)
		}
		return ok
	case '{':
		s.i++
		return s.list('}', func() bool { return s.keyValue(path) })
	case '[':
		s.i++
		return s.list(']', func() bool { return s.value(path) })
	}
	// A number, boolean or date: up to what ends a value.
	start := s.i
	for s.i < len(s.src) && !strings.ContainsRune(",]}#\r\n", rune(s.src[s.i])) {
		s.i++
	}
	return s.i > start
}

// list reads the items of an inline table or array, separated by commas,
// to its closing bracket.
func (s *tomlScan) list(end byte, item func() bool) bool {
	for {
		s.space(true)
		if s.eat(end) {
			return true
		}
		if !item() {
			return false
		}
		s.space(true)
		if !s.eat(',') {
			s.space(true)
			return s.eat(end)
		}
	}
}

// str reads a basic, literal or multi-line string.
func (s *tomlScan) str() (string, bool) {
	q := s.src[s.i]
	delim := string(q)
	if strings.HasPrefix(s.src[s.i:], strings.Repeat(delim, 3)) {
		delim = strings.Repeat(delim, 3)
	}
	s.i += len(delim)
	if len(delim) == 3 && s.i < len(s.src) && s.src[s.i] == '\n' {
		s.i++ // a newline right after the opening delimiter is not content
	}
	var b strings.Builder
	for s.i < len(s.src) {
		if strings.HasPrefix(s.src[s.i:], delim) {
			s.i += len(delim)
			return b.String(), true
		}
		c := s.src[s.i]
		if c == '\n' && len(delim) == 1 {
			return "", false
		}
		if c != '\\' || q == '\'' {
			b.WriteByte(c)
			s.i++
			continue
		}
		if s.i+1 >= len(s.src) {
			return "", false
		}
		e := s.src[s.i+1]
		s.i += 2
		switch e {
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case 'e':
			b.WriteByte(0x1b)
		case '"', '\\':
			b.WriteByte(e)
		case 'u', 'U', 'x':
			n := map[byte]int{'u': 4, 'U': 8, 'x': 2}[e]
			if s.i+n > len(s.src) {
				return "", false
			}
			r, err := strconv.ParseUint(s.src[s.i:s.i+n], 16, 32)
			if err != nil || !utf8.ValidRune(rune(r)) {
				return "", false
			}
			b.WriteRune(rune(r))
			s.i += n
		default:
			// A line-ending backslash in a multi-line string: the line
			// break and the white space after it go.
			if len(delim) == 3 && (e == ' ' || e == '\t' || e == '\n' || e == '\r') {
				s.i--
				for s.i < len(s.src) && strings.ContainsRune(" \t\r\n", rune(s.src[s.i])) {
					s.i++
				}
				continue
			}
			return "", false
		}
	}
	return "", false
}

// space skips blanks and comments; newlines too when lines is set.
func (s *tomlScan) space(lines bool) {
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case ' ', '\t':
			s.i++
		case '\r', '\n':
			if !lines {
				return
			}
			s.i++
		case '#':
			for s.i < len(s.src) && s.src[s.i] != '\n' {
				s.i++
			}
		default:
			return
		}
	}
}

// eat consumes c when it is next.
func (s *tomlScan) eat(c byte) bool {
	if s.i < len(s.src) && s.src[s.i] == c {
		s.i++
		return true
	}
	return false
}
