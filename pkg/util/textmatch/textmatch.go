// Package textmatch finds words in text case-insensitively and cuts excerpts
// around them, with byte offsets that are valid in the original text.
// (Offsets found in strings.ToLower(text) are not: 'Ⱥ' is two bytes and its
// lower case three, so applying them to text cuts in the wrong place or
// past its end.) Case is folded as Unicode folds it (Fold), not lowered:
// lowering keeps σ and ς apart.
package textmatch

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Index returns the byte offsets [start, end) in text of the first
// occurrence of word at or after byte from, ignoring case as Fold does;
// start is -1 when there is none (or word is empty).
func Index(text, word string, from int) (start, end int) {
	fw := Fold(word)
	if fw == "" {
		return -1, -1
	}
	for i := max(from, 0); i < len(text); {
		if end, ok := matchAt(text, i, fw); ok {
			return i, end
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
	}
	return -1, -1
}

// matchAt reports whether text from byte i, folded character by character,
// starts with fw (folded), and where in text the match ends. A character
// matches whole: 'İ' (folded to two) never matches a word ending in 'i'.
func matchAt(text string, i int, fw string) (int, bool) {
	var buf [2 * utf8.UTFMax]byte
	for j := 0; j < len(fw); {
		if i >= len(text) {
			return 0, false
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		f := appendFold(buf[:0], r)
		if !strings.HasPrefix(fw[j:], string(f)) {
			return 0, false
		}
		j, i = j+len(f), i+size
	}
	return i, true
}

// Fold returns s case-folded, for comparing: every character becomes one
// representative of the characters that are the same letter in another
// case (unicode.SimpleFold's orbit: Σ, σ and ς; Ǆ, ǅ and ǆ; K, k and the
// Kelvin sign), and 'İ' becomes i with a combining dot above, as Unicode's
// full case folding has it, so "İ" and "i̇" are equal.
func Fold(s string) string {
	if IsASCII(s) {
		return strings.ToUpper(s)
	}
	b := make([]byte, 0, len(s)+8)
	for _, r := range s {
		b = appendFold(b, r)
	}
	return string(b)
}

// IsASCII reports whether s is all ASCII, where folding is upper-casing.
func IsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func appendFold(b []byte, r rune) []byte {
	if r == 'İ' {
		return utf8.AppendRune(append(b, 'I'), 0x307)
	}
	return utf8.AppendRune(b, foldRune(r))
}

// foldRune is the smallest character of r's case orbit; ASCII letters fold
// to upper case ('K' < 'k' < U+212A).
func foldRune(r rune) rune {
	if r < 0x80 {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	return m
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
