package app

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/git-convo/git-convo/pkg/util/regfile"
	"github.com/git-convo/git-convo/pkg/write/hookrun"
	"github.com/git-convo/git-convo/pkg/write/ingest"
	"github.com/git-convo/git-convo/pkg/write/spool"
)

// The spool beside links.sqlite: the hook events waiting there, and those
// set aside (doctor, doctor --replay-spool).

// Spooled is what the spool holds.
type Spooled struct {
	Dir     string
	Pending int
	// Oldest is when the oldest waiting event was spooled (zero when its
	// name does not say).
	Oldest time.Time
	// Aside are the events set aside in AsideDir, Unknown of them payloads
	// no agent recognised.
	AsideDir       string
	Aside, Unknown int
}

// Spool says what waits in the spool beside links.sqlite.
func (a *App) Spool() (Spooled, error) {
	dbPath, err := a.DBPath()
	if err != nil {
		return Spooled{}, err
	}
	out := Spooled{Dir: spool.Dir(dbPath)}
	out.AsideDir = spool.SetAsideDir(out.Dir)
	if pending, _ := spool.Pending(out.Dir); len(pending) > 0 {
		out.Pending, out.Oldest = len(pending), spoolTime(pending[0])
	}
	if aside, _ := spool.Pending(out.AsideDir); len(aside) > 0 {
		out.Aside, out.Unknown = len(aside), unknownPayloads(aside)
	}
	return out, nil
}

// unknownPayloads counts the set-aside entries whose payload no agent
// recognised (ingest.Spooled.Unknown).
func unknownPayloads(files []string) int {
	n := 0
	for _, f := range files {
		b, err := regfile.Read(f, spool.MaxEntry)
		var e ingest.Spooled
		if err == nil && json.Unmarshal(b, &e) == nil && e.Unknown {
			n++
		}
	}
	return n
}

// spoolTime reads an entry's time from its name (nanoseconds): zero when
// it does not say.
func spoolTime(path string) time.Time {
	var ns int64
	if _, err := fmt.Sscanf(filepath.Base(path), "%d-", &ns); err != nil || ns <= 0 {
		return time.Time{}
	}
	return time.Unix(0, ns).UTC()
}

// Replayed is what ReplaySpool did.
type Replayed struct {
	PutBack  int // set-aside events put back
	Replayed int
	Waiting  int // still waiting
	Aside    int // set aside again
}

// ReplaySpool puts the set-aside entries back and records everything
// waiting now.
func (a *App) ReplaySpool(ctx context.Context) (Replayed, error) {
	var out Replayed
	dbPath, err := a.DBPath()
	if err != nil {
		return out, err
	}
	dir := spool.Dir(dbPath)
	if out.PutBack, err = spool.Replay(dir); err != nil {
		return out, err
	}
	// Events spooled before anything was recorded make the database.
	s, err := a.OpenStore(ctx, !spool.Waiting(dir))
	if err != nil {
		return out, err
	}
	defer s.Close()
	before, _ := spool.Pending(dir)
	a.Hooks().DrainSpool(ctx, s, hookrun.BackgroundDrainWait)
	after, _ := spool.Pending(dir)
	aside, _ := spool.Pending(spool.SetAsideDir(dir))
	out.Replayed, out.Waiting, out.Aside = len(before)-len(after)-len(aside), len(after), len(aside)
	return out, nil
}
