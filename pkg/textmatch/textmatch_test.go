package textmatch

import (
	"strings"
	"testing"
	"unicode/utf8"
)

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
		// Equal once lowered as strings.ToLower does (EqualFold folds differently).
		if matched, lw := strings.ToLower(text[start:end]), strings.ToLower(word); matched != lw {
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
