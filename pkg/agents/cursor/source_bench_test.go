package cursor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/git-convo/git-convo/pkg/agents/cursor/cursortest"
	"github.com/git-convo/git-convo/pkg/agents/source"
)

// BenchmarkReadConversation reads one conversation of 1,000 bubbles among
// 20 from a state.vscdb in Cursor's schema: as the stop hook's enrichment
// reads it (no messages) and as `conversation` does (with them).
func BenchmarkReadConversation(b *testing.B) {
	dbPath := filepath.Join(b.TempDir(), "state.vscdb")
	db, err := cursortest.Open(dbPath)
	if err != nil {
		b.Fatal(err)
	}
	tx, err := db.Begin() // one transaction: 20,000 rows one by one take minutes
	if err != nil {
		b.Fatal(err)
	}
	for i := range 20 {
		c := cursortest.Sample()
		c.ID = fmt.Sprintf("bench-%04d", i)
		for j := range 1000 {
			c.Messages = append(c.Messages, cursortest.Message{User: j%10 == 0, Text: fmt.Sprintf("message %d of conversation %d", j, i)})
		}
		for k, v := range c.Rows() {
			val, _ := json.Marshal(v)
			if _, err := tx.Exec(`INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)`, k, val); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := errors.Join(tx.Commit(), db.Close()); err != nil {
		b.Fatal(err)
	}
	src := Source{Getenv: func(k string) string {
		if k == "CURSOR_DB_PATH" {
			return dbPath
		}
		return ""
	}}
	for _, hint := range []source.Hint{{NoMessages: true}, {}} {
		b.Run(fmt.Sprintf("NoMessages=%v", hint.NoMessages), func(b *testing.B) {
			for b.Loop() {
				if _, err := src.ReadConversation(context.Background(), "bench-0010", hint); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
