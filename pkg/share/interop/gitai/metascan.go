package gitai

import (
	"strings"
	"unicode/utf8"
)

// scanMeta reads the metadata section as git-ai writes it, by hand: log
// reads a note per commit, and encoding/json's reflection was most of
// the cost of each. It answers only where its answer is encoding/json's
// (FuzzScanMeta holds the two together): ok is false for anything it
// does not take (an escape in a string it keeps, null, a duplicate or
// case-folded field name, a number that is not a plain integer where an
// integer goes, invalid JSON), and decodeMeta then asks encoding/json.
// Strings are substrings of src.
func scanMeta(src string, m *Metadata) (ok bool) {
	s := metaScanner{src: src}
	s.space()
	var seen uint16
	if !s.object(func(key string) bool { return s.metaField(key, m, &seen) }) {
		return false
	}
	s.space()
	return s.i == len(s.src)
}

type metaScanner struct {
	src   string
	i     int
	depth int // of the value being skipped
}

// maxSkipDepth bounds the nesting of a skipped value (encoding/json
// allows 10,000: deeper than this, it is asked).
const maxSkipDepth = 64

func (s *metaScanner) space() {
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *metaScanner) eat(c byte) bool {
	if s.i < len(s.src) && s.src[s.i] == c {
		s.i++
		return true
	}
	return false
}

// object reads {"key": value, ...}, calling field at each value.
func (s *metaScanner) object(field func(key string) bool) bool {
	if !s.eat('{') {
		return false
	}
	s.space()
	if s.eat('}') {
		return true
	}
	for {
		s.space()
		key, ok := s.plain()
		if !ok {
			return false
		}
		s.space()
		if !s.eat(':') {
			return false
		}
		s.space()
		if !field(key) {
			return false
		}
		s.space()
		if s.eat(',') {
			continue
		}
		return s.eat('}')
	}
}

// plain reads a string that decodes to its own bytes: no escape, no
// control character, valid UTF-8.
func (s *metaScanner) plain() (string, bool) {
	if !s.eat('"') {
		return "", false
	}
	start, ascii := s.i, true
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '"':
			v := s.src[start:s.i]
			s.i++
			return v, ascii || utf8.ValidString(v)
		case c == '\\' || c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
		s.i++
	}
	return "", false
}

// str reads a kept string field, set once.
func (s *metaScanner) str(seen *uint16, bit uint16, dst *string) bool {
	if *seen&bit != 0 {
		return false // a duplicate: encoding/json's last-wins is left to it
	}
	*seen |= bit
	v, ok := s.plain()
	*dst = v
	return ok
}

// integer reads a kept int field: -?(0|[1-9][0-9]*), at most 18 digits.
func (s *metaScanner) integer(seen *uint16, bit uint16, dst *int) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	neg := s.eat('-')
	start, n := s.i, 0
	for s.i < len(s.src) && '0' <= s.src[s.i] && s.src[s.i] <= '9' {
		n = n*10 + int(s.src[s.i]-'0')
		s.i++
	}
	digits := s.i - start
	if digits == 0 || digits > 18 || digits > 1 && s.src[start] == '0' {
		return false
	}
	if s.i < len(s.src) && (s.src[s.i] == '.' || s.src[s.i] == 'e' || s.src[s.i] == 'E') {
		return false // encoding/json refuses a fraction for an int
	}
	if neg {
		n = -n
	}
	*dst = n
	return true
}

// unknown skips the value of a field the struct does not have (names:
// the struct's fields). encoding/json matches field names without regard
// to case, so a key that could fold onto one is left to it.
func (s *metaScanner) unknown(key string, names ...string) bool {
	for i := 0; i < len(key); i++ {
		if key[i] >= utf8.RuneSelf {
			return false
		}
	}
	for _, n := range names {
		if strings.EqualFold(key, n) {
			return false
		}
	}
	return s.skip()
}

// metaField reads one field of the metadata object (seen: the string
// fields read so far; a map field read twice is refused by being set).
func (s *metaScanner) metaField(key string, m *Metadata, seen *uint16) bool {
	switch key {
	case "schema_version":
		return s.str(seen, 1, &m.SchemaVersion)
	case "git_ai_version":
		return s.str(seen, 2, &m.GitAIVersion)
	case "base_commit_sha":
		return s.str(seen, 4, &m.BaseCommitSHA)
	case "prompts":
		return m.Prompts == nil && entries(s, &m.Prompts, (*metaScanner).prompt)
	case "sessions":
		return m.Sessions == nil && entries(s, &m.Sessions, (*metaScanner).session)
	case "humans":
		return m.Humans == nil && entries(s, &m.Humans, (*metaScanner).human)
	}
	return s.unknown(key, "schema_version", "git_ai_version", "base_commit_sha", "prompts", "sessions", "humans")
}

// entries reads an object into a new map, each value by one.
func entries[T any](s *metaScanner, dst *map[string]T, one func(*metaScanner, *T) bool) bool {
	m := map[string]T{}
	*dst = m
	return s.object(func(k string) bool {
		if _, dup := m[k]; dup {
			return false
		}
		var v T
		ok := one(s, &v)
		m[k] = v
		return ok
	})
}

func (s *metaScanner) session(v *Session) bool {
	var seen uint16
	return s.object(func(f string) bool {
		switch f {
		case "agent_id":
			return s.agentID(&seen, &v.AgentID)
		case "human_author":
			return s.str(&seen, 2, &v.HumanAuthor)
		}
		return s.unknown(f, "agent_id", "human_author")
	})
}

func (s *metaScanner) prompt(v *Prompt) bool {
	var seen uint16
	return s.object(func(f string) bool {
		switch f {
		case "agent_id":
			return s.agentID(&seen, &v.AgentID)
		case "human_author":
			return s.str(&seen, 2, &v.HumanAuthor)
		case "messages_url":
			return s.str(&seen, 4, &v.MessagesURL)
		case "total_additions":
			return s.integer(&seen, 8, &v.TotalAdditions)
		case "total_deletions":
			return s.integer(&seen, 16, &v.TotalDeletions)
		case "accepted_lines":
			return s.integer(&seen, 32, &v.AcceptedLines)
		case "overriden_lines":
			return s.integer(&seen, 64, &v.OverridenLines)
		}
		return s.unknown(f, "agent_id", "human_author", "messages_url", "total_additions", "total_deletions",
			"accepted_lines", "overriden_lines")
	})
}

func (s *metaScanner) human(v *Human) bool {
	var seen uint16
	return s.object(func(f string) bool {
		if f == "author" {
			return s.str(&seen, 1, &v.Author)
		}
		return s.unknown(f, "author")
	})
}

// agentID reads agent_id (bit 1 of the caller's seen).
func (s *metaScanner) agentID(seen *uint16, v *AgentID) bool {
	if *seen&1 != 0 {
		return false
	}
	*seen |= 1
	var own uint16
	return s.object(func(f string) bool {
		switch f {
		case "tool":
			return s.str(&own, 1, &v.Tool)
		case "id":
			return s.str(&own, 2, &v.ID)
		case "model":
			return s.str(&own, 4, &v.Model)
		}
		return s.unknown(f, "tool", "id", "model")
	})
}

// skip reads any JSON value, checking it as encoding/json would.
func (s *metaScanner) skip() bool {
	if s.i >= len(s.src) {
		return false
	}
	switch c := s.src[s.i]; {
	case c == '{' || c == '[':
		if s.depth++; s.depth > maxSkipDepth {
			return false
		}
		defer func() { s.depth-- }()
		if c == '{' {
			return s.object(func(string) bool { return s.skip() })
		}
		s.i++
		s.space()
		if s.eat(']') {
			return true
		}
		for {
			s.space()
			if !s.skip() {
				return false
			}
			s.space()
			if s.eat(',') {
				continue
			}
			return s.eat(']')
		}
	case c == '"':
		return s.skipString()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	}
	return false
}

func (s *metaScanner) literal(w string) bool {
	if strings.HasPrefix(s.src[s.i:], w) {
		s.i += len(w)
		return true
	}
	return false
}

// skipString reads a string with any escapes JSON allows.
func (s *metaScanner) skipString() bool {
	s.i++ // the opening quote
	for s.i < len(s.src) {
		c := s.src[s.i]
		s.i++
		switch {
		case c == '"':
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if s.i >= len(s.src) {
				return false
			}
			e := s.src[s.i]
			s.i++
			switch e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if s.i+4 > len(s.src) || !isHex(s.src[s.i:s.i+4]) {
					return false
				}
				s.i += 4
			default:
				return false
			}
		}
	}
	return false
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *metaScanner) number() bool {
	s.eat('-')
	switch {
	case s.eat('0'):
	case s.digits() == 0:
		return false
	}
	if s.eat('.') && s.digits() == 0 {
		return false
	}
	if s.eat('e') || s.eat('E') {
		if !s.eat('+') {
			s.eat('-')
		}
		if s.digits() == 0 {
			return false
		}
	}
	return true
}

func (s *metaScanner) digits() int {
	start := s.i
	for s.i < len(s.src) && '0' <= s.src[s.i] && s.src[s.i] <= '9' {
		s.i++
	}
	return s.i - start
}
