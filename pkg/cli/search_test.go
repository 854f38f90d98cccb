package cli

import (
	"strings"
	"testing"
)

// TestExcerpt: offsets found ignoring case are valid in the original text,
// even where a character's lower case is longer in bytes ('Ⱥ': 2 → 3).
func TestExcerpt(t *testing.T) {
	tests := []struct {
		name, text, word, want string
	}{
		{"ascii", "one two Needle three", "needle", "one two Needle three"},
		{"longer lower case before the match", strings.Repeat("Ⱥ", 50) + " needle", "needle", "…" + strings.Repeat("Ⱥ", 30) + " needle"},
		{"no match", "ȺȺ", "zz", "ȺȺ"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := excerpt(tt.text, tt.word, 60); got != tt.want {
				t.Errorf("excerpt = %q, want %q", got, tt.want)
			}
		})
	}
}
