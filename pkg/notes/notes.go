package notes

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/trace"
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

// Decode reads a note's records, skipping lines that are not a record of a
// spec version it understands (someone else's text on our ref).
func Decode(b []byte) []trace.Record {
	var out []trace.Record
	for _, line := range bytes.Split(b, []byte{'\n'}) {
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

// Combine merges the records of one commit into one (ok false for none).
func Combine(recs []trace.Record) (trace.Record, bool) {
	if len(recs) == 0 {
		return trace.Record{}, false
	}
	r := recs[0]
	for _, o := range recs[1:] {
		r = trace.Merge(r, o)
	}
	return r, true
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
// joined without duplicates; want limits it to some commits (nil: all).
func (g Git) Read(ctx context.Context, refs []string, want map[string]bool) (map[string][]byte, error) {
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
			return nil, err
		}
	}
	if len(order) == 0 {
		return map[string][]byte{}, nil
	}
	var req []string
	for _, c := range order {
		req = append(req, blobs[c]...)
	}
	contents, err := g.catBlobs(ctx, req)
	if err != nil {
		return nil, err
	}
	res := make(map[string][]byte, len(order))
	for _, c := range order {
		var parts [][]byte
		for _, b := range blobs[c] {
			parts = append(parts, contents[b])
		}
		res[c] = joinLines(parts...)
	}
	return res, nil
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

// catBlobs reads blobs with one git cat-file.
func (g Git) catBlobs(ctx context.Context, shas []string) (map[string][]byte, error) {
	out, err := g.run(ctx, []byte(strings.Join(shas, "\n")+"\n"), "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	res := map[string][]byte{}
	rd := bufio.NewReader(bytes.NewReader(out))
	for {
		sha, _, content, err := readObject(rd)
		if err == io.EOF {
			return res, nil
		}
		if err != nil {
			return nil, err
		}
		if content != nil {
			res[sha] = content
		}
	}
}

// readObject reads one answer of git cat-file --batch: the object's name,
// type and content (nil content: "<name> missing"). io.EOF: no more.
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
	if err != nil {
		return "", "", nil, fmt.Errorf("git cat-file: bad header %q", head)
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
func (g Git) write(ctx context.Context, recs map[string]*trace.Record, writer, message string, own func(built, old *trace.Record) *trace.Record) (int, error) {
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

func (g Git) writeOnce(ctx context.Context, recs map[string]*trace.Record, writer, message string, own func(built, old *trace.Record) *trace.Record) (int, error) {
	parent, err := g.resolve(ctx, Ref)
	if err != nil {
		return 0, err
	}
	want := make(map[string]bool, len(recs))
	for c := range recs {
		want[c] = true
	}
	current := map[string][]byte{}
	if parent != "" {
		if current, err = g.Read(ctx, []string{parent}, want); err != nil {
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
		var keep []trace.Record
		var old *trace.Record
		for _, r := range Decode(current[c]) {
			if m, _ := r.Meta(); m.Writer != writer {
				keep = append(keep, r)
			} else {
				old = &r
			}
		}
		rec := recs[c]
		if own != nil {
			rec = own(rec, old)
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
		if !seen[ref] && (ref == Ref || strings.HasPrefix(ref, trackingPrefix) && strings.HasSuffix(ref, "/convo") &&
			strings.Count(ref, "/") == 4) {
			seen[ref] = true
			refs = append(refs, ref)
		}
	}
	if _, err := os.Stat(filepath.Join(loc.CommonDir, filepath.FromSlash(Ref))); err == nil {
		add(Ref)
	}
	if m, err := filepath.Glob(filepath.Join(loc.CommonDir, "refs", "notes", "remotes", "*", "convo")); err == nil {
		for _, p := range m {
			add(trackingPrefix + filepath.Base(filepath.Dir(p)) + "/convo")
		}
	}
	packed, err := os.ReadFile(filepath.Join(loc.CommonDir, "packed-refs"))
	if err != nil && !os.IsNotExist(err) {
		return nil, false
	}
	for _, line := range strings.Split(string(packed), "\n") {
		if f := strings.Fields(line); len(f) == 2 && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "^") {
			add(f[1])
		}
	}
	sort.Strings(refs)
	return refs, true
}
