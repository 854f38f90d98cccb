package hookrun

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/agents/cursor"
	"github.com/git-convo/git-convo/pkg/util/sqliteuri"
	"github.com/git-convo/git-convo/pkg/write/spool"
)

// dump is every row of the tables an agent's events write, in a fixed order.
func (r *rig) dump() string {
	r.t.Helper()
	db, err := sql.Open("sqlite3", sqliteuri.ReadOnly(r.o.DBPath, 0))
	if err != nil {
		r.t.Fatal(err)
	}
	defer db.Close()
	var out strings.Builder
	for _, table := range []string{"conversations", "conversation_roots", "conversation_files", "edit_lines", "edit_spans", "prompts", "responses", "meta"} {
		rows, err := db.Query(`SELECT * FROM ` + table + ` ORDER BY 1, 2`)
		if err != nil {
			r.t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				r.t.Fatal(err)
			}
			fmt.Fprintf(&out, "%s %v\n", table, vals)
		}
		rows.Close()
	}
	return strings.ReplaceAll(out.String(), filepath.Dir(r.repo), "DIR")
}

// TestReplayInOneTransaction: a turn's spooled events replayed at its end,
// in one transaction, leave the database as recording each at once does;
// with an entry that cannot be replayed in the batch, that entry is set
// aside alone and the others are recorded, one by one.
func TestReplayInOneTransaction(t *testing.T) {
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	events := func(r *rig) []map[string]any {
		var out []map[string]any
		for i := range 30 {
			p := filepath.Join(r.repo, fmt.Sprintf("f%d.go", i%4))
			body := fmt.Sprintf("package a\n\nvar v%d = %d\n", i, i)
			os.WriteFile(p, []byte(body), 0o600)
			conv := []string{"c1", "c2"}[i%2]
			if i%7 == 0 {
				out = append(out, map[string]any{"conversation_id": conv, "generation_id": fmt.Sprint("g", i), "hook_event_name": "beforeSubmitPrompt",
					"workspace_roots": []string{r.repo}, "prompt": fmt.Sprint("prompt ", i)})
			}
			out = append(out, map[string]any{"conversation_id": conv, "generation_id": fmt.Sprint("g", i/7*7), "hook_event_name": "afterFileEdit",
				"workspace_roots": []string{r.repo}, "file_path": p, "edits": []map[string]string{{"old_string": "", "new_string": body}}})
		}
		return out
	}
	for _, bad := range []bool{false, true} {
		t.Run(fmt.Sprint("bad entry ", bad), func(t *testing.T) { replayAsRecorded(t, at, events, bad) })
	}
}

func replayAsRecorded(t *testing.T, at time.Time, events func(*rig) []map[string]any, bad bool) {
	dumps := map[string]string{}
	for _, sync := range []string{"1", ""} {
		r := newRig(t)
		r.env["GIT_CONVO_SYNC"] = sync
		tick := at
		r.o.Now = func() time.Time { tick = tick.Add(time.Millisecond); return tick }
		cur := cursor.Source{Getenv: r.o.Getenv}
		for i, e := range events(r) {
			// Files are written in turn by each event, so the same
			// content must be on disk when each is captured.
			r.capture(cur, "", e)
			if sync == "" && bad && i == 10 {
				if err := spool.Put(spool.Dir(r.o.DBPath), []byte("not json"), tick); err != nil {
					t.Fatal(err)
				}
			}
		}
		if sync == "" {
			if n, _ := spool.Pending(spool.Dir(r.o.DBPath)); len(n) < 30 {
				t.Fatalf("%d entries spooled; want them all", len(n))
			}
			r.o.DrainSpool(context.Background(), nil, time.Minute)
			want := 0
			if bad {
				want = 1
			}
			if aside, _ := spool.Pending(spool.SetAsideDir(spool.Dir(r.o.DBPath))); len(aside) != want {
				t.Errorf("set aside %d entries; want %d", len(aside), want)
			}
			if left, _ := spool.Pending(spool.Dir(r.o.DBPath)); len(left) != 0 {
				t.Errorf("%d entries left in the spool", len(left))
			}
			if bad && !strings.Contains(r.logged(), "not a spooled event") {
				t.Errorf("the bad entry's reason is not in the log: %s", r.logged())
			}
		}
		dumps[sync] = r.dump()
	}
	if dumps["1"] == "" || dumps["1"] != dumps[""] {
		t.Errorf("replayed in one transaction:\n%s\nwant, as recorded at once:\n%s", dumps[""], dumps["1"])
	}
}
