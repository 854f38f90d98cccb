package gitx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Settings is git's configuration as a git command run in one directory
// would see it, read without a git process where that is exact: the
// system, global, repository and worktree files and GIT_CONFIG_COUNT
// variables. Files with include or includeIf, and `git -c`
// (GIT_CONFIG_PARAMETERS), are left to one `git config --list -z`.
type Settings struct {
	values map[string][]string // keys as git prints them: section and name lower-cased
}

// errConfigCLI: the in-process reader hands over to git.
const errConfigCLI = constError("config needs git")

// LoadSettings reads the configuration for dir. getenv is the environment
// git would see.
func LoadSettings(ctx context.Context, dir string, getenv func(string) string) (*Settings, error) {
	return loadSettings(ctx, runner{dir: dir}, getenv)
}

// LoadSettingsEnv is LoadSettings for git run with the environment environ
// (nil: the process's), which both the in-process reader and the git it
// falls back to see.
func LoadSettingsEnv(ctx context.Context, dir string, environ []string) (*Settings, error) {
	return loadSettings(ctx, runner{dir: dir, env: environ}, Getenv(environ))
}

func loadSettings(ctx context.Context, r runner, getenv func(string) string) (*Settings, error) {
	if s, err := loadSettingsInProcess(r.dir, getenv); err == nil {
		return s, nil
	}
	return settingsFromGit(ctx, r)
}

// settingsFromGit reads the configuration with one `git config --list -z`.
func settingsFromGit(ctx context.Context, r runner) (*Settings, error) {
	out, err := r.output(ctx, "config", "--list", "-z")
	if err != nil && !missingKey(err) {
		return nil, err
	}
	return parseConfigZ(out), nil
}

// parseConfigZ reads `git config -z` records: "key\nvalue\x00", or "key\x00"
// for a key without a value.
func parseConfigZ(out []byte) *Settings {
	s := &Settings{values: map[string][]string{}}
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

func loadSettingsInProcess(dir string, getenv func(string) string) (*Settings, error) {
	if getenv("GIT_CONFIG_PARAMETERS") != "" || getenv("GIT_CONFIG") != "" {
		return nil, errConfigCLI
	}
	s := &Settings{values: map[string][]string{}}
	var files []string
	// git reads GIT_CONFIG_NOSYSTEM as a boolean ("0": read the file); a
	// variable set empty (no file read) is told from an unset one only in
	// this process's environment: git's to read then.
	noSystem, valid := parseGitBool(getenv("GIT_CONFIG_NOSYSTEM"))
	if !valid || setEmpty(getenv, "GIT_CONFIG_GLOBAL") || setEmpty(getenv, "GIT_CONFIG_SYSTEM") {
		return nil, errConfigCLI
	}
	if !noSystem {
		if p := getenv("GIT_CONFIG_SYSTEM"); p != "" {
			files = append(files, p)
		} else {
			files = append(files, "/etc/gitconfig")
		}
	}
	if p, ok := lookupEnv(getenv, "GIT_CONFIG_GLOBAL"); ok {
		files = append(files, p)
	} else {
		xdg := getenv("XDG_CONFIG_HOME")
		home := getenv("HOME")
		if xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig"))
		}
	}
	for _, f := range files {
		if err := s.readFile(f); err != nil {
			return nil, err
		}
	}
	gitDir, commonDir, err := findGitDir(dir, getenv)
	if err != nil {
		return nil, err
	}
	if commonDir != "" {
		if err := s.readFile(filepath.Join(commonDir, "config")); err != nil {
			return nil, err
		}
		if on, _ := s.Bool("extensions.worktreeconfig"); on {
			if err := s.readFile(filepath.Join(gitDir, "config.worktree")); err != nil {
				return nil, err
			}
		}
	}
	if n := getenv("GIT_CONFIG_COUNT"); n != "" {
		count, err := strconv.Atoi(n)
		if err != nil {
			return nil, errConfigCLI
		}
		for i := range count {
			k := getenv("GIT_CONFIG_KEY_" + strconv.Itoa(i))
			if k == "" {
				return nil, errConfigCLI
			}
			s.add(normalizeKey(k), getenv("GIT_CONFIG_VALUE_"+strconv.Itoa(i)))
		}
	}
	return s, nil
}

// lookupEnv tells a variable set to "" from one not set, through getenv:
// os.LookupEnv where getenv is the process's.
func lookupEnv(getenv func(string) string, k string) (string, bool) {
	if v := getenv(k); v != "" {
		return v, true
	}
	return "", false
}

// setEmpty: k is set to "" in this process's environment, and getenv
// (which cannot tell "" from unset) agrees.
func setEmpty(getenv func(string) string, k string) bool {
	v, set := os.LookupEnv(k)
	return set && v == "" && getenv(k) == ""
}

// normalizeKey lower-cases a key's section and name, not its subsection.
func normalizeKey(k string) string {
	first := strings.IndexByte(k, '.')
	last := strings.LastIndexByte(k, '.')
	if first < 0 {
		return strings.ToLower(k)
	}
	return strings.ToLower(k[:first]) + k[first:last] + strings.ToLower(k[last:])
}

// findGitDir finds the repository of dir as git does, from files: GIT_DIR,
// else a .git directory or "gitdir:" file in dir or a parent. "" when none.
func findGitDir(dir string, getenv func(string) string) (gitDir, commonDir string, err error) {
	if g := getenv("GIT_DIR"); g != "" {
		if !filepath.IsAbs(g) {
			g = filepath.Join(dir, g)
		}
		gitDir = g
	} else {
		if getenv("GIT_CEILING_DIRECTORIES") != "" || getenv("GIT_DISCOVERY_ACROSS_FILESYSTEM") != "" {
			return "", "", errConfigCLI
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", "", err
		}
		for d := abs; ; d = filepath.Dir(d) {
			if g, ok := dotGit(d); ok {
				gitDir = g
				break
			}
			if _, err := os.Stat(filepath.Join(d, "HEAD")); err == nil && filepath.Base(d) == ".git" {
				gitDir = d // inside .git itself
				break
			}
			if filepath.Dir(d) == d {
				return "", "", nil
			}
		}
	}
	return gitDir, commonDirOf(gitDir), nil
}

// dotGit is d/.git as a directory or a "gitdir: <path>" file.
func dotGit(d string) (string, bool) {
	p := filepath.Join(d, ".git")
	fi, err := os.Stat(p)
	if err != nil {
		return "", false
	}
	if fi.IsDir() {
		return p, true
	}
	return readGitFile(p)
}

func (s *Settings) add(k, v string) { s.values[k] = append(s.values[k], v) }

// readFile parses one config file (a missing file is no error).
func (s *Settings) readFile(path string) error {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) || errors.Is(err, os.ErrPermission) {
		return nil
	}
	if err != nil {
		return err
	}
	return s.parse(data)
}

// parse reads git's config syntax. Anything it does not handle exactly (an
// include, a malformed line) hands over to git.
func (s *Settings) parse(data []byte) error {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	r := bufio.NewReader(bytes.NewReader(data))
	section := ""
	for {
		line, err := readLogicalLine(r)
		if err == errConfigCLI {
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
			return errConfigCLI
		}
		name, value, hasValue, err := parseVariable(t)
		if err != nil {
			return err
		}
		key := section + "." + strings.ToLower(name)
		if strings.HasPrefix(key, "include.") || strings.HasPrefix(key, "includeif.") {
			return errConfigCLI
		}
		if !hasValue {
			value = "\x00"
		}
		s.add(key, value)
	}
}

// readLogicalLine joins lines ending in a backslash outside quotes (git
// drops the backslash and newline). In a comment a backslash ends nothing
// (git's comment runs to the newline): a line ending in one that holds a
// comment character is errConfigCLI, git's to read.
func readLogicalLine(r *bufio.Reader) (string, error) {
	var b strings.Builder
	for {
		line, err := r.ReadString('\n')
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if strings.HasSuffix(line, "\\") && strings.ContainsAny(line, "#;") {
			return "", errConfigCLI
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
			return "", "", errConfigCLI
		}
		return strings.ToLower(name) + "." + sub.String(), t[i+2:], nil
	}
	if end < 0 {
		return "", "", errConfigCLI
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
		return "", "", false, errConfigCLI
	}
	rest := strings.TrimLeft(t[i:], " \t")
	if rest == "" || rest[0] == '#' || rest[0] == ';' {
		return name, "", false, nil
	}
	if rest[0] != '=' {
		return "", "", false, errConfigCLI
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
				return "", "", false, errConfigCLI
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
				return "", "", false, errConfigCLI
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
		return "", "", false, errConfigCLI
	}
	return name, b.String(), true, nil
}

func isAlpha(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isAlnum(c byte) bool { return isAlpha(c) || (c >= '0' && c <= '9') }

// Get is a key's last value, as `git config --get` prints it; ok is false
// when unset.
func (s *Settings) Get(key string) (string, bool) {
	v := s.values[normalizeKey(key)]
	if len(v) == 0 {
		return "", false
	}
	return strings.TrimPrefix(v[len(v)-1], "\x00"), true
}

// Bool reads a boolean as git does; ok is false when unset or not a boolean.
func (s *Settings) Bool(key string) (on, ok bool) {
	v := s.values[normalizeKey(key)]
	if len(v) == 0 {
		return false, false
	}
	if v[len(v)-1] == "\x00" { // a bare key
		return true, true
	}
	return parseGitBool(v[len(v)-1])
}

// parseGitBool reads a boolean as git does: true, yes, on; false, no, off
// and the empty string; any integer, with a k, m or g unit or none
// (non-zero is true). ok is false for anything else.
func parseGitBool(s string) (value, ok bool) {
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
	raw := s.values[normalizeKey(name)]
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
		b, ok := parseGitBool(v)
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
