package notes

import (
	"bytes"
	"context"
	"strings"

	"github.com/git-convo/git-convo/pkg/share/trace"
)

// A notes merge takes whatever the remote's notes say, deletions
// included: one teammate who removes every note and pushes a fast-forward
// removes them from every clone that merges. Each clone is the authority
// on its own records, so after a merge it puts back those the merge
// dropped (restoreOwn), and a fetch says when it brought deletions
// (Deleted).

// noteChanges lists the commits whose note differs between the notes
// commits from and to (either "" for none): those only in from (deleted)
// and those in both but changed. A change of fan-out (a note moved from
// ab/cd... to abcd...) is no change.
func (g Git) noteChanges(ctx context.Context, from, to string) (deleted, changed []string, err error) {
	if from == "" || from == to {
		return nil, nil, nil
	}
	if to == "" {
		to = emptyTree
	}
	out, err := g.run(ctx, nil, "diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", from, to)
	if err != nil {
		return nil, nil, err
	}
	// -z: ":<modes> <shas> <status>\0<path>\0" per entry.
	gone, came, mod := map[string]bool{}, map[string]bool{}, map[string]bool{}
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		meta := strings.Fields(string(fields[i]))
		if len(meta) < 5 {
			continue
		}
		commit := strings.ReplaceAll(string(fields[i+1]), "/", "")
		switch meta[4][0] {
		case 'D':
			gone[commit] = true
		case 'A':
			came[commit] = true
		default:
			mod[commit] = true
		}
	}
	for c := range gone {
		if came[c] {
			changed = append(changed, c) // moved by fan-out: compare the texts
		} else {
			deleted = append(deleted, c)
		}
	}
	for c := range mod {
		changed = append(changed, c)
	}
	return deleted, changed, nil
}

// Tip is the commit ref (any revision git takes) names, "" when none.
func (g Git) Tip(ctx context.Context, ref string) (string, error) { return g.resolve(ctx, ref) }

// emptyTree is git's empty tree (sha1), what a ref that is gone holds.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// Deleted counts the notes the notes commit to no longer has that from
// had: what a fetch that moved a tracking ref from from to to deleted.
func (g Git) Deleted(ctx context.Context, from, to string) (int, error) {
	deleted, _, err := g.noteChanges(ctx, from, to)
	return len(deleted), err
}

// restoreOwn puts back on Ref writer's records that were on the notes
// commit before and are not on Ref now (a merge dropped or changed them),
// in one write. It returns how many notes it restored.
func (g Git) restoreOwn(ctx context.Context, before, writer string) (int, error) {
	if before == "" || writer == "" {
		return 0, nil
	}
	after, err := g.resolve(ctx, Ref)
	if err != nil || after == before {
		return 0, err
	}
	deleted, changed, err := g.noteChanges(ctx, before, after)
	if err != nil || len(deleted)+len(changed) == 0 {
		return 0, err
	}
	want := map[string]bool{}
	for _, c := range append(deleted, changed...) {
		want[c] = true
	}
	old, err := g.Read(ctx, []string{before}, want)
	if err != nil {
		return 0, err
	}
	now := map[string][]byte{}
	if after != "" {
		if now, err = g.Read(ctx, []string{after}, want); err != nil {
			return 0, err
		}
	}
	restore := map[string]*trace.Record{}
	for c := range want {
		var mine []trace.Record
		for _, r := range Decode(old[c]) {
			if m, _ := r.Meta(); m.Writer == writer {
				mine = append(mine, r)
			}
		}
		if len(mine) == 0 || hasAll(now[c], Encode(mine)) {
			continue
		}
		rec, _ := Combine(mine)
		restore[c] = &rec
	}
	if len(restore) == 0 {
		return 0, nil
	}
	return g.Write(ctx, restore, writer, "git-convo: restore this clone's records a notes merge dropped")
}

// hasAll reports whether note holds every line of lines.
func hasAll(note, lines []byte) bool {
	have := map[string]bool{}
	for _, l := range strings.Split(string(note), "\n") {
		have[strings.TrimSpace(l)] = true
	}
	for _, l := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
		if !have[l] {
			return false
		}
	}
	return true
}
