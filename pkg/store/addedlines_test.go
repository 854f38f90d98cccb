package store

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// Kept lines are read back under their settings only; writing under new
// settings drops the old ones; a read asks in batches below SQLite's
// bound.
func TestAddedLines(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	many := map[string]string{}
	for i := range 1200 {
		many[fmt.Sprintf("100644 100644 old%d new%d", i, i)] = fmt.Sprintf("%d-%d", i, i+2)
	}
	if err := s.PutAddedLines(ctx, "git 2.39 a", many, time.Second); err != nil {
		t.Fatal(err)
	}
	if err := s.PutAddedLines(ctx, "git 2.39 a", map[string]string{"000000 100644 0 new": ""}, time.Second); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range many {
		keys = append(keys, k)
	}
	tests := []struct {
		name     string
		settings string
		keys     []string
		want     map[string]string
	}{
		{"every key, in batches", "git 2.39 a", keys, many},
		{"none added is kept as such", "git 2.39 a", []string{"000000 100644 0 new", "not kept"}, map[string]string{"000000 100644 0 new": ""}},
		{"other settings", "git 2.39 b", keys[:3], map[string]string{}},
		{"no key", "git 2.39 a", nil, map[string]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.AddedLines(ctx, tt.settings, tt.keys)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("AddedLines: %d kept, want %d", len(got), len(tt.want))
			}
		})
	}
	if err := s.PutAddedLines(ctx, "git 2.40 a", map[string]string{"k": "1"}, time.Second); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM added_lines`).Scan(&n); err != nil || n != 1 {
		t.Errorf("rows after new settings: %d (%v), want 1", n, err)
	}
}
