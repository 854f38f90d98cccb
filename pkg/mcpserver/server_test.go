package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestKeywordMatch(t *testing.T) {
	text := "Add per-client rate limiting. The limiter gives each client a burst; LIMITING again."
	m := keywordMatch(text, "limiting")
	if m.Count != 2 || len(m.Excerpts) != 2 || !strings.Contains(m.Excerpts[0], "rate limiting") {
		t.Errorf("%+v", m)
	}
	if m := keywordMatch(text, "absent"); m.Count != 0 || len(m.Excerpts) != 0 {
		t.Errorf("absent: %+v", m)
	}
	if m := keywordMatch("ünïcödé ünï", "ünï"); m.Count != 2 {
		t.Errorf("unicode: %+v", m)
	}
	// 'Ⱥ' is shorter in bytes than its lower case: offsets must stay valid.
	if m := keywordMatch(strings.Repeat("Ⱥ", 60)+" Needle", "needle"); m.Count != 1 || !strings.HasSuffix(m.Excerpts[0], "Needle…") {
		t.Errorf("a lower case longer than its character: %+v", m)
	}
}

func TestCleanCache(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	for i := range 60 {
		p := filepath.Join(dir, fmt.Sprintf("c%02d.md", i))
		os.WriteFile(p, []byte("x"), 0o600)
		os.Chtimes(p, now.Add(-time.Duration(i)*time.Hour), now.Add(-time.Duration(i)*time.Hour))
	}
	old := filepath.Join(dir, "old.md")
	os.WriteFile(old, []byte("x"), 0o600)
	os.Chtimes(old, now.Add(-8*24*time.Hour), now.Add(-8*24*time.Hour))
	keep := filepath.Join(dir, "c59.md") // the file just written is kept, however old
	cleanCache(dir, keep, now)
	entries, _ := os.ReadDir(dir)
	if len(entries) != cacheMaxFiles {
		t.Errorf("%d files left, want %d", len(entries), cacheMaxFiles)
	}
	for _, gone := range []string{old, filepath.Join(dir, "c58.md")} {
		if _, err := os.Stat(gone); err == nil {
			t.Errorf("%s was kept", gone)
		}
	}
	for _, kept := range []string{keep, filepath.Join(dir, "c00.md")} {
		if _, err := os.Stat(kept); err != nil {
			t.Errorf("%s was removed", kept)
		}
	}
}

func TestHint(t *testing.T) {
	if h := hint(nil); !strings.Contains(h, "No conversation") {
		t.Error(h)
	}
	if h := hint([]ConversationRef{{ID: "c", Confidence: 0.9}}); !strings.Contains(h, "get_conversation") {
		t.Error(h)
	}
	if h := hint([]ConversationRef{{ID: "c", Confidence: 0.3}}); !strings.Contains(h, "Low confidence") {
		t.Error(h)
	}
}
