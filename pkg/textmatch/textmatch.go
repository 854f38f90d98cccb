// Package textmatch finds words in text case-insensitively and cuts excerpts
// around them, with byte offsets that are valid in the original text.
// (Offsets found in strings.ToLower(text) are not: 'Ⱥ' is two bytes and its
// lower case three, so applying them to text cuts in the wrong place or
// past its end.)
package textmatch

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Index returns the byte offsets [start, end) in text of the first
// occurrence of word at or after byte from, ignoring case as
// strings.ToLower does; start is -1 when there is none (or word is empty).
func Index(text, word string, from int) (start, end int) {
	lw := strings.ToLower(word)
	if lw == "" {
		return -1, -1
	}
	for i := max(from, 0); i < len(text); {
		if end, ok := matchAt(text, i, lw); ok {
			return i, end
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
	}
	return -1, -1
}

// matchAt reports whether text from byte i, lowered rune by rune, starts
// with lw, and where in text the match ends.
func matchAt(text string, i int, lw string) (int, bool) {
	var buf [utf8.UTFMax]byte
	for j := 0; j < len(lw); {
		if i >= len(text) {
			return 0, false
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		n := utf8.EncodeRune(buf[:], unicode.ToLower(r))
		if !strings.HasPrefix(lw[j:], string(buf[:n])) {
			return 0, false
		}
		j, i = j+n, i+size
	}
	return i, true
}

// Count returns how many times word occurs in text (not overlapping).
func Count(text, word string) int {
	n := 0
	for off := 0; ; n++ {
		_, end := Index(text, word, off)
		if end < 0 {
			return n
		}
		off = end
	}
}

// Around returns text[start:end] widened by radius bytes on each side, cut
// at character boundaries, with whether it was cut short at each end.
func Around(text string, start, end, radius int) (s string, before, after bool) {
	start, end = max(0, min(start, len(text))-radius), min(len(text), max(end, start)+radius)
	for start > 0 && !utf8.RuneStart(text[start]) {
		start--
	}
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end++
	}
	return text[start:end], start > 0, end < len(text)
}
