// Package gitconfig reads git's configuration files in process, as git
// parses them, and answers the questions git-convo asks of them (booleans,
// colors, the pager). It imports nothing of git-convo.
package gitconfig

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
)

// Settings is git's configuration: the files a git command reads, parsed
// as git parses them, or `git config --list -z` (ParseZ). Which files, in
// which order, is the caller's (gitx.LoadSettings); anything the parser
// does not take exactly (include, includeIf, a malformed line) is
// ErrNeedsGit.
type Settings struct {
	values map[string][]string // keys as git prints them: section and name lower-cased
}

// NormalizeKey lower-cases a key's section and name, not its subsection.
func NormalizeKey(k string) string {
	first := strings.IndexByte(k, '.')
	last := strings.LastIndexByte(k, '.')
	if first < 0 {
		return strings.ToLower(k)
	}
	return strings.ToLower(k[:first]) + k[first:last] + strings.ToLower(k[last:])
}

// ErrNeedsGit: the file holds what only git reads exactly (an include, a
// line this parser does not take): the caller asks git.
const ErrNeedsGit = constError("config needs git")

// constError is an error that can be a constant.
type constError string

func (e constError) Error() string { return string(e) }

// New returns an empty configuration, to add files to (ReadFile).
func New() *Settings { return &Settings{values: map[string][]string{}} }

// Raw is every key's values as read, in order ("\x00" for a key without a
// value), keys as git prints them: for tests that hold it to git's.
func (s *Settings) Raw() map[string][]string { return s.values }

// ParseZ reads `git config --list -z` records: "key\nvalue\x00", or
// "key\x00" for a key without a value.
func ParseZ(out []byte) *Settings {
	s := New()
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		k, v, hasValue := bytes.Cut(rec, []byte{'\n'})
		val := string(v)
		if !hasValue {
			val = "\x00" // a key without a value: boolean true, but "" as a string
		}
		s.values[string(k)] = append(s.values[string(k)], val)
	}
	return s
}

// Add appends a value to key k (normalized: NormalizeKey).
func (s *Settings) Add(k, v string) { s.values[k] = append(s.values[k], v) }

// ReadFile parses one config file (a missing file is no error).
func (s *Settings) ReadFile(path string) error {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) || errors.Is(err, os.ErrPermission) {
		return nil
	}
	if err != nil {
		return err
	}
	return s.Parse(data)
}

// Parse reads git's config syntax. Anything it does not handle exactly (an
// include, a malformed line) hands over to git.
func (s *Settings) Parse(data []byte) error {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	r := bufio.NewReader(bytes.NewReader(data))
	section := ""
	for {
		line, err := readLogicalLine(r)
		if err == ErrNeedsGit {
			return err
		}
		if line == "" && err != nil {
			return nil
		}
		t := strings.TrimLeft(line, " \t")
		if t == "" || t[0] == '#' || t[0] == ';' {
			continue
		}
		if t[0] == '[' {
			sec, rest, err := parseSectionHeader(t)
			if err != nil {
				return err
			}
			section = sec
			t = strings.TrimLeft(rest, " \t")
			if t == "" || t[0] == '#' || t[0] == ';' {
				continue
			}
		}
		if section == "" {
			return ErrNeedsGit
		}
		name, value, hasValue, err := parseVariable(t)
		if err != nil {
			return err
		}
		key := section + "." + strings.ToLower(name)
		if strings.HasPrefix(key, "include.") || strings.HasPrefix(key, "includeif.") {
			return ErrNeedsGit
		}
		if !hasValue {
			value = "\x00"
		}
		s.Add(key, value)
	}
}

// readLogicalLine joins lines ending in a backslash outside quotes (git
// drops the backslash and newline). In a comment a backslash ends nothing
// (git's comment runs to the newline): a line ending in one that holds a
// comment character is ErrNeedsGit, git's to read.
func readLogicalLine(r *bufio.Reader) (string, error) {
	var b strings.Builder
	for {
		line, err := r.ReadString('\n')
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if strings.HasSuffix(line, "\\") && strings.ContainsAny(line, "#;") {
			return "", ErrNeedsGit
		}
		if strings.HasSuffix(line, "\\") && !strings.HasSuffix(line, "\\\\") {
			b.WriteString(line[:len(line)-1])
			if err != nil {
				return b.String(), err
			}
			continue
		}
		b.WriteString(line)
		return b.String(), err
	}
}

// parseSectionHeader reads `[section]`, `[section "sub"]` or `[section.sub]`.
func parseSectionHeader(t string) (key, rest string, err error) {
	end := strings.IndexByte(t, ']')
	if q := strings.IndexByte(t, '"'); q >= 0 && q < end {
		name := strings.TrimSpace(t[1:q])
		var sub strings.Builder
		i := q + 1
		for ; i < len(t) && t[i] != '"'; i++ {
			if t[i] == '\\' && i+1 < len(t) {
				i++
			}
			sub.WriteByte(t[i])
		}
		if i+1 >= len(t) || t[i+1] != ']' {
			return "", "", ErrNeedsGit
		}
		return strings.ToLower(name) + "." + sub.String(), t[i+2:], nil
	}
	if end < 0 {
		return "", "", ErrNeedsGit
	}
	name := strings.TrimSpace(t[1:end])
	if first := strings.IndexByte(name, '.'); first >= 0 {
		// Deprecated [section.sub]: the subsection is lower-cased too.
		return strings.ToLower(name), t[end+1:], nil
	}
	return strings.ToLower(name), t[end+1:], nil
}

// parseVariable reads `name = value` with git's quoting and escapes, or a
// bare `name` (no value).
func parseVariable(t string) (name, value string, hasValue bool, err error) {
	i := 0
	for i < len(t) && (isAlnum(t[i]) || t[i] == '-') {
		i++
	}
	name = t[:i]
	if name == "" || !isAlpha(name[0]) {
		return "", "", false, ErrNeedsGit
	}
	rest := strings.TrimLeft(t[i:], " \t")
	if rest == "" || rest[0] == '#' || rest[0] == ';' {
		return name, "", false, nil
	}
	if rest[0] != '=' {
		return "", "", false, ErrNeedsGit
	}
	rest = strings.TrimLeft(rest[1:], " \t")
	var b strings.Builder
	quoted := false
	pending := "" // whitespace kept only if more value follows
	for j := 0; j < len(rest); j++ {
		c := rest[j]
		switch {
		case !quoted && (c == '#' || c == ';'):
			return name, b.String(), true, nil
		case !quoted && (c == ' ' || c == '\t'):
			pending += string(c)
			continue
		case c == '"':
			quoted = !quoted
		case c == '\\':
			j++
			if j >= len(rest) {
				return "", "", false, ErrNeedsGit
			}
			b.WriteString(pending)
			pending = ""
			switch rest[j] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			case '"', '\\':
				b.WriteByte(rest[j])
			default:
				return "", "", false, ErrNeedsGit
			}
			continue
		default:
			b.WriteString(pending)
			pending = ""
			b.WriteByte(c)
			continue
		}
		b.WriteString(pending)
		pending = ""
	}
	if quoted {
		return "", "", false, ErrNeedsGit
	}
	return name, b.String(), true, nil
}

func isAlpha(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isAlnum(c byte) bool { return isAlpha(c) || (c >= '0' && c <= '9') }

// Get is a key's last value, as `git config --get` prints it; ok is false
// when unset.
func (s *Settings) Get(key string) (string, bool) {
	v := s.values[NormalizeKey(key)]
	if len(v) == 0 {
		return "", false
	}
	return strings.TrimPrefix(v[len(v)-1], "\x00"), true
}

// Bool reads a boolean as git does; ok is false when unset or not a boolean.
func (s *Settings) Bool(key string) (on, ok bool) {
	v := s.values[NormalizeKey(key)]
	if len(v) == 0 {
		return false, false
	}
	if v[len(v)-1] == "\x00" { // a bare key
		return true, true
	}
	return ParseBool(v[len(v)-1])
}

// ParseBool reads a boolean as git does: true, yes, on; false, no, off
// and the empty string; any integer, with a k, m or g unit or none
// (non-zero is true). ok is false for anything else.
func ParseBool(s string) (value, ok bool) {
	switch strings.ToLower(s) {
	case "true", "yes", "on":
		return true, true
	case "false", "no", "off", "":
		return false, true
	}
	if n := strings.TrimRight(s, "kKmMgG"); len(s)-len(n) <= 1 {
		if i, err := strconv.ParseInt(n, 10, 64); err == nil {
			return i != 0, true
		}
	}
	return false, false
}

// Prefixed returns the keys starting with prefix (lower-case section, as
// "convo."), each with its last value; a key without a value is "true".
func (s *Settings) Prefixed(prefix string) map[string]string {
	out := map[string]string{}
	for k, v := range s.values {
		if strings.HasPrefix(k, prefix) && len(v) > 0 {
			val := v[len(v)-1]
			if val == "\x00" {
				val = "true"
			}
			out[k] = val
		}
	}
	return out
}

// ColorBool answers as `git config --get-colorbool <name> <stdoutIsTTY>`:
// name, else color.ui, else auto; auto is on for a terminal that is not
// dumb. ok is false for a value git would reject.
func (s *Settings) ColorBool(name string, stdoutIsTTY bool, getenv func(string) string) (on, ok bool) {
	v, set := s.Get(name)
	if !set {
		v, set = s.Get("color.ui")
	}
	raw := s.values[NormalizeKey(name)]
	if len(raw) == 0 {
		raw = s.values["color.ui"]
	}
	switch {
	case !set:
		v = "auto"
	case len(raw) > 0 && raw[len(raw)-1] == "\x00":
		v = "true"
	}
	switch strings.ToLower(v) {
	case "always":
		return true, true
	case "never":
		return false, true
	case "auto":
	default:
		b, ok := ParseBool(v)
		if !ok {
			return false, false
		}
		if !b {
			return false, true
		}
		// true means auto since git 1.8.4.
	}
	return stdoutIsTTY && !TerminalDumb(getenv), true
}

// TerminalDumb is git's is_terminal_dumb: TERM unset (or empty) or "dumb".
func TerminalDumb(getenv func(string) string) bool {
	t := getenv("TERM")
	return t == "" || t == "dumb"
}

// Pager is `git var GIT_PAGER`: GIT_PAGER, core.pager, PAGER, then less,
// the first one set; lookup reads the environment (os.LookupEnv). ""
// (one set empty) and "cat" mean no pager, as in git (pager.c).
func (s *Settings) Pager(lookup func(string) (string, bool)) string {
	if p, ok := lookup("GIT_PAGER"); ok {
		return p
	}
	if p, ok := s.Get("core.pager"); ok {
		return p
	}
	if p, ok := lookup("PAGER"); ok {
		return p
	}
	return "less"
}
