package notes

import (
	"context"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestScanHashes(t *testing.T) {
	const h = "0123456789abcdef"
	for _, tc := range []struct {
		in   string
		want int // hashes found
	}{
		{`{"hashes":["` + h + `"]}`, 1},
		{`"` + h + `"` + h + `"`, 2},        // overlapping: git grep -F finds both
		{`{"title":"\"` + h + `"}`, 1},      // after an escaped quote, as grep -F sees it
		{`"` + strings.ToUpper(h) + `"`, 0}, // not a line hash
		{`"x` + h + `"`, 0},                 // 17 characters
		{`"` + h[:15] + `"`, 0},             // 15
		{`"fnv1a64:` + h + `"`, 0},          // a content hash
		{`"` + h + `"` + `,"` + h + `"`, 2}, // each place
		{`"` + h, 0},
		{``, 0},
	} {
		if got := scanHashes([]byte(tc.in), nil); len(got) != tc.want {
			t.Errorf("%s: %d hashes, want %d", tc.in, len(got), tc.want)
		} else if len(got) > 0 && got[0] != 0x0123456789abcdef {
			t.Errorf("%s: %x", tc.in, got[0])
		}
	}
}

// TestMayMention: the kept hashes of a ref's notes say "none" only where
// no note names a line, through a note added later (read from the change),
// a file that is not one (read again whole) and a note over the bound (then
// never "none").
func TestMayMention(t *testing.T) {
	ctx := context.Background()
	g, hashes := repoWithCommits(t, 3)
	ref := TrackingRef("origin")
	refs := []string{ref}
	a, b, c := "00000000000000aa", "00000000000000bb", "00000000000000cc"
	note := func(commit, body string) {
		git(t, g, body, "notes", "--ref", ref, "add", "-f", "-F", "-", commit)
	}
	says := func(h string, want bool) {
		t.Helper()
		if got := g.mayMention(ctx, refs, map[string]bool{h: true}); got != want {
			t.Errorf("mayMention(%s) = %v, want %v", h, got, want)
		}
	}
	if g.mayMention(ctx, refs, map[string]bool{a: true}) {
		t.Error("no notes yet, and a note may name a line")
	}
	note(hashes[0], `{"evidence":[{"hashes":["`+a+`"]}]}`)
	says(a, true)
	says(b, false)
	path, err := g.commonPath(ctx, mentionsFile)
	if err != nil {
		t.Fatal(err)
	}
	note(hashes[1], `{"evidence":[{"hashes":["`+b+`"]}]}`) // the tip moves
	says(b, true)
	says(c, false)
	nh, err := readNoteHashes(path)
	if err != nil {
		t.Fatal(err)
	}
	if tip := git(t, g, "", "rev-parse", ref); nh.tips[ref] != tip || !slices.Equal(nh.hashes, []uint64{0xaa, 0xbb}) {
		t.Errorf("kept: %v %x, want the tip %s and aa, bb", nh.tips, nh.hashes, tip)
	}
	if err := os.WriteFile(path, []byte("not ours\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	says(a, true)
	says(c, false)
	// Cut short by 8 bytes (a hash lost), or one bit flipped: read again.
	for _, damage := range []func([]byte) []byte{
		func(b []byte) []byte { return b[:len(b)-8] },
		func(b []byte) []byte { b[len(b)-1] ^= 1; return b },
	} {
		kept, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, damage(kept), 0o644); err != nil {
			t.Fatal(err)
		}
		says(b, true)
		says(c, false)
	}
	// A replaced note is read through its replacement, whatever the tip.
	blob := git(t, g, "", "rev-parse", ref+":"+hashes[0])
	other := git(t, g, `{"evidence":[{"hashes":["`+c+`"]}]}`, "hash-object", "-w", "--stdin")
	git(t, g, "", "replace", blob, other)
	says(c, true)
	git(t, g, "", "replace", "-d", blob)
	says(c, false)
	note(hashes[2], `{"evidence":[{"hashes":["`+strings.Repeat("x", MaxNoteBytes)+`"]}]}`)
	says(c, true) // a note too big to read may name it
}

// TestDiffsLineWithControlByte: an added line holding \x01 (the byte that
// starts each commit's part of diffs' git log) is a line of its commit:
// the lines after it stay that commit's, and no commit is made up.
func TestDiffsLineWithControlByte(t *testing.T) {
	g, hashes := repoWithCommits(t, 1)
	os.WriteFile(g.Dir+"/a.txt", []byte("first\nx\x01ab cd\nlast line here\n"), 0o644)
	os.WriteFile(g.Dir+"/b.txt", []byte("other file\n"), 0o644)
	git(t, g, "", "add", "-A")
	git(t, g, "", "commit", "-qm", "ctl")
	head := git(t, g, "", "rev-parse", "HEAD")
	diffs, err := g.diffs(context.Background(), []string{hashes[0], head})
	if err != nil {
		t.Fatal(err)
	}
	if len(diffs) != 2 {
		t.Fatalf("commits read: %v, want the two asked", slices.Collect(maps.Keys(diffs)))
	}
	if a, b := diffs[head].added["a.txt"], diffs[head].added["b.txt"]; len(a) != 3 || len(b) != 1 {
		t.Errorf("a.txt %v, b.txt %v: want 3 and 1 added lines", a, b)
	}
}
