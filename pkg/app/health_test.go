package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStoreHealth: doctor's findings on links.sqlite, on real files: none
// yet, a directory that cannot hold it, and an open database.
func TestStoreHealth(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	opened := filepath.Join(root, "opened", "links.sqlite")
	if err := os.MkdirAll(filepath.Dir(opened), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, db string
		setup    func(*App)
		writable bool
		want     []string // each finding's name and a word of its detail, in order
	}{
		{name: "none yet", db: filepath.Join(root, "none", "links.sqlite"), writable: true,
			want: []string{"links db: nothing recorded yet"}},
		{name: "under a file", db: filepath.Join(file, "links.sqlite"),
			want: []string{"links db: is not a directory"}},
		{name: "open", db: opened, writable: true,
			setup: func(a *App) {
				s, err := a.OpenStore(ctx, false)
				if err != nil {
					t.Fatal(err)
				}
				s.Close()
			},
			want: []string{"links db: 0 conversations", "last capture: never", "last record: never"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := New(Config{Getenv: func(k string) string {
				if k == "GIT_CONVO_DB" {
					return tc.db
				}
				return ""
			}})
			if tc.setup != nil {
				tc.setup(a)
			}
			h := a.StoreHealth(ctx)
			if h.Writable != tc.writable {
				t.Errorf("Writable = %v, want %v", h.Writable, tc.writable)
			}
			if len(h.Findings) != len(tc.want) {
				t.Fatalf("findings %+v, want %q", h.Findings, tc.want)
			}
			for i, w := range tc.want {
				name, word, _ := strings.Cut(w, ": ")
				if f := h.Findings[i]; f.Name != name || !strings.Contains(f.Detail, word) {
					t.Errorf("finding %d = %+v, want %q", i, f, w)
				}
			}
			if _, err := os.Stat(tc.db); tc.name == "none yet" && err == nil {
				t.Error("doctor created the database")
			}
		})
	}
}
