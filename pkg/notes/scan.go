package notes

import "bytes"

// rawFields returns the raw values of keys in the JSON object b, skipping
// every other value without decoding it: a read command wants a note's
// metadata, while most of its bytes are the files' line ranges and hashes.
// ok is false when b is not an object. Values are checked for balance, not
// validated: the caller decodes the ones it keeps.
func rawFields(b []byte, keys ...string) (map[string][]byte, bool) {
	out := map[string][]byte{}
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return out, true
	}
	for i < len(b) {
		if b[i] != '"' {
			return nil, false
		}
		end := skipString(b, i)
		if end < 0 {
			return nil, false
		}
		key := b[i+1 : end-1]
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i = skipSpace(b, i+1)
		vend := skipValue(b, i)
		if vend < 0 {
			return nil, false
		}
		for _, k := range keys {
			if string(key) == k {
				out[k] = b[i:vend]
			}
		}
		i = skipSpace(b, vend)
		if i >= len(b) {
			return nil, false
		}
		switch b[i] {
		case '}':
			return out, true
		case ',':
			i = skipSpace(b, i+1)
		default:
			return nil, false
		}
	}
	return nil, false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] ('"'),
// -1 when it does not end. It jumps from quote to quote (IndexByte), and a
// quote after an odd run of backslashes is escaped.
func skipString(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
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
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		var stack []byte
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
		for j < len(b) && bytes.IndexByte([]byte(",}] \t\n\r"), b[j]) < 0 {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
}
