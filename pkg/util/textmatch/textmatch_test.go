package textmatch

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFold(t *testing.T) {
	for _, group := range [][]string{
		{"σ", "ς", "Σ"}, {"ǅ", "ǆ", "Ǆ"}, {"İ", "i̇", "I\u0307"}, {"Straße", "STRAẞE"}, {"k", "K", "\u212a"}, {"Ⱥ", "ⱥ"}, {"ABC xyz", "abc XYZ"},
	} {
		for _, s := range group[1:] {
			if Fold(s) != Fold(group[0]) {
				t.Errorf("Fold(%q) = %q, Fold(%q) = %q: want equal", s, Fold(s), group[0], Fold(group[0]))
			}
		}
	}
	for _, pair := range [][2]string{{"i", "İ"}, {"i", "ı"}, {"s", "ß"}} {
		if Fold(pair[0]) == Fold(pair[1]) {
			t.Errorf("Fold(%q) == Fold(%q)", pair[0], pair[1])
		}
	}
}

func TestIndex(t *testing.T) {
	tests := []struct {
		name, text, word string
		from             int
		want             string // text[start:end], "" for none
	}{
		{"ascii", "Find the Needle here", "needle", 0, "Needle"},
		{"lower case longer than the character", "ȺȺȺȺȺȺ needle ȺȺ", "NEEDLE", 0, "needle"},
		{"word with such a character", "xx ȺBC yy", "ⱥbc", 0, "ȺBC"},
		{"from skips the first", "a b a", "a", 1, "a"},
		{"none", "abc", "z", 0, ""},
		{"empty word", "abc", " ", 0, ""},
		{"invalid UTF-8 in text", "\xffneedle", "NEEDLE", 0, "needle"},
		{"accents are not folded", "ΟΔΥΣΣΕΥΣ and οδυσσευς", "ὈΔΥΣΣΕΎΣ", 0, ""},
		{"sigma, final sigma", "ΚΑΛΟΣ", "καλος", 0, "ΚΑΛΟΣ"},
		{"final sigma in text", "o καλός", "ΚΑΛΌΣ", 0, "καλός"},
		{"titlecase digraph", "ǅemal", "ǆemal", 0, "ǅemal"},
		{"titlecase digraph, upper", "ǄEMAL", "ǅemal", 0, "ǄEMAL"},
		{"dotted capital I", "İstanbul", "i̇stanbul", 0, "İstanbul"},
		{"dotted capital I in the word", "i̇stanbul", "İSTANBUL", 0, "i̇stanbul"},
		{"dotted capital I is not plain i", "İstanbul", "istanbul", 0, ""},
		{"Kelvin sign", "5 \u212a", "k", 0, "\u212a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			word := strings.TrimSpace(tt.word)
			start, end := Index(tt.text, word, tt.from)
			got := ""
			if start >= 0 {
				got = tt.text[start:end]
			}
			if got != tt.want {
				t.Errorf("Index(%q, %q) = %q, want %q", tt.text, word, got, tt.want)
			}
		})
	}
	if n := Count("Ⱥa ȺA ⱥa", "ⱥA"); n != 3 {
		t.Errorf("Count = %d, want 3", n)
	}
}

// FuzzExcerpt: finding a word and cutting an excerpt around it never panics,
// the match equals the word ignoring case, and the excerpt is valid UTF-8
// whenever the text is.
func FuzzExcerpt(f *testing.F) {
	f.Add("ȺȺȺȺȺȺȺȺ needle", "needle", 3)
	f.Add("İstanbul ǅ ß ẞ ﬃ", "i̇", 10)
	f.Add("\xff\xfeabc", "B", 0)
	f.Fuzz(func(t *testing.T, text, word string, radius int) {
		radius = radius % 200
		if radius < 0 {
			radius = -radius
		}
		start, end := Index(text, word, 0)
		if start < 0 {
			return
		}
		// Equal once folded.
		if matched, fw := Fold(text[start:end]), Fold(word); matched != fw {
			t.Fatalf("Index(%q, %q) matched %q", text, word, text[start:end])
		}
		s, _, _ := Around(text, start, end, radius)
		if !strings.Contains(s, text[start:end]) {
			t.Fatalf("Around lost the match: %q", s)
		}
		if utf8.ValidString(text) && !utf8.ValidString(s) {
			t.Fatalf("Around(%q) = %q: not UTF-8", text, s)
		}
		if Count(text, word) < 1 {
			t.Fatal("Count found nothing where Index found a match")
		}
	})
}
