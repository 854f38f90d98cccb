package notes

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
)

// TestLinksIndex: the links file says, for every commit and ref, what
// indexEntry says of the note git shows there, through notes added,
// changed and removed (read from the change, and the same bytes as a file
// built whole), a ref added and one gone, a file damaged (built again),
// and a notes tree naming one commit twice (the long way).
func TestLinksIndex(t *testing.T) {
	ctx := context.Background()
	g, hashes := repoWithCommits(t, 6)
	common := filepath.Join(g.Dir, ".git")
	path := filepath.Join(common, linksFile)
	tracking := TrackingRef("origin")
	note := func(ref, commit, body string) {
		git(t, g, body, "notes", "--ref", ref, "add", "-f", "-F", "-", commit)
	}
	usual := func(commit, conv string) string {
		b, err := json.Marshal(record(commit, "w", conv))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tipsOf := func(refs ...string) map[string]string {
		tips := map[string]string{}
		for _, ref := range refs {
			tips[ref] = git(t, g, "", "rev-parse", ref)
		}
		return tips
	}
	local, err := gitx.Open(ctx, g.Dir, false)
	if err != nil {
		t.Fatal(err)
	}
	// check opens the index for refs and holds each commit's entries to
	// the notes git shows, and the file to one built whole.
	check := func(step string, refs ...string) *LinksIndex {
		t.Helper()
		tips := tipsOf(refs...)
		x, err := g.OpenLinksIndex(ctx, common, tips, local)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		t.Cleanup(x.Close)
		if !x.covers(tips) {
			t.Fatalf("%s: the index covers %v, want %v", step, x.tips, tips)
		}
		for _, c := range hashes {
			type entry struct {
				kind        byte
				blob, value string
			}
			var got, want []entry
			x.lookup(c, refs, func(e indexed) { got = append(got, entry{e.kind, hex.EncodeToString(e.blob[:]), e.value}) })
			for _, ref := range slices.Sorted(slices.Values(refs)) {
				cmd := []string{"notes", "--ref", ref, "list", c}
				blob, err := g.run(ctx, nil, cmd...)
				if err != nil {
					continue // no note
				}
				text, err := g.run(ctx, nil, "notes", "--ref", ref, "show", c)
				if err != nil {
					t.Fatal(err)
				}
				k, v := indexEntry(c, string(text))
				want = append(want, entry{k, strings.TrimSpace(string(blob)), v})
			}
			for i := range got { // a long entry's blob tells nothing
				if i < len(want) && got[i].kind == entryLong && want[i].kind == entryLong {
					got[i].blob = want[i].blob
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %.7s: entries %q, want %q", step, c, got, want)
			}
		}
		whole, err := g.updateLinks(ctx, nil, tips, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(whole.entries, x.entries) || !bytes.Equal(whole.heap, x.heap) {
			t.Errorf("%s: the index differs from one built whole", step)
		}
		read, err := readLinksIndex(path)
		if err != nil || !read.covers(tips) {
			t.Errorf("%s: the file kept: %v", step, err)
		}
		read.Close()
		return x
	}

	note(Ref, hashes[0], usual(hashes[0], "a"))
	note(Ref, hashes[1], usual(hashes[1], "b"))
	note(Ref, hashes[2], "two records\nor text")
	check("first", Ref)

	note(Ref, hashes[0], usual(hashes[0], "a2")) // changed
	git(t, g, "", "notes", "--ref", Ref, "remove", hashes[1])
	note(Ref, hashes[3], usual(hashes[3], "d"))         // added
	note(Ref, hashes[4], usual(hashes[0], "elsewhere")) // about another commit: the long way
	x := check("changed", Ref)
	kinds := ""
	for _, c := range hashes[:5] {
		x.lookup(c, []string{Ref}, func(e indexed) { kinds += string(e.kind) })
	}
	if kinds != "mlml" {
		t.Errorf("kinds %q, want mlml (commit 1 has no note)", kinds)
	}

	note(tracking, hashes[0], usual(hashes[0], "t"))
	note(tracking, hashes[5], usual(hashes[5], "t"))
	check("a ref added", Ref, tracking)

	// A file cut short is built again, not read as fewer notes.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b[:len(b)-3], 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := readLinksIndex(path); err == nil {
		t.Error("a file cut short is read")
	}
	note(Ref, hashes[5], usual(hashes[5], "f"))
	check("damaged", Ref, tracking)

	// A value damaged: that note is read, the file goes at Close, and an
	// update reads every note again.
	b, err = os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-2] ^= 0x20 // in the last value (the heap ends the file)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	x, err = readLinksIndex(path)
	if err != nil {
		t.Fatalf("a damaged value fails the whole file: %v", err)
	}
	long := 0
	for _, c := range hashes {
		x.lookup(c, []string{Ref, tracking}, func(e indexed) {
			if e.kind == entryLong && e.value == "" {
				long++
			}
		})
	}
	if !x.damaged || long < 2 { // hashes[2]'s note, and the damaged one
		t.Errorf("a damaged value: damaged %v, %d long entries", x.damaged, long)
	}
	x.Close()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a damaged file is kept: %v", err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	x = check("a ref gone", tracking)
	n := 0
	x.lookup(hashes[3], []string{Ref, tracking}, func(indexed) { n++ })
	if n != 0 {
		t.Error("a ref no longer indexed still answers")
	}

	// A notes tree naming hashes[1] twice, fanned out and not.
	blob := func(s string) string { return git(t, g, s, "hash-object", "-w", "--stdin") }
	c := hashes[1]
	sub := git(t, g, "100644 blob "+blob(usual(c, "x"))+"\t"+c[2:]+"\n", "mktree")
	top := git(t, g, "100644 blob "+blob(usual(c, "y"))+"\t"+c+"\n040000 tree "+sub+"\t"+c[:2]+"\n", "mktree")
	git(t, g, "", "update-ref", "refs/notes/twice", git(t, g, "", "commit-tree", "-m", "n", top))
	x = check("twice", "refs/notes/twice")
	kinds = ""
	x.lookup(c, []string{"refs/notes/twice"}, func(e indexed) { kinds += string(e.kind) })
	if kinds != "l" {
		t.Errorf("a commit noted twice on one ref: kinds %q, want l", kinds)
	}
}

// FuzzIndexEntry: what the links index keeps of a note gives the links
// the note's text gives, wherever it answers (and it answers for the usual
// shapes).
func FuzzIndexEntry(f *testing.F) {
	const commit = "1111111111111111111111111111111111111111"
	for _, raw := range linksMetaCases {
		f.Add(noteLine(commit, raw))
	}
	f.Add(noteLine(commit, `{"format":1,"conversations":{"x":{"title":"A"},"y":{},"x":{"title":"B"}}}`))
	f.Add(`{"files":[],"metadata":null,"vcs":{"revision":"` + commit + `"}}`)
	f.Add("\n " + noteLine(commit, `{"format":1,"writer":"w","conversations":{"b":{"confidence":0.5}}}`) + "\n")
	f.Fuzz(func(t *testing.T, text string) {
		kind, value := indexEntry(commit, text)
		if kind == entryLong {
			if value != "" {
				t.Errorf("a long entry keeps %q", value)
			}
			return
		}
		got := linkedIndexed(commit, kind, value)
		want := linkedFromNote(commit, nil, text)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q (%c %q):\n got %+v\nwant %+v", text, kind, value, got, want)
		}
	})
}

// TestIndexEntry: the usual notes are kept by their metadata, shorter than
// the note; the rest are read the long way.
func TestIndexEntry(t *testing.T) {
	const commit = "1111111111111111111111111111111111111111"
	meta := `{"format":1,"writer":"w","conversations":{"b":{"confidence":0.5,"title":"T"}}}`
	for _, tc := range []struct {
		text string
		kind byte
	}{
		{noteLine(commit, meta), entryMeta},
		{noteLine(commit, meta) + "\n", entryMeta},
		{noteLine(commit, meta) + "\n" + noteLine(commit, meta), entryLong},
		{noteLine("2222222222222222222222222222222222222222", meta), entryLong},
		{strings.Replace(noteLine(commit, meta), `"format"`, `"withdrawn":["b"],"format"`, 1), entryLong},
		{`{"vcs":{"revision":"` + commit + `"}}`, entryNone},
		{"", entryLong},
	} {
		kind, value := indexEntry(commit, tc.text)
		if kind != tc.kind {
			t.Errorf("%.60q: kind %c, want %c", tc.text, kind, tc.kind)
		}
		if kind == entryMeta && len(value) >= len(tc.text) {
			t.Errorf("%.60q: keeps %d bytes of %d", tc.text, len(value), len(tc.text))
		}
		var want []store.LinkedConversation
		if kind != entryLong {
			want = linkedFromNote(commit, nil, tc.text)
		}
		if kind == entryMeta && len(want) == 0 {
			t.Errorf("%.60q: no links to compare", tc.text)
		}
		if got := linkedIndexed(commit, kind, value); kind != entryLong && !reflect.DeepEqual(got, want) {
			t.Errorf("%.60q: %+v, want %+v", tc.text, got, want)
		}
	}
}

// setNotes points ref at a notes commit whose tree holds files (path ->
// note text; a path may fan out into directories).
func setNotes(t *testing.T, g Git, ref string, files map[string]string) {
	t.Helper()
	var tree func(files map[string]string) string
	tree = func(files map[string]string) string {
		dirs := map[string]map[string]string{}
		var lines []string
		for p, text := range files {
			if d, rest, ok := strings.Cut(p, "/"); ok {
				if dirs[d] == nil {
					dirs[d] = map[string]string{}
				}
				dirs[d][rest] = text
				continue
			}
			lines = append(lines, "100644 blob "+git(t, g, text, "hash-object", "-w", "--stdin")+"\t"+p)
		}
		for d, sub := range dirs {
			lines = append(lines, "040000 tree "+tree(sub)+"\t"+d)
		}
		slices.Sort(lines)
		return git(t, g, strings.Join(lines, "\n")+"\n", "mktree")
	}
	git(t, g, "", "update-ref", ref, git(t, g, "", "commit-tree", "-m", "notes", tree(files)))
}

// TestLinksIndexNotePaths: through each change of a notes tree, log's
// links from the file (MergeLinkedIndexed, the rest from their notes) are
// what reading every note gives (MergeLinked: log --no-notes), and the
// file brought up to date is the file built whole: a commit noted at two
// paths (fanned out and not, as git notes merge and fast-import leave
// them), one of them changed, removed or added; a fan-out made; a path git
// reads as no note.
func TestLinksIndexNotePaths(t *testing.T) {
	ctx := context.Background()
	g, hashes := repoWithCommits(t, 3)
	c, d := hashes[1], hashes[2]
	fan := func(h string) string { return h[:2] + "/" + h[2:] }
	note := func(commit, conv string) string {
		b, err := json.Marshal(record(commit, "w", conv))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, step := range []struct {
		name  string
		files map[string]string
		want  map[string]string // commit -> its conversations, joined
	}{
		{"one note", map[string]string{c: note(c, "x"), d: note(d, "z")}, map[string]string{c: "x", d: "z"}},
		{"a second path added", map[string]string{c: note(c, "x"), fan(c): note(c, "y"), d: note(d, "z")}, map[string]string{c: "x y", d: "z"}},
		{"one of two changed", map[string]string{c: note(c, "x2"), fan(c): note(c, "y"), d: note(d, "z")}, map[string]string{c: "x2 y", d: "z"}},
		{"one of two removed", map[string]string{fan(c): note(c, "y"), d: note(d, "z")}, map[string]string{c: "y", d: "z"}},
		{"fanned out", map[string]string{fan(c): note(c, "y"), fan(d): note(d, "z")}, map[string]string{c: "y", d: "z"}},
		{"a path git reads as no note", map[string]string{fan(c): note(c, "y"), d[:3] + "/" + d[3:]: note(d, "z")}, map[string]string{c: "y"}},
	} {
		setNotes(t, g, Ref, step.files)
		rd := NewInlineReaderAfter(ctx, g.Dir, nil)
		x, err := rd.LinksIndex(ctx)
		if err != nil || x == nil {
			t.Fatalf("%s: no index: %v", step.name, err)
		}
		got := map[string][]store.LinkedConversation{}
		if err := rd.MergeLinked(ctx, rd.MergeLinkedIndexed(hashes, x, got), got); err != nil {
			t.Fatal(err)
		}
		want := map[string][]store.LinkedConversation{}
		if err := rd.MergeLinked(ctx, hashes, want); err != nil {
			t.Fatal(err)
		}
		ids := func(m map[string][]store.LinkedConversation) map[string]string {
			out := map[string]string{}
			for h, lcs := range m {
				var convs []string
				for _, lc := range lcs {
					convs = append(convs, lc.ConversationID)
				}
				slices.Sort(convs)
				out[h] = strings.Join(convs, " ")
			}
			return out
		}
		if g, w := ids(got), ids(want); !reflect.DeepEqual(g, w) || !reflect.DeepEqual(w, step.want) {
			t.Errorf("%s: from the file %v, from the notes %v, want %v", step.name, g, w, step.want)
		}
		whole, err := g.updateLinks(ctx, nil, x.tips, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(whole.entries, x.entries) || !bytes.Equal(whole.heap, x.heap) {
			t.Errorf("%s: the file brought up to date differs from one built whole", step.name)
		}
		x.Close()
		rd.Close()
	}
}

// TestLinksIndexOwnFromLive: in a clone that shares, with a tracking ref
// it has not merged (a plain git fetch moved it), log's links from the
// file are what reading every note gives, where this clone's records come
// from the live ref alone: the file answers where the live ref holds the
// commit's note and any other ref the same note, and the rest are read.
func TestLinksIndexOwnFromLive(t *testing.T) {
	ctx := context.Background()
	g, hs := repoWithCommits(t, 8)
	git(t, g, "", "config", KeyWriter, "me@x")
	note := func(commit, writer, conv string) string { return noteText(t, commit, writer, conv) }
	mine, theirs := note(hs[0], "me@x", "m0"), note(hs[3], "t@x", "t3")
	setNotes(t, g, Ref, map[string]string{
		hs[0]: mine,                       // the same note on both refs
		hs[2]: note(hs[2], "me@x", "m2b"), // this clone's record rewritten since
		hs[3]: theirs,                     // a teammate's, merged before
		hs[5]: note(hs[5], "t@x", "t5a"),  // a teammate's, changed by them since
		hs[6]: note(hs[6], "me@x", "m6"),  // on the live ref alone
	})
	setNotes(t, g, TrackingRef("origin"), map[string]string{
		hs[0]: mine,
		hs[1]: note(hs[1], "me@x", "m1"), // unlinked here since: not on the live ref
		hs[2]: note(hs[2], "me@x", "m2a"),
		hs[3]: theirs,
		hs[4]: note(hs[4], "t@x", "t4"), // a teammate's, new
		hs[5]: note(hs[5], "t@x", "t5b"),
	})
	rd := NewInlineReaderAfter(ctx, g.Dir, nil)
	defer rd.Close()
	if !rd.OwnFromLive() {
		t.Fatal("the tracking ref is read beside the live ref, and this clone's records told apart")
	}
	x, err := rd.LinksIndex(ctx)
	if err != nil || x == nil {
		t.Fatalf("no links file: %v", err)
	}
	defer x.Close()
	got := map[string][]store.LinkedConversation{}
	rest := rd.MergeLinkedIndexed(hs, x, got)
	if err := rd.MergeLinked(ctx, rest, got); err != nil {
		t.Fatal(err)
	}
	want := map[string][]store.LinkedConversation{}
	if err := rd.MergeLinked(ctx, hs, want); err != nil {
		t.Fatal(err)
	}
	ids := func(m map[string][]store.LinkedConversation) []string {
		out := make([]string, len(hs))
		for i, h := range hs {
			var convs []string
			for _, lc := range m[h] {
				convs = append(convs, lc.ConversationID)
			}
			slices.Sort(convs)
			out[i] = strings.Join(convs, " ")
		}
		return out
	}
	wantIDs := []string{"m0", "", "m2b", "t3", "t4", "t5a t5b", "m6", ""}
	if g, w := ids(got), ids(want); !reflect.DeepEqual(g, w) || !reflect.DeepEqual(w, wantIDs) {
		t.Errorf("from the file %q, from the notes %q, want %q", g, w, wantIDs)
	}
	if wantRest := []string{hs[1], hs[2], hs[4], hs[5]}; !reflect.DeepEqual(rest, wantRest) {
		t.Errorf("read from the notes: %.7s, want %.7s", rest, wantRest)
	}
	// The note both refs hold is kept once.
	var at []string
	for i := 0; i < len(x.entries); i += linksEntrySize {
		if e := x.entries[i : i+linksEntrySize]; hex.EncodeToString(e[:20]) == hs[0] {
			at = append(at, hex.EncodeToString(e[entOff:linksEntrySize]))
		}
	}
	if len(at) != 2 || at[0] != at[1] {
		t.Errorf("the note on both refs: values at %q, want one value", at)
	}
}

// TestLinksIndexSHA256: the file keeps SHA-1 hashes; a repository of
// SHA-256 objects has none, and its notes are read as before, not found
// missing.
func TestLinksIndexSHA256(t *testing.T) {
	ctx := context.Background()
	g := Git{Dir: t.TempDir(), Env: gitEnv(t)}
	if _, err := g.run(ctx, nil, "init", "-q", "--object-format=sha256"); err != nil {
		t.Skipf("this git makes no SHA-256 repository: %v", err)
	}
	git(t, g, "", "commit", "-q", "--allow-empty", "-m", "one")
	h := strings.TrimSpace(git(t, g, "", "rev-parse", "HEAD"))
	b, err := json.Marshal(record(h, "w", "c"))
	if err != nil {
		t.Fatal(err)
	}
	git(t, g, "", "notes", "--ref", Ref, "add", "-m", string(b), h)
	rd := NewInlineReaderAfter(ctx, g.Dir, nil)
	defer rd.Close()
	if len(rd.Refs()) != 1 {
		t.Fatalf("refs %v", rd.Refs())
	}
	if x, err := rd.LinksIndex(ctx); x != nil || err != nil {
		x.Close()
		t.Errorf("a links file for SHA-256 objects (%v)", err)
	}
}

func TestNotePath(t *testing.T) {
	const h = "0123456789abcdef0123456789abcdef01234567"
	for _, tc := range []struct{ path, want string }{
		{h, h},
		{h[:2] + "/" + h[2:], h},
		{h[:2] + "/" + h[2:4] + "/" + h[4:], h},
		{strings.ToUpper(h), strings.ToUpper(h)}, // git reads either case
		{h[:3] + "/" + h[3:], ""},                // a directory of three digits
		{h[:1] + "/" + h[1:], ""},
		{h[:39], ""},
		{h + "0", ""},
		{h[:2] + "/" + h[2:] + "/x", ""},
		{"zz/" + h[2:], ""},
		{h[:2] + "//" + h[2:], ""},
		{"", ""},
	} {
		if got := notePath([]byte(tc.path)); got != tc.want {
			t.Errorf("notePath(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// FuzzParseLinksIndex: the links file is read from disk, where anything may
// have written it: whatever its bytes, parsing them never panics; a file
// it accepts answers every lookup (each entry's commit, on its refs)
// without reading past its values, and is what it writes again.
// TestParseLinksIndexCounts: a header's counts must fit the bytes after
// it. A count whose product with the entry size wraps around an int to the
// number of bytes there once panicked (an entry sliced past the end).
func TestParseLinksIndexCounts(t *testing.T) {
	entry := bytes.Repeat([]byte{0}, linksEntrySize)
	for _, tc := range []struct {
		name   string
		counts string // entries and heap bytes; the checksum is the body's
		body   []byte
	}{
		{"a count whose product wraps to 2 bytes", fmt.Sprintf("%d 0", 341606371735362067), []byte{0, 0}},
		{"a count past the bytes", "3 0", entry},
		{"a heap past the bytes", "0 99", nil},
		{"negative", "-1 54", entry},
		{"a heap that wraps", fmt.Sprintf("0 %d", uint64(1)<<63-1), entry},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := fmt.Appendf(nil, "%s%s %s\nentries %s %d\n\n", linksHeader, Ref, strings.Repeat("c", 40), tc.counts, checksum(tc.body))
			if x, err := parseLinksIndex("f", append(file, tc.body...)); err == nil {
				t.Errorf("accepted, %d entries", len(x.entries)/linksEntrySize)
			}
		})
	}
}

func FuzzParseLinksIndex(f *testing.F) {
	a, b := [20]byte{1}, [20]byte{2}
	x, err := buildLinksIndex(map[string]string{Ref: strings.Repeat("c", 40), TrackingRef("origin"): strings.Repeat("d", 40)}, []linksEntry{
		{commit: b, ref: Ref, kind: entryMeta, value: []byte(`{"format":1,"conversations":{"x":{}}}`)},
		{commit: a, ref: TrackingRef("origin"), kind: entryNone},
		{commit: a, ref: Ref, kind: entryLong},
	})
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	tmp, err := os.CreateTemp(dir, "links")
	if err != nil {
		f.Fatal(err)
	}
	path := filepath.Join(dir, "file")
	if err := writeLinksIndex(tmp, path, x); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good, uint8(0))
	f.Add(good[:len(good)-3], uint8(0))
	f.Add(append(slices.Clone(x.entries), x.heap...), uint8(3))
	f.Add([]byte(strings.Repeat("\xff", linksEntrySize)), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, n uint8) {
		if n > 0 {
			// data is n%8 entries and the values: a file whose counts and
			// checksum agree, for the checks past them.
			k := int(n % 8)
			if len(data) < k*linksEntrySize {
				return
			}
			entries, heap := data[:k*linksEntrySize], data[k*linksEntrySize:]
			refs := slices.Sorted(maps.Keys(x.tips))
			file := fmt.Appendf(nil, "%s%s %s\n%s %s\nentries %d %d %d\n\n", linksHeader, refs[0], x.tips[refs[0]],
				refs[1], x.tips[refs[1]], k, len(heap), checksum(entries))
			data = append(append(file, entries...), heap...)
		}
		x, err := parseLinksIndex("file", data)
		if err != nil {
			return
		}
		for i := 0; i+linksEntrySize <= len(x.entries); i += linksEntrySize {
			commit := hex.EncodeToString(x.entries[i : i+20])
			x.lookup(commit, x.refs, func(indexed) {})
		}
		dir := t.TempDir()
		tmp, err := os.CreateTemp(dir, "links")
		if err != nil {
			t.Fatal(err)
		}
		if err := writeLinksIndex(tmp, filepath.Join(dir, "file"), x); err != nil {
			t.Fatal(err)
		}
		again, err := readLinksIndex(filepath.Join(dir, "file"))
		if err != nil {
			t.Fatalf("%q, written again: %v", data, err)
		}
		defer again.Close()
		if !reflect.DeepEqual(again.refs, x.refs) || !reflect.DeepEqual(again.tips, x.tips) ||
			!bytes.Equal(again.entries, x.entries) || !bytes.Equal(again.heap, x.heap) {
			t.Errorf("%q: written again, another file", data)
		}
	})
}

// TestOwnFromLiveNoteOfAnotherCommit: where the live ref holds a note's
// blob for one commit (git notes copy) and a tracking ref not merged holds
// the same blob for another whose record this clone has since removed, the
// removed record stays removed, whether a few commits are read (by path)
// or many (from the listed notes, which once took the blob alone for the
// live ref's), and through the links file.
func TestOwnFromLiveNoteOfAnotherCommit(t *testing.T) {
	ctx := context.Background()
	g, hs := repoWithCommits(t, byPathMax+6)
	git(t, g, "", "config", KeyWriter, "me@x")
	note := func(commit, writer, conv string) string { return noteText(t, commit, writer, conv) }
	mine := note(hs[0], "me@x", "m0")
	setNotes(t, g, Ref, map[string]string{hs[1]: mine})
	setNotes(t, g, TrackingRef("origin"), map[string]string{hs[0]: mine, hs[2]: note(hs[2], "t@x", "t2")})
	for _, tc := range []struct {
		name   string
		hashes []string
	}{
		{"by path", hs[:3]},
		{"listed", hs},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rd := NewInlineReaderAfter(ctx, g.Dir, nil)
			defer rd.Close()
			if !rd.OwnFromLive() {
				t.Fatal("the tracking ref is not merged: this clone's records come from the live ref")
			}
			notes := map[string][]store.LinkedConversation{}
			if err := rd.MergeLinked(ctx, tc.hashes, notes); err != nil {
				t.Fatal(err)
			}
			x, err := rd.LinksIndex(ctx)
			if err != nil || x == nil {
				t.Fatalf("no links file: %v", err)
			}
			defer x.Close()
			file := map[string][]store.LinkedConversation{}
			if err := rd.MergeLinked(ctx, rd.MergeLinkedIndexed(tc.hashes, x, file), file); err != nil {
				t.Fatal(err)
			}
			for how, m := range map[string]map[string][]store.LinkedConversation{"notes": notes, "file": file} {
				if len(m[hs[0]]) != 0 || len(m[hs[2]]) != 1 {
					t.Errorf("from the %s: %d links on the commit unlinked here (want 0), %d on a teammate's (want 1)",
						how, len(m[hs[0]]), len(m[hs[2]]))
				}
			}
		})
	}
}

// noteText is a note of one record, as a line of JSON.
func noteText(t *testing.T, commit, writer, conv string) string {
	t.Helper()
	b, err := json.Marshal(record(commit, writer, conv))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSortEntries: the merge of a sorted run and the rest orders entries
// as a sort of the whole does, whatever the run's length and where the
// rest falls.
func TestSortEntries(t *testing.T) {
	e := func(c, at byte) linksEntry { return linksEntry{commit: [20]byte{c}, at: at} }
	for _, tc := range []struct {
		name string
		in   []linksEntry
	}{
		{"none", nil},
		{"one", []linksEntry{e(1, 0)}},
		{"sorted", []linksEntry{e(1, 0), e(1, 1), e(2, 0), e(3, 0)}},
		{"reversed", []linksEntry{e(3, 0), e(2, 1), e(2, 0), e(1, 0)}},
		{"the rest between", []linksEntry{e(1, 0), e(4, 0), e(6, 0), e(5, 0), e(2, 0), e(4, 1)}},
		{"the rest before all", []linksEntry{e(5, 0), e(6, 0), e(2, 0), e(1, 0)}},
		{"the rest after all", []linksEntry{e(1, 0), e(2, 0), e(9, 0), e(8, 0)}},
		{"refs of one commit", []linksEntry{e(1, 1), e(2, 0), e(1, 0), e(2, 2)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, want := slices.Clone(tc.in), slices.Clone(tc.in)
			sortEntries(got)
			slices.SortFunc(want, func(a, b linksEntry) int {
				if c := bytes.Compare(a.commit[:], b.commit[:]); c != 0 {
					return c
				}
				return int(a.at) - int(b.at)
			})
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

// TestNotesChangeInProcess: the links file's update reads which notes a
// ref's move changed, and every note the new tip holds for them, from the
// object files (gitx.TreeReader) as git diff-tree and git ls-tree answer
// them, through notes trees git writes and ones it only reads: fanned out
// at one level and two, a commit noted flat and fanned out at once, a
// mode changed alone, blobs
// that are no note, a directory with a note's name, a symlink, a
// submodule's commit, a path in upper case (an error both ways).
func TestNotesChangeInProcess(t *testing.T) {
	ctx := context.Background()
	g, hs := repoWithCommits(t, 4)
	local, err := gitx.Open(ctx, g.Dir, false)
	if err != nil {
		t.Fatal(err)
	}
	trees := local.NewTreeReader(g.getenv)
	defer trees.Close()
	fan1 := func(c string) string { return c[:2] + "/" + c[2:] }
	fan2 := func(c string) string { return c[:2] + "/" + c[2:4] + "/" + c[4:] }
	type file struct{ mode, path, body string }
	steps := []struct {
		name  string
		files []file
	}{
		{"flat", []file{{"100644", hs[0], "a"}, {"100644", hs[1], "b"}}},
		{"one changed, one added", []file{{"100644", hs[0], "a2"}, {"100644", hs[1], "b"}, {"100644", hs[2], "c"}}},
		{"fanned out", []file{{"100644", fan1(hs[0]), "a2"}, {"100644", fan1(hs[1]), "b"}, {"100644", fan1(hs[2]), "c"}}},
		{"flat and fanned out at once", []file{{"100644", fan1(hs[0]), "a2"}, {"100644", hs[0], "a3"}, {"100644", fan1(hs[1]), "b"}}},
		{"two levels", []file{{"100644", fan2(hs[0]), "a3"}, {"100644", fan1(hs[1]), "b"}, {"100755", fan2(hs[3]), "d"}}},
		{"a mode changed", []file{{"100644", fan2(hs[0]), "a3"}, {"100644", fan1(hs[1]), "b"}, {"100644", fan2(hs[3]), "d"}}},
		{"no notes beside", []file{{"100644", fan2(hs[0]), "a3"}, {"100644", "README", "r"}, {"100644", hs[1][:2] + "/x", "x"}, {"100644", hs[3] + "/inside", "d"}}},
		{"a symlink and a submodule", []file{{"120000", hs[0], "target"}, {"160000", fan1(hs[1]), hs[2]}, {"100644", hs[3], "d2"}}},
		{"in upper case", []file{{"120000", hs[0], "target"}, {"100644", strings.ToUpper(hs[2]), "C"}}},
		{"all gone", nil},
	}
	var tips []string
	for i, step := range steps {
		var script strings.Builder
		fmt.Fprintf(&script, "commit refs/notes/inprocess\ncommitter A <a@x> %d +0000\ndata 0\n", 1700000000+i)
		if i > 0 {
			fmt.Fprintf(&script, "from %s\n", tips[i-1])
		}
		script.WriteString("deleteall\n")
		for _, f := range step.files {
			if f.mode == "160000" {
				fmt.Fprintf(&script, "M 160000 %s %s\n", f.body, f.path)
				continue
			}
			fmt.Fprintf(&script, "M %s inline %s\ndata %d\n%s\n", f.mode, f.path, len(f.body), f.body)
		}
		script.WriteString("done\n")
		git(t, g, script.String(), "fast-import", "--quiet", "--done")
		tips = append(tips, git(t, g, "", "rev-parse", "refs/notes/inprocess"))
		if i == 0 {
			continue
		}
		t.Run(step.name, func(t *testing.T) {
			if _, ok := trees.ChangedPaths(tips[i-1], tips[i]); !ok {
				t.Fatal("the object files do not answer: the test compares git with git")
			}
			viaGit, gerr := g.changedNotes(ctx, nil, tips[i-1], tips[i])
			inProcess, perr := g.changedNotes(ctx, trees, tips[i-1], tips[i])
			if (gerr == nil) != (perr == nil) || !reflect.DeepEqual(viaGit, inProcess) {
				t.Fatalf("changed: in process %v (%v), git %v (%v)", inProcess, perr, viaGit, gerr)
			}
			if gerr != nil {
				return
			}
			asked := maps.Clone(viaGit)
			for _, h := range hs { // and commits the move did not touch
				k, _ := hashKey(h)
				asked[k] = true
			}
			at := func(trees *gitx.TreeReader) []string {
				var out []string
				if err := g.notesAt(ctx, trees, tips[i], asked, func(commit, blob string) { out = append(out, commit+" "+blob) }); err != nil {
					t.Fatal(err)
				}
				slices.Sort(out)
				return out
			}
			if p, v := at(trees), at(nil); !reflect.DeepEqual(p, v) {
				t.Errorf("notes at the tip: in process %q, git %q", p, v)
			}
		})
	}
}

// TestNotesChangeInProcessOddTrees: notes trees no git command writes but
// git reads (a directory's mode zero-padded or with other bits, a file's
// with group write, a path named twice, a file and a directory of one
// name, entries out of order): the update reads them as git does, from
// the objects or by asking git, and the file brought up to date is the
// file built whole. (The zero-padded fan-out once left the old note in
// the file: the directory read as a file.)
func TestNotesChangeInProcessOddTrees(t *testing.T) {
	ctx := context.Background()
	g, hs := repoWithCommits(t, 2)
	c := hs[0]
	local, err := gitx.Open(ctx, g.Dir, false)
	if err != nil {
		t.Fatal(err)
	}
	trees := local.NewTreeReader(g.getenv)
	defer trees.Close()
	blob := func(conv string) string {
		return git(t, g, noteText(t, c, "w", conv), "hash-object", "-w", "--stdin")
	}
	// tree writes a tree of entries "<mode> <name> <hash>" as they are.
	tree := func(entries ...string) string {
		var raw strings.Builder
		for _, e := range entries {
			f := strings.Fields(e)
			k, err := hex.DecodeString(f[2])
			if err != nil {
				t.Fatal(err)
			}
			raw.WriteString(f[0] + " " + f[1] + "\x00" + string(k))
		}
		return git(t, g, raw.String(), "hash-object", "-t", "tree", "--literally", "-w", "--stdin")
	}
	one, two := blob("one"), blob("two")
	fanned := func(dirMode, fileMode, b string) string {
		return tree(dirMode + " " + c[:2] + " " + tree(fileMode+" "+c[2:]+" "+b))
	}
	for _, tc := range []struct{ name, from, to string }{
		{"a directory's mode zero-padded", fanned("040000", "100644", one), fanned("040000", "100644", two)},
		{"a directory's mode with other bits", fanned("40000", "100644", one), fanned("40755", "100644", two)},
		{"a file's mode with group write", fanned("40000", "100644", one), fanned("40000", "100664", one)},
		{"the note's mode changed alone", fanned("40000", "100644", one), fanned("40000", "100755", one)},
		{"a path named twice", tree("100644 " + c + " " + one), tree("100644 "+c+" "+one, "100644 "+c+" "+two)},
		{"a file and a directory of one name", fanned("40000", "100644", one),
			tree("100644 "+c[:2]+" "+one, "40000 "+c[:2]+" "+tree("100644 "+c[2:]+" "+two))},
		{"entries out of order", tree("100644 " + c + " " + one),
			tree("100644 "+hs[1]+" "+one, "100644 "+c+" "+two)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			from := git(t, g, "", "commit-tree", "-m", "from", tc.from)
			to := git(t, g, "", "commit-tree", "-m", "to", "-p", from, tc.to)
			viaGit, gerr := g.changedNotes(ctx, nil, from, to)
			inProcess, perr := g.changedNotes(ctx, trees, from, to)
			if (gerr == nil) != (perr == nil) || !reflect.DeepEqual(viaGit, inProcess) {
				t.Fatalf("changed: in process %v (%v), git %v (%v)", inProcess, perr, viaGit, gerr)
			}
			old, err := g.updateLinks(ctx, nil, map[string]string{Ref: from}, nil)
			if err != nil {
				t.Fatal(err)
			}
			x, err := g.updateLinks(ctx, old, map[string]string{Ref: to}, trees)
			if err != nil {
				t.Fatal(err)
			}
			whole, err := g.updateLinks(ctx, nil, map[string]string{Ref: to}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(x.entries, whole.entries) || !bytes.Equal(x.heap, whole.heap) {
				t.Errorf("brought up to date: %x %q; built whole: %x %q", x.entries, x.heap, whole.entries, whole.heap)
			}
		})
	}
}

// TestLinksIndexUpperCaseBeside: a commit noted at a path in upper case
// (no git command writes one; git reads it) and at one in lower case:
// git joins the two notes. When only the lower-case one changes, the file
// brought up to date reads the ref whole, as one built whole does, where
// a look-up of the touched paths found one note of the two. The mark
// that says so survives a move of another ref and the file's rereading.
func TestLinksIndexUpperCaseBeside(t *testing.T) {
	ctx := context.Background()
	g, hs := repoWithCommits(t, 3)
	c, d := hs[1], hs[2]
	common := filepath.Join(g.Dir, ".git")
	local, err := gitx.Open(ctx, g.Dir, false)
	if err != nil {
		t.Fatal(err)
	}
	fan := func(h string) string { return h[:2] + "/" + h[2:] }
	note := func(commit, conv string) string { return noteText(t, commit, "w", conv) }
	tracking := TrackingRef("origin")
	for _, step := range []struct {
		name  string
		ref   string
		files map[string]string
		whole bool // the live ref's mark after the step
	}{
		{"lower case only", Ref, map[string]string{fan(c): note(c, "x"), d: note(d, "z")}, false},
		{"upper case beside", Ref, map[string]string{strings.ToUpper(c): note(c, "u"), fan(c): note(c, "x"), d: note(d, "z")}, true},
		{"the lower-case one changed", Ref, map[string]string{strings.ToUpper(c): note(c, "u"), fan(c): note(c, "x2"), d: note(d, "z")}, true},
		{"another ref moved", tracking, map[string]string{d: note(d, "t")}, true},
		{"the lower-case one changed again", Ref, map[string]string{strings.ToUpper(c): note(c, "u"), fan(c): note(c, "x3"), d: note(d, "z")}, true},
		{"upper case gone", Ref, map[string]string{fan(c): note(c, "x3"), d: note(d, "z2")}, false}, // read whole once more, and no mark
		{"lower case only again", Ref, map[string]string{fan(c): note(c, "x4"), d: note(d, "z2")}, false},
	} {
		setNotes(t, g, step.ref, step.files)
		tips := map[string]string{Ref: git(t, g, "", "rev-parse", Ref)}
		if tip, err := g.run(ctx, nil, "rev-parse", "--verify", "-q", tracking); err == nil {
			tips[tracking] = strings.TrimSpace(string(tip))
		}
		x, err := g.OpenLinksIndex(ctx, common, tips, local)
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		whole, err := g.updateLinks(ctx, nil, tips, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(whole.entries, x.entries) || !bytes.Equal(whole.heap, x.heap) {
			t.Errorf("%s: the file brought up to date differs from one built whole", step.name)
		}
		x.Close()
		kept, err := readLinksIndex(filepath.Join(common, linksFile))
		if err != nil {
			t.Fatal(err)
		}
		if kept.whole[Ref] != step.whole {
			t.Errorf("%s: the live ref read whole at its next move: %v, want %v", step.name, kept.whole[Ref], step.whole)
		}
		kept.Close()
	}
}
