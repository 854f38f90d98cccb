package notes

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
)

// A note holds one Agent Trace record per line, one line per writer, sorted:
// git's cat_sort_uniq strategy then merges two clones' notes on one commit
// without corrupting either, and readers merge the records (trace.Merge).

// Encode is the text of a note holding recs.
func Encode(recs []trace.Record) []byte {
	lines := make([]string, 0, len(recs))
	seen := map[string]bool{}
	for _, r := range recs {
		b, err := json.Marshal(r)
		if err != nil || seen[string(b)] {
			continue
		}
		seen[string(b)] = true
		lines = append(lines, string(b))
	}
	sort.Strings(lines)
	if len(lines) == 0 {
		return nil
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// Bounds on what a reader takes from one commit's note (docs/reliability.md):
// a note is written by anyone who can push, so its size is the pusher's
// choice. A note has a record per writer (clone), a few in practice.
const (
	// MaxNoteBytes: a larger note is skipped whole, never decoded.
	MaxNoteBytes = 8 << 20
	// MaxNoteRecords: the records past it are skipped.
	MaxNoteRecords = 1000
)

// Decode reads a note's records, skipping lines that are not a record of a
// spec version it understands (someone else's text on our ref), and
// everything past the bounds (Skipped counts it).
func Decode(b []byte) []trace.Record {
	if len(b) > MaxNoteBytes {
		return nil
	}
	var out []trace.Record
	for len(b) > 0 && len(out) < MaxNoteRecords {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte{'\n'})
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var r trace.Record
		if json.Unmarshal(line, &r) != nil || r.Files == nil {
			continue
		}
		if m, ok := r.Meta(); ok && m.Format > trace.Format {
			continue
		}
		out = append(out, r)
	}
	return out
}

// Skipped says what Decode leaves of note b: the whole note (too large),
// or how many record lines past MaxNoteRecords. It decodes nothing.
func Skipped(b []byte) (tooLarge bool, records int) {
	if len(b) > MaxNoteBytes {
		return true, 0
	}
	n := 0
	for len(b) > 0 {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte{'\n'})
		if line = bytes.TrimSpace(line); len(line) > 0 && line[0] == '{' {
			n++
		}
	}
	return false, max(n-MaxNoteRecords, 0)
}

// Combine merges the records of one commit into one (ok false for none),
// in one pass (trace.MergeAll).
func Combine(recs []trace.Record) (trace.Record, bool) {
	switch len(recs) {
	case 0:
		return trace.Record{}, false
	case 1:
		return recs[0], true
	}
	return trace.MergeAll(recs), true
}

// SharedRefs lists Ref and every remote's tracking ref that exist.
func (g Git) SharedRefs(ctx context.Context) ([]string, error) {
	if refs, ok := g.refsFromFiles(); ok {
		return refs, nil
	}
	out, err := g.run(ctx, nil, "for-each-ref", "--format=%(refname)", Ref, trackingPrefix)
	if err != nil {
		return nil, err
	}
	var refs []string
	for _, r := range strings.Fields(string(out)) {
		if r == Ref || strings.HasPrefix(r, trackingPrefix) && strings.HasSuffix(r, "/convo") {
			refs = append(refs, r)
		}
	}
	return refs, nil
}

// Read returns each commit's note text on refs, the lines of every ref
// joined without duplicates; want limits it to some commits (nil: all). A
// note over MaxNoteBytes is left out, unread.
func (g Git) Read(ctx context.Context, refs []string, want map[string]bool) (map[string][]byte, error) {
	res, _, err := g.readNotes(ctx, refs, want)
	return res, err
}

// readNotes is Read that also names the commits left out because one of
// their notes is over MaxNoteBytes (a writer must leave those alone).
func (g Git) readNotes(ctx context.Context, refs []string, want map[string]bool) (map[string][]byte, map[string]bool, error) {
	blobs := map[string][]string{} // commit -> note blobs
	var order []string
	for _, ref := range refs {
		err := g.eachNote(ctx, ref, func(commit, blob string) {
			if want != nil && !want[commit] {
				return
			}
			if blobs[commit] == nil {
				order = append(order, commit)
			}
			blobs[commit] = append(blobs[commit], blob)
		})
		if err != nil {
			if tip, e := g.resolve(ctx, ref); e == nil && tip == "" {
				continue // the ref vanished meanwhile
			}
			return nil, nil, err
		}
	}
	if len(order) == 0 {
		return map[string][]byte{}, nil, nil
	}
	var req []string
	for _, c := range order {
		req = append(req, blobs[c]...)
	}
	contents, big, err := g.catBlobs(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	res := make(map[string][]byte, len(order))
	skipped := map[string]bool{}
	for _, c := range order {
		var parts [][]byte
		for _, b := range blobs[c] {
			if big[b] {
				skipped[c] = true
			}
			parts = append(parts, contents[b])
		}
		if !skipped[c] {
			res[c] = joinLines(parts...)
		}
	}
	return res, skipped, nil
}

// joinLines unites the lines of several notes, sorted and without repeats.
func joinLines(parts ...[]byte) []byte {
	seen := map[string]bool{}
	var lines []string
	for _, p := range parts {
		for _, l := range strings.Split(string(p), "\n") {
			if l = strings.TrimSpace(l); l != "" && !seen[l] {
				seen[l] = true
				lines = append(lines, l)
			}
		}
	}
	if len(lines) == 0 {
		return nil
	}
	sort.Strings(lines)
	return []byte(strings.Join(lines, "\n") + "\n")
}

// catBlobs reads blobs with one git cat-file, streaming: a blob over
// MaxNoteBytes is passed over unread and named in big.
func (g Git) catBlobs(ctx context.Context, shas []string) (contents map[string][]byte, big map[string]bool, err error) {
	contents, big = map[string][]byte{}, map[string]bool{}
	err = g.eachBlob(ctx, shas, func(sha string, content []byte, over bool) {
		if over {
			big[sha] = true
		} else if content != nil {
			contents[sha] = content
		}
	})
	if err != nil {
		return nil, nil, err
	}
	return contents, big, nil
}

// eachBlob calls fn with each of shas as one git cat-file reads it (over:
// past MaxNoteBytes, passed over unread; nil content: missing), holding
// none: a caller that keeps nothing reads 20,000 notes in the memory of
// one. One process reads them all: git keeps the delta bases it inflated
// for the next blob (20,000 notes: 0.47 s in one, 2.3 s in ten of 2,000).
func (g Git) eachBlob(ctx context.Context, shas []string, fn func(sha string, content []byte, over bool)) error {
	cmd := g.cmd(ctx, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(strings.Join(shas, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	rd := bufio.NewReader(out)
	for {
		sha, _, content, rerr := readObject(rd)
		if rerr == io.EOF {
			break
		}
		if errors.Is(rerr, errTooLarge) {
			fn(sha, nil, true)
			continue
		}
		if rerr != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return rerr
		}
		fn(sha, content, false)
	}
	if err := cmd.Wait(); err != nil {
		return &gitError{args: []string{"cat-file", "--batch"}, stderr: stderr.String(), err: err}
	}
	return nil
}

// errTooLarge: cat-file's object is over MaxNoteBytes; readObject passed
// over its content without keeping it.
var errTooLarge = errors.New("note over the size bound")

// readObject reads one answer of git cat-file --batch: the object's name,
// type and content (nil content: "<name> missing"). io.EOF: no more. An
// object over MaxNoteBytes is read past, never held (errTooLarge).
func readObject(rd *bufio.Reader) (sha, typ string, content []byte, err error) {
	head, err := rd.ReadString('\n')
	if err == io.EOF && head == "" {
		return "", "", nil, io.EOF
	}
	if err != nil {
		return "", "", nil, fmt.Errorf("git cat-file: %w", err)
	}
	f := strings.Fields(head)
	if len(f) != 3 {
		return "", "", nil, nil // missing
	}
	n, err := strconv.Atoi(f[2])
	if err != nil || n < 0 {
		return "", "", nil, fmt.Errorf("git cat-file: bad header %q", head)
	}
	if n > MaxNoteBytes {
		if _, err := io.CopyN(io.Discard, rd, int64(n)+1); err != nil {
			return "", "", nil, fmt.Errorf("git cat-file: %w", err)
		}
		return f[0], f[1], nil, errTooLarge
	}
	buf := make([]byte, n+1) // the content and its newline
	if _, err := io.ReadFull(rd, buf); err != nil {
		return "", "", nil, fmt.Errorf("git cat-file: %w", err)
	}
	return f[0], f[1], buf[:n], nil
}

// Write replaces writer's record on each commit of recs with the new one
// (a nil record removes it), keeping every other writer's records, in one
// git fast-import. It returns how many notes changed.
func (g Git) Write(ctx context.Context, recs map[string]*trace.Record, writer, message string) (int, error) {
	return g.write(ctx, recs, writer, message, nil)
}

// write is Write where own, when not nil, makes each commit's new record of
// writer from the new one and the one it replaces (a refresh keeps what it
// did not build: refreshed).
func (g Git) write(ctx context.Context, recs map[string]*trace.Record, writer, message string, own ownRecord) (int, error) {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var n int
		n, err = g.writeOnce(ctx, recs, writer, message, own)
		if err == nil {
			return n, nil
		}
		// Another process moved the ref between our read and write:
		// read again and redo.
		time.Sleep(time.Duration(attempt+1) * 50 * time.Millisecond)
	}
	return 0, err
}

// ownRecord makes a commit's new record of the writer from the one built
// and those it replaces: the writer's records in the note, in its order
// (one, unless git concatenated a record it copied by rewrite with one
// already there).
type ownRecord func(commit string, built *trace.Record, olds []trace.Record) *trace.Record

// lastOf is the last of olds (nil: none), the record a writer's note
// replaces when it says nothing of copies.
func lastOf(olds []trace.Record) *trace.Record {
	if len(olds) == 0 {
		return nil
	}
	return &olds[len(olds)-1]
}

func (g Git) writeOnce(ctx context.Context, recs map[string]*trace.Record, writer, message string, own ownRecord) (int, error) {
	parent, err := g.resolve(ctx, Ref)
	if err != nil {
		return 0, err
	}
	want := make(map[string]bool, len(recs))
	for c := range recs {
		want[c] = true
	}
	current, big := map[string][]byte{}, map[string]bool{}
	if parent != "" {
		if current, big, err = g.readNotes(ctx, []string{parent}, want); err != nil {
			return 0, err
		}
	}
	commits := make([]string, 0, len(recs))
	for c := range recs {
		commits = append(commits, c)
	}
	sort.Strings(commits)
	var body bytes.Buffer
	changed := 0
	for _, c := range commits {
		if big[c] {
			continue // a note over the bound is left as it is, unread
		}
		var keep, olds []trace.Record
		for _, r := range Decode(current[c]) {
			if m, _ := r.Meta(); m.Writer != writer {
				keep = append(keep, r)
			} else {
				olds = append(olds, r)
			}
		}
		rec := recs[c]
		if own != nil {
			rec = own(c, rec, olds)
		}
		if rec != nil {
			keep = append(keep, *rec)
		}
		text := Encode(keep)
		if bytes.Equal(text, current[c]) {
			continue
		}
		changed++
		if text == nil {
			fmt.Fprintf(&body, "N %s %s\n", strings.Repeat("0", len(c)), c)
			continue
		}
		fmt.Fprintf(&body, "N inline %s\ndata %d\n%s\n", c, len(text), text)
	}
	if changed == 0 {
		return 0, nil
	}
	return changed, g.fastImport(ctx, parent, "", message, body.Bytes())
}

// fastImport commits note changes on Ref with parent (and a second parent
// for a merge). fast-import refuses to move the ref unless the result
// descends from where it is now, so a concurrent writer is never undone.
func (g Git) fastImport(ctx context.Context, parent, merge, message string, changes []byte) error {
	var s bytes.Buffer
	fmt.Fprintf(&s, "commit %s\ncommitter git-convo <git-convo@localhost> %d +0000\ndata %d\n%s\n",
		Ref, time.Now().Unix(), len(message), message)
	if parent != "" {
		fmt.Fprintf(&s, "from %s\n", parent)
	}
	if merge != "" {
		fmt.Fprintf(&s, "merge %s\n", merge)
	}
	s.Write(changes)
	s.WriteString("done\n")
	_, err := g.run(ctx, s.Bytes(), "fast-import", "--quiet", "--done", "--date-format=raw")
	return err
}

// refsFromFiles lists Ref and the tracking refs by reading the repository's
// ref files (loose refs and packed-refs) without running git: every read
// command asks, and most repositories have no notes. ok is false when the
// refs cannot be read that way (a reftable repository, GIT_DIR set): ask git.
func (g Git) refsFromFiles() (refs []string, ok bool) {
	return g.RefsFromFiles(func(ref string) bool {
		return ref == Ref || strings.HasPrefix(ref, trackingPrefix) && strings.HasSuffix(ref, "/convo") && strings.Count(ref, "/") == 4
	}, Ref, trackingPrefix+"*/convo")
}

// RefsFromFiles lists the refs that keep accepts, from the ref files alone
// (no process): the loose refs named by loose (names or globs under the
// common dir) and every packed ref. ok is false where only git can tell.
func (g Git) RefsFromFiles(keep func(ref string) bool, loose ...string) (refs []string, ok bool) {
	if os.Getenv("GIT_DIR") != "" || os.Getenv("GIT_COMMON_DIR") != "" {
		return nil, false
	}
	abs, err := filepath.Abs(g.Dir)
	if err != nil {
		return nil, false
	}
	loc, found := gitx.FindRepoForPath(abs)
	if !found {
		return nil, false
	}
	if _, err := os.Stat(filepath.Join(loc.CommonDir, "reftable")); err == nil {
		return nil, false
	}
	seen := map[string]bool{}
	add := func(ref string) {
		if !seen[ref] && keep(ref) {
			seen[ref] = true
			refs = append(refs, ref)
		}
	}
	for _, l := range loose {
		m, err := filepath.Glob(filepath.Join(loc.CommonDir, filepath.FromSlash(l)))
		if err != nil {
			continue
		}
		for _, p := range m {
			if rel, err := filepath.Rel(loc.CommonDir, p); err == nil {
				add(filepath.ToSlash(rel))
			}
		}
	}
	packed, err := os.ReadFile(filepath.Join(loc.CommonDir, "packed-refs"))
	if err != nil && !os.IsNotExist(err) {
		return nil, false
	}
	packedNotesRefs(packed, add)
	sort.Strings(refs)
	return refs, true
}

// packedNotesRefs hands add each ref of packed-refs that lies under
// refs/notes/. Only the lines holding that text are split, found with
// bytes.Index: a repository's packed-refs can list thousands of branches and
// tags, and every read command asks.
func packedNotesRefs(packed []byte, add func(string)) {
	notes := []byte("refs/notes/")
	for rest := packed; ; {
		i := bytes.Index(rest, notes)
		if i < 0 {
			return
		}
		start := bytes.LastIndexByte(rest[:i], '\n') + 1
		end := bytes.IndexByte(rest[i:], '\n')
		if end < 0 {
			end = len(rest)
		} else {
			end += i
		}
		line := string(rest[start:end])
		if f := strings.Fields(line); len(f) == 2 && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "^") {
			add(f[1])
		}
		if end == len(rest) {
			return
		}
		rest = rest[end+1:]
	}
}
