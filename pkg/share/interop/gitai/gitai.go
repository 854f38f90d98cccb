// Package gitai reads and writes git-ai's authorship logs: one note per
// commit on refs/notes/ai, schema authorship/3.0.0 (the Git AI Standard
// v3.0.0, git-ai-project/git-ai specs/git_ai_standard_v3.0.0.md).
//
// A log is another tool's claim, written by anyone who can push: Parse
// takes it whole or not at all. A log that breaks the format or the bounds
// below is refused with an error (the caller skips the note and counts it
// where doctor shows it), never half read.
package gitai

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Ref is where git-ai keeps its authorship logs.
const Ref = "refs/notes/ai"

// SchemaVersion is the only schema this reader takes (the spec: a 3.0.0
// implementation should not process earlier versions).
const SchemaVersion = "authorship/3.0.0"

// Bounds on one note (docs/interop.md): a real log holds tens of entries.
const (
	MaxNoteBytes = 4 << 20   // a larger note is refused unread
	MaxEntries   = 20_000    // attestation lines (key and ranges)
	MaxRanges    = 100_000   // ranges over all entries
	MaxLine      = 1_000_000 // a line number past it is refused
	maxString    = 1024      // a metadata string (tool, id, model, author)
)

// Log is one authorship log.
type Log struct {
	Files []File   // the attestation section, in the note's order
	Meta  Metadata // the JSON metadata section
}

// File is one file's attestations. Path is relative to the repository.
type File struct {
	Path    string
	Entries []Entry
}

// Entry is one attestation line: who (Key) wrote which lines (Ranges, at
// the log's commit, 1-based and inclusive).
type Entry struct {
	Key    string
	Ranges []Range
}

// Range is a run of lines, Start to End inclusive.
type Range struct{ Start, End int }

// Metadata is the JSON section. Unknown fields are dropped on read.
type Metadata struct {
	SchemaVersion string             `json:"schema_version"`
	GitAIVersion  string             `json:"git_ai_version,omitempty"`
	BaseCommitSHA string             `json:"base_commit_sha"`
	Prompts       map[string]Prompt  `json:"prompts"`
	Sessions      map[string]Session `json:"sessions,omitempty"`
	Humans        map[string]Human   `json:"humans,omitempty"`
}

// AgentID names the agent and its conversation in the tool's own terms.
type AgentID struct {
	Tool  string `json:"tool"`
	ID    string `json:"id"`
	Model string `json:"model"`
}

// Session is an AI session (s_ keys).
type Session struct {
	AgentID     AgentID `json:"agent_id"`
	HumanAuthor string  `json:"human_author,omitempty"`
}

// Prompt is a legacy AI session (bare 16-hex keys, before git-ai 1.4.0).
type Prompt struct {
	AgentID        AgentID `json:"agent_id"`
	HumanAuthor    string  `json:"human_author,omitempty"`
	MessagesURL    string  `json:"messages_url,omitempty"`
	TotalAdditions int     `json:"total_additions"`
	TotalDeletions int     `json:"total_deletions"`
	AcceptedLines  int     `json:"accepted_lines"`
	OverridenLines int     `json:"overriden_lines"` // sic: the spec's erratum E-001
}

// Human is a person git-ai saw typing (h_ keys).
type Human struct {
	Author string `json:"author"`
}

// KeyKind says which metadata map an attestation key resolves in.
type KeyKind int

// The three key forms of §1.2.3.1.
const (
	KeyInvalid KeyKind = iota
	KeySession         // s_<14 hex>::t_<14 hex>
	KeyHuman           // h_<14 hex>
	KeyLegacy          // <16 hex> (or 7, before git-ai 1.0)
)

// Kind returns the form of an attestation key.
func Kind(key string) KeyKind {
	switch {
	case strings.HasPrefix(key, "s_"):
		s, t, ok := strings.Cut(key, "::")
		if ok && hexID(s, "s_") && hexID(t, "t_") {
			return KeySession
		}
	case strings.HasPrefix(key, "h_"):
		if hexID(key, "h_") {
			return KeyHuman
		}
	case (len(key) == 16 || len(key) == 7) && isHex(key):
		return KeyLegacy
	}
	return KeyInvalid
}

// hexID: prefix then hex. The spec says 14 digits and that the length may
// change, so any length from 8 to 64 is taken.
func hexID(s, prefix string) bool {
	h, ok := strings.CutPrefix(s, prefix)
	return ok && len(h) >= 8 && len(h) <= 64 && isHex(h)
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return s != ""
}

// SessionID is the session part of a key (s_… of s_…::t_…; the key itself
// for the other forms).
func SessionID(key string) string {
	s, _, _ := strings.Cut(key, "::")
	return s
}

// SessionKey is the session id git-ai gives an agent's conversation:
// "s_" and the first 14 hex digits of SHA-256("<tool>:<id>").
func SessionKey(tool, id string) string { return "s_" + sum(tool + ":" + id)[:14] }

// TraceID is a trace id derived from seed: git-ai draws its own at
// random per checkpoint; a writer that has none derives a stable one, so
// writing the same attribution twice writes the same log.
func TraceID(seed string) string { return "t_" + sum(seed)[:14] }

// HumanKey is the key git-ai gives a person ("Name <email>").
func HumanKey(author string) string { return "h_" + sum(author)[:14] }

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// ErrNotALog is wrapped by every error of Parse.
var ErrNotALog = errors.New("not a git-ai authorship log")

func bad(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrNotALog, fmt.Sprintf(format, a...))
}

// Parse reads one note. Its time is linear in the note's size.
func Parse(b []byte) (Log, error) {
	if len(b) > MaxNoteBytes {
		return Log{}, bad("%d bytes, over %d", len(b), MaxNoteBytes)
	}
	return ParseString(string(b))
}

// ParseString is Parse of a note held as a string (git log's %N): the
// log's paths, keys and strings are substrings of it.
func ParseString(src string) (Log, error) {
	if len(src) > MaxNoteBytes {
		return Log{}, bad("%d bytes, over %d", len(src), MaxNoteBytes)
	}
	if !utf8.ValidString(src) {
		return Log{}, bad("not UTF-8")
	}
	var l Log
	entries, ranges := 0, 0
	var at map[string]int // path -> index in l.Files, once there are many (a path listed twice is merged)
	rest := src
	divider := false
	for lineNo := 1; len(rest) > 0; lineNo++ {
		var s string
		s, rest, _ = strings.Cut(rest, "\n")
		s = strings.TrimSuffix(s, "\r")
		switch {
		case s == "---":
			divider = true
		case s == "":
			continue
		case strings.HasPrefix(s, "  "):
			if len(l.Files) == 0 {
				return Log{}, bad("line %d: an attestation before any file", lineNo)
			}
			if entries++; entries > MaxEntries {
				return Log{}, bad("over %d attestation lines", MaxEntries)
			}
			e, err := parseEntry(s[2:])
			if err != nil {
				return Log{}, bad("line %d: %v", lineNo, err)
			}
			if ranges += len(e.Ranges); ranges > MaxRanges {
				return Log{}, bad("over %d line ranges", MaxRanges)
			}
			f := &l.Files[len(l.Files)-1]
			f.Entries = append(f.Entries, e)
		case s[0] == ' ' || s[0] == '\t':
			return Log{}, bad("line %d: indented by other than two spaces", lineNo)
		default:
			p, err := parsePath(s)
			if err != nil {
				return Log{}, bad("line %d: %v", lineNo, err)
			}
			if at == nil && len(l.Files) >= filesByScan {
				at = make(map[string]int, 2*len(l.Files))
				for j, f := range l.Files {
					at[f.Path] = j
				}
			}
			if i, ok := fileIndex(l.Files, at, p); ok {
				// Move the earlier entries to the end: new entries go there.
				f := l.Files[i]
				l.Files = append(append(l.Files[:i:i], l.Files[i+1:]...), f)
				for j := i; at != nil && j < len(l.Files); j++ {
					at[l.Files[j].Path] = j
				}
				continue
			}
			if at != nil {
				at[p] = len(l.Files)
			}
			l.Files = append(l.Files, File{Path: p})
		}
		if divider {
			break
		}
	}
	if !divider {
		return Log{}, bad("no --- line")
	}
	if err := decodeMeta(rest, &l.Meta); err != nil {
		return Log{}, err
	}
	return l, l.check()
}

// filesByScan is how many files a log lists before a path listed twice
// is looked up in a map rather than by reading the list.
const filesByScan = 16

// fileIndex is where path is in files (at: the index, once built).
func fileIndex(files []File, at map[string]int, path string) (int, bool) {
	if at != nil {
		i, ok := at[path]
		return i, ok
	}
	for i := range files {
		if files[i].Path == path {
			return i, true
		}
	}
	return 0, false
}

// decodeMeta reads exactly one JSON object: by hand where it can
// (scanMeta), else with encoding/json.
func decodeMeta(src string, m *Metadata) error {
	if !scanMeta(src, m) {
		*m = Metadata{}
		if err := decodeMetaJSON([]byte(src), m); err != nil {
			return err
		}
	}
	if m.SchemaVersion != SchemaVersion {
		return bad("schema_version %q, not %s", clip(m.SchemaVersion), SchemaVersion)
	}
	if m.Prompts == nil {
		return bad("metadata: prompts is missing")
	}
	return nil
}

// decodeMetaJSON is encoding/json's reading of the metadata: one JSON
// value, into m, and nothing after it.
func decodeMetaJSON(b []byte, m *Metadata) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(m); err != nil {
		return bad("metadata: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return bad("metadata: more than one JSON value")
	}
	return nil
}

// check resolves every key in its map (the spec: a key must correspond to
// an entry) and refuses strings that could drive a terminal or carry a
// file's worth of text.
func (l Log) check() error {
	for _, f := range l.Files {
		for _, e := range f.Entries {
			var ok bool
			switch Kind(e.Key) {
			case KeySession:
				_, ok = l.Meta.Sessions[SessionID(e.Key)]
			case KeyHuman:
				_, ok = l.Meta.Humans[e.Key]
			case KeyLegacy:
				_, ok = l.Meta.Prompts[e.Key]
			}
			if !ok {
				return bad("%s: key %q has no record", clip(f.Path), clip(e.Key))
			}
		}
	}
	if err := plainStrings(l.Meta.GitAIVersion, l.Meta.BaseCommitSHA); err != nil {
		return err
	}
	for _, s := range l.Meta.Sessions {
		if err := plainStrings(s.AgentID.Tool, s.AgentID.ID, s.AgentID.Model, s.HumanAuthor); err != nil {
			return err
		}
	}
	for _, p := range l.Meta.Prompts {
		if err := plainStrings(p.AgentID.Tool, p.AgentID.ID, p.AgentID.Model, p.HumanAuthor, p.MessagesURL); err != nil {
			return err
		}
	}
	for _, h := range l.Meta.Humans {
		if err := plainString(h.Author); err != nil {
			return err
		}
	}
	return nil
}

func plainStrings(ss ...string) error {
	for _, s := range ss {
		if err := plainString(s); err != nil {
			return err
		}
	}
	return nil
}

// plainString refuses a metadata string with a control or invisible
// formatting character (an escape sequence in a model name) or too long.
func plainString(s string) error {
	if len(s) > maxString {
		return bad("a metadata string of %d bytes", len(s))
	}
	i := 0
	for i < len(s) && 0x20 <= s[i] && s[i] < 0x7f { // printable ASCII: neither control nor format
		i++
	}
	for _, r := range s[i:] {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return bad("a metadata string holds control character %U", r)
		}
	}
	return nil
}

// parsePath reads a file path line: bare, or in double quotes when it holds
// whitespace. A path that could leave the repository is refused.
func parsePath(s string) (string, error) {
	p := s
	if strings.HasPrefix(s, `"`) {
		if len(s) < 2 || !strings.HasSuffix(s, `"`) || strings.Contains(s[1:len(s)-1], `"`) {
			return "", fmt.Errorf("path %q: unbalanced quotes", clip(s))
		}
		p = s[1 : len(s)-1]
	}
	if err := CheckPath(p); err != nil {
		return "", err
	}
	return p, nil
}

// CheckPath refuses a path that is not a plain path inside the repository:
// empty, absolute, with a .. segment, a backslash, or a control character.
func CheckPath(p string) error {
	switch {
	case p == "":
		return errors.New("empty path")
	case len(p) > 4096:
		return fmt.Errorf("path of %d bytes", len(p))
	case strings.HasPrefix(p, "/") || strings.ContainsRune(p, '\\') || len(p) > 1 && p[1] == ':':
		return fmt.Errorf("path %q is not relative to the repository", clip(p))
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." || seg == "." || seg == "" {
			return fmt.Errorf("path %q leaves or repeats a directory", clip(p))
		}
	}
	for _, r := range p {
		if unicode.IsControl(r) && r != '\t' || unicode.Is(unicode.Cf, r) {
			return fmt.Errorf("path %q holds control character %U", clip(p), r)
		}
	}
	return nil
}

// parseEntry reads "<key> <ranges>".
func parseEntry(s string) (Entry, error) {
	key, spec, ok := strings.Cut(s, " ")
	if !ok {
		return Entry{}, errors.New("an attestation without ranges")
	}
	if Kind(key) == KeyInvalid {
		return Entry{}, fmt.Errorf("key %q is none of s_…::t_…, h_…, 16 hex", clip(key))
	}
	rs, err := ParseRanges(spec)
	if err != nil {
		return Entry{}, err
	}
	return Entry{Key: key, Ranges: rs}, nil
}

// ParseRanges reads "1-4,9-10,12": 1-based, inclusive, no spaces.
func ParseRanges(spec string) ([]Range, error) {
	if spec == "" {
		return nil, errors.New("empty ranges")
	}
	n := strings.Count(spec, ",") + 1
	if n > MaxRanges {
		return nil, fmt.Errorf("over %d ranges", MaxRanges)
	}
	out := make([]Range, 0, n)
	for part := range strings.SplitSeq(spec, ",") {
		a, b, isRange := strings.Cut(part, "-")
		start, err := lineNumber(a)
		if err != nil {
			return nil, err
		}
		end := start
		if isRange {
			if end, err = lineNumber(b); err != nil {
				return nil, err
			}
		}
		if end < start {
			return nil, fmt.Errorf("range %d-%d runs backwards", start, end)
		}
		out = append(out, Range{start, end})
	}
	return out, nil
}

func lineNumber(s string) (int, error) {
	if s == "" || len(s) > 7 || s[0] == '+' {
		return 0, fmt.Errorf("line number %q", clip(s))
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > MaxLine {
		return 0, fmt.Errorf("line number %q", clip(s))
	}
	return n, nil
}

// clip shortens outside text quoted in an error (%q escapes the rest).
func clip(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// CheckLines refuses a log whose ranges run past the end of their file
// (lines says how many lines a path has at the log's commit; false: the
// commit has no such file). The caller knows the files; Parse does not.
func (l Log) CheckLines(lines func(path string) (int, bool)) error {
	for _, f := range l.Files {
		n, ok := lines(f.Path)
		if !ok {
			return bad("%q is not in the commit", clip(f.Path))
		}
		for _, e := range f.Entries {
			if maxEnd(e.Ranges) > n {
				return bad("%q: line %d past the file's %d lines", clip(f.Path), maxEnd(e.Ranges), n)
			}
		}
	}
	return nil
}

func maxEnd(rs []Range) int {
	m := 0
	for _, r := range rs {
		m = max(m, r.End)
	}
	return m
}

// Author is who an attestation key names, resolved in the metadata.
type Author struct {
	Kind    KeyKind
	Key     string // the attestation key
	Session string // s_… or the legacy key: one per agent conversation
	Agent   AgentID
	Human   string // h_ keys: the person; AI keys: who directed the session
}

// IsAI reports whether the lines are an agent's (sessions and legacy prompts).
func (a Author) IsAI() bool { return a.Kind == KeySession || a.Kind == KeyLegacy }

// Resolve returns who key names (ok false for a key with no record).
func (l Log) Resolve(key string) (Author, bool) {
	a := Author{Kind: Kind(key), Key: key, Session: SessionID(key)}
	switch a.Kind {
	case KeySession:
		s, ok := l.Meta.Sessions[a.Session]
		a.Agent, a.Human = s.AgentID, s.HumanAuthor
		return a, ok
	case KeyLegacy:
		p, ok := l.Meta.Prompts[key]
		a.Agent, a.Human = p.AgentID, p.HumanAuthor
		return a, ok
	case KeyHuman:
		h, ok := l.Meta.Humans[key]
		a.Human = h.Author
		return a, ok
	}
	return a, false
}

// Lines returns, for one file, who wrote each attested line. Where two
// entries claim a line (which git-ai does not write), the later one wins.
func (l Log) Lines(path string) map[int]Author {
	var out map[int]Author
	for _, f := range l.Files {
		if f.Path != path {
			continue
		}
		out = map[int]Author{}
		for _, e := range f.Entries {
			a, _ := l.Resolve(e.Key)
			for _, r := range e.Ranges {
				for n := r.Start; n <= r.End; n++ {
					out[n] = a
				}
			}
		}
	}
	return out
}

// FormatRanges writes ranges as the spec does: sorted, merged, "1-4,9".
func FormatRanges(rs []Range) string {
	rs = append([]Range(nil), rs...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Start < rs[j].Start })
	var merged []Range
	for _, r := range rs {
		if k := len(merged) - 1; k >= 0 && r.Start <= merged[k].End+1 {
			merged[k].End = max(merged[k].End, r.End)
			continue
		}
		merged = append(merged, r)
	}
	var b strings.Builder
	for i, r := range merged {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(r.Start))
		if r.End != r.Start {
			b.WriteString("-" + strconv.Itoa(r.End))
		}
	}
	return b.String()
}

// Encode writes l as git-ai does: the attestations (a path quoted when it
// holds whitespace), ---, then the metadata as indented JSON.
func Encode(l Log) ([]byte, error) {
	var b bytes.Buffer
	for _, f := range l.Files {
		if strings.ContainsAny(f.Path, "\"\n\r") {
			return nil, fmt.Errorf("path %q cannot be written in an authorship log", f.Path)
		}
		if strings.ContainsAny(f.Path, " \t") {
			b.WriteString(`"` + f.Path + `"` + "\n")
		} else {
			b.WriteString(f.Path + "\n")
		}
		for _, e := range f.Entries {
			b.WriteString("  " + e.Key + " " + FormatRanges(e.Ranges) + "\n")
		}
	}
	b.WriteString("---\n")
	m := l.Meta
	if m.Prompts == nil {
		m.Prompts = map[string]Prompt{}
	}
	js, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	b.Write(js)
	b.WriteByte('\n')
	return b.Bytes(), nil
}
