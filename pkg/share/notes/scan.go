package notes

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/git-convo/git-convo/pkg/share/trace"
)

// rawFields sets vals[i] to the raw value of keys[i] in the JSON object b
// (the last one, if repeated; "" when absent: a value is never empty),
// skipping every other value without decoding it: a read command wants a
// note's metadata, while most of its bytes are the files' line ranges and
// hashes. False when b is not an object. Values are checked for balance,
// not validated: the caller decodes the ones it keeps. It works on the
// string git's output gives, and builds nothing: log calls it three times
// per commit.
func rawFields(b string, vals []string, keys ...string) bool {
	clear(vals)
	return eachField(b, func(key, val string) bool {
		for i, k := range keys {
			if key == k {
				vals[i] = val
			}
		}
		return true
	})
}

// eachField calls fn with each key (raw, between its quotes) and raw
// value of the JSON object b, in order, until fn returns false; false when
// b is not an object or fn stopped.
func eachField(b string, fn func(key, val string) bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) {
		if b[i] != '"' {
			return false
		}
		end := skipString(b, i)
		if end < 0 {
			return false
		}
		key := b[i+1 : end-1]
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		vend := skipValue(b, i)
		if vend < 0 || !fn(key, b[i:vend]) {
			return false
		}
		i = skipSpace(b, vend)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case '}':
			return true
		case ',':
			i = skipSpace(b, i+1)
		default:
			return false
		}
	}
	return false
}

func skipSpace(b string, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// skipString returns the index after the string starting at b[i] ('"'),
// -1 when it does not end. It jumps from quote to quote (IndexByte), and a
// quote after an odd run of backslashes is escaped.
func skipString(b string, i int) int {
	j := i + 1
	for {
		k := strings.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		n := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return j + 1
		}
		j++
	}
}

// skipValue returns the index after the value starting at b[i], -1 when it
// is cut short or unbalanced.
func skipValue(b string, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		// The closers still owed; notes nest a few levels, so this stays
		// on the stack.
		stack := make([]byte, 0, 32)
		for i < len(b) {
			switch c := b[i]; c {
			case '"':
				if i = skipString(b, i); i < 0 {
					return -1
				}
				continue
			case '{', '[':
				stack = append(stack, c+2) // '}' and ']' are 2 past their openers
			case '}', ']':
				if len(stack) == 0 || stack[len(stack)-1] != c {
					return -1
				}
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	default: // a number, true, false or null
		j := i
		for j < len(b) && !isSpace(b[j]) && b[j] != ',' && b[j] != '}' && b[j] != ']' {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
}

// scanMeta decodes git-convo's metadata (format and conversations, as
// metaForLinks leaves it) as json.Unmarshal into trace.Meta does, without
// reflection, for the shapes git-convo writes: strings, numbers,
// objects. ok is false for anything else (an escaped key, a null, a field
// it does not know, a number json would refuse for an int), which the
// caller then hands to json.Unmarshal. What it takes is valid JSON: it
// checks each value it keeps as json would (numbers by jsonNumber, strings
// by plainString or json), so a caller need not run json.Valid first.
func scanMeta(raw string) (m trace.Meta, ok bool) {
	ok = eachField(raw, func(key, val string) bool {
		return scanMetaField(&m, key, val)
	})
	return m, ok
}

// scanMetaField is scanMeta for one of its fields, key and raw value.
func scanMetaField(m *trace.Meta, key, val string) bool {
	switch key {
	case "format":
		n, err := strconv.Atoi(val)
		m.Format = n
		return err == nil && jsonNumber(val)
	case "conversations":
		if val[0] != '{' {
			return false
		}
		if m.Conversations == nil { // a repeated key adds to the map, as json does
			m.Conversations = map[string]trace.ConvMeta{}
		}
		return eachField(val, func(id, conv string) bool {
			c, ok := scanConvMeta(conv)
			if !ok || !plainBody(id) {
				return false
			}
			m.Conversations[id] = c
			return true
		})
	}
	return false
}

// scanConvMeta decodes one conversation of scanMeta. Its strings share
// b's memory rather than copy it.
func scanConvMeta(b string) (c trace.ConvMeta, ok bool) {
	if b[0] != '{' {
		return c, false
	}
	ok = eachField(b, func(key, val string) bool {
		var s *string
		switch key {
		case "agent":
			s = &c.Agent
		case "model":
			s = &c.Model
		case "title":
			s = &c.Title
		case "summary":
			s = &c.Summary
		case "status":
			s = &c.Status
		case "reason":
			s = &c.Reason
		case "first_prompt":
			s = &c.FirstPrompt
		case "started_at":
			s = &c.StartedAt
		case "last_active_at":
			s = &c.LastActiveAt
		case "derived":
			s = &c.Derived
		case "shared_by":
			s = &c.SharedBy
		case "confidence":
			f, err := strconv.ParseFloat(val, 64) // null fails too
			c.Confidence = f
			return err == nil && jsonNumber(val)
		case "written_lines", "added_lines":
			n, err := strconv.Atoi(val)
			if key[0] == 'w' {
				c.WrittenLines = n
			} else {
				c.AddedLines = n
			}
			return err == nil && jsonNumber(val)
		case "matched_files":
			if files, ok := plainStrings(val); ok {
				c.MatchedFiles = files
				return true
			}
			return val[0] == '[' && json.Unmarshal([]byte(val), &c.MatchedFiles) == nil
		default:
			return false
		}
		// A string with escapes is decoded as json decodes it (a null
		// or another type goes the long way).
		return plainString(val, s) || val[0] == '"' && json.Unmarshal([]byte(val), s) == nil
	})
	return c, ok
}

// metaOf is git-convo's metadata raw decoded as trace.Record.Meta does
// (the zero Meta where that fails), by scanMeta where it can.
func metaOf(raw string) trace.Meta {
	b := []byte(raw)
	if !json.Valid(b) {
		return trace.Meta{}
	}
	if m, ok := scanMeta(raw); ok {
		return m
	}
	var m trace.Meta
	if json.Unmarshal(b, &m) != nil {
		return trace.Meta{}
	}
	return m
}

// plainStrings is the JSON array v of strings that need no decoding (as
// plainString), sharing v's memory; ok is false for any other value.
// json.Unmarshal took more than half of a usual note's decoding for the
// one array a conversation has (matched_files).
func plainStrings(v string) (out []string, ok bool) {
	i := skipSpace(v, 0)
	if i >= len(v) || v[i] != '[' {
		return nil, false
	}
	out = []string{} // json's answer for []
	i = skipSpace(v, i+1)
	if i < len(v) && v[i] == ']' {
		return out, skipSpace(v, i+1) == len(v)
	}
	for i < len(v) && v[i] == '"' {
		end := skipString(v, i)
		var s string
		if end < 0 || !plainString(v[i:end], &s) {
			return nil, false
		}
		out = append(out, s)
		i = skipSpace(v, end)
		if i >= len(v) {
			return nil, false
		}
		switch v[i] {
		case ']':
			return out, skipSpace(v, i+1) == len(v)
		case ',':
			i = skipSpace(v, i+1)
		default:
			return nil, false
		}
	}
	return nil, false
}

// plainString sets *s to the JSON string v when it needs no decoding: no
// escape, no control character, valid UTF-8.
func plainString(v string, s *string) bool {
	if len(v) < 2 || v[0] != '"' {
		return false
	}
	body := v[1 : len(v)-1]
	if !plainBody(body) {
		return false
	}
	*s = body
	return true
}

// plainBody reports whether body, between a JSON string's quotes, needs
// no decoding and is valid: no escape, no control character, valid UTF-8.
func plainBody(body string) bool {
	for i := 0; i < len(body); i++ {
		if c := body[i]; c < 0x20 || c == '\\' {
			return false
		}
	}
	return utf8.ValidString(body)
}

// jsonNumber reports whether v is a number as JSON writes it (strconv
// also takes "+1", "01", ".5", "inf" and hex floats; json refuses them).
func jsonNumber(v string) bool {
	i := 0
	if i < len(v) && v[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(v) && v[i] >= '0' && v[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(v) && v[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(v) && v[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(v) && (v[i] == 'e' || v[i] == 'E') {
		i++
		if i < len(v) && (v[i] == '+' || v[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(v)
}
