package cursor

import (
	"context"
	"encoding/json"
	"time"

	"github.com/git-convo/git-convo/pkg/util/mstime"
)

// WrittenLine is a line one of Cursor's diffs says the agent wrote.
type WrittenLine struct {
	Text string
	At   time.Time
}

// lineDiff is Cursor's diff shape: hunks whose "modified" lines replace the
// original range.
type lineDiff []struct {
	Modified []string `json:"modified"`
}

// writtenLines reads the lines the agent wrote from Cursor's own diffs: each
// code block's codeBlockDiff:<cid>:<diffId> (newModelDiffWrtV0), and the
// per-turn checkpointId:<cid>:* files (newModelDiffWrtV0 when present).
// They are evidence for line-level attribution of conversations whose hooks
// never ran (imported history) or missed an edit.
func (d *DB) writtenLines(ctx context.Context, cid string, cj composerJSON) map[string][]WrittenLine {
	out := map[string][]WrittenLine{}
	add := func(uri string, diff lineDiff, at time.Time) {
		p := NormalizeFSPath(uri)
		if p == "" {
			return
		}
		for _, h := range diff {
			for _, l := range h.Modified {
				out[p] = append(out[p], WrittenLine{Text: l, At: at})
			}
		}
	}
	for uri, blocks := range cj.CodeBlockData {
		for _, b := range blocks {
			var cb struct {
				DiffID        string `json:"diffId"`
				CreatedAt     int64  `json:"createdAt"`
				LastAppliedAt int64  `json:"lastAppliedAt"`
			}
			if json.Unmarshal(b, &cb) != nil || cb.DiffID == "" {
				continue
			}
			raw, err := d.value(ctx, "codeBlockDiff:"+cid+":"+cb.DiffID)
			if err != nil {
				continue
			}
			var diff struct {
				New lineDiff `json:"newModelDiffWrtV0"`
			}
			if json.Unmarshal(raw, &diff) == nil {
				at := cb.LastAppliedAt
				if at == 0 {
					at = cb.CreatedAt
				}
				add(uri, diff.New, mstime.Time(at))
			}
		}
	}
	rows, err := d.db.QueryContext(ctx, `SELECT value FROM cursorDiskKV WHERE key >= ? AND key < ?`,
		"checkpointId:"+cid+":", "checkpointId:"+cid+";")
	if err != nil {
		return out
	}
	defer rows.Close()
	for rows.Next() {
		var v []byte
		if rows.Scan(&v) != nil {
			break
		}
		var cp struct {
			Files []struct {
				URI struct {
					FsPath, Path, External string
				} `json:"uri"`
				New lineDiff `json:"newModelDiffWrtV0"`
			} `json:"files"`
		}
		if json.Unmarshal(v, &cp) != nil {
			continue
		}
		for _, f := range cp.Files {
			uri := f.URI.FsPath
			if uri == "" {
				uri = f.URI.Path
			}
			if uri == "" {
				uri = f.URI.External
			}
			add(uri, f.New, time.Time{})
		}
	}
	return out
}
