package store

import (
	"context"
	"fmt"
	"reflect"
	"testing"
)

// TestCommitLineWritersIn: for the asked paths, the same writers as
// CommitLineWriters; nothing of another path; the same recorded commits
// (c4's lines do not make it one whose lines were examined).
func TestCommitLineWritersIn(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	// c1 writes a.go and b.go; c2 only b.go; c3 is recorded with no
	// agent line; c4 has lines but is not marked recorded (older data).
	lines := map[string][]CommitLine{
		"c1": {{Path: "a.go", Line: 1, ConversationID: "x"}, {Path: "a.go", Line: 3, ConversationID: "y", Evidence: EvidencePosition}, {Path: "b.go", Line: 2, ConversationID: "x"}},
		"c2": {{Path: "b.go", Line: 1, ConversationID: "y", GenerationID: "g"}},
		"c3": nil,
	}
	for h, ls := range lines {
		if err := s.SetCommitLines(ctx, h, nil, ls); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO commit_lines (commitHash, path, line, conversationId) VALUES ('c4', 'a.go', 5, 'z')`); err != nil {
		t.Fatal(err)
	}
	hashes := []string{"c1", "c2", "c3", "c4", "c5"}
	for i := range 600 { // more than one chunk
		hashes = append(hashes, fmt.Sprint("none", i))
	}
	all, allRecorded, err := s.CommitLineWriters(ctx, hashes)
	if err != nil {
		t.Fatal(err)
	}
	for _, paths := range [][]string{{"a.go"}, {"b.go"}, {"a.go", "b.go"}, {"c.go"}, nil} {
		t.Run(fmt.Sprint(paths), func(t *testing.T) {
			got, recorded, err := s.CommitLineWritersIn(ctx, hashes, paths)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]map[string]map[int]LineWriter{}
			for h, byPath := range all {
				for _, p := range paths {
					if byPath[p] != nil {
						if want[h] == nil {
							want[h] = map[string]map[int]LineWriter{}
						}
						want[h][p] = byPath[p]
					}
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("writers\n got %v\nwant %v", got, want)
			}
			if !reflect.DeepEqual(recorded, allRecorded) || recorded["c4"] {
				t.Errorf("recorded %v, want %v", recorded, allRecorded)
			}
		})
	}
}
