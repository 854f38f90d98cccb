package gitx

import (
	"bytes"
	"compress/zlib"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestShowGivesGitsAnswer: on repositories git reads otherwise than the
// obvious way, or refuses, show's two paths give git's answer: git's own
// (ShowHeaders, what GIT_CONVO_READ_WITH_GIT=1 runs) fails where git fails,
// and the in-process path (ShowInProcess) either prints git's record byte
// for byte or declines, so that git answers. Each case says whether git
// refuses it, so that the test cannot pass on a case that tests nothing.
func TestShowGivesGitsAnswer(t *testing.T) {
	ctx := context.Background()
	type setup func(t *testing.T, r *testRepo) (rev string)
	// stale: topic packed at the first commit, then a loose file for it
	// that git reads (or refuses) otherwise than the packed value.
	stale := func(content func(head string) string) setup {
		return func(t *testing.T, r *testRepo) string {
			first := r.git("rev-list", "--max-parents=0", "HEAD")
			r.git("branch", "topic", first)
			r.git("pack-refs", "--all")
			r.write(".git/refs/heads/topic", content(r.git("rev-parse", "HEAD")))
			return "topic"
		}
	}
	for _, c := range []struct {
		name      string
		setup     setup
		terminal  bool
		gitFails  bool
		inProcess bool // the in-process path must answer (not decline)
	}{
		{"plain", func(t *testing.T, r *testRepo) string { return "HEAD" }, true, false, true},
		{"loose ref without a space", stale(func(string) string { return "ref:refs/heads/main\n" }), false, false, false},
		{"loose ref in upper case", stale(func(h string) string { return strings.ToUpper(h) + "\n" }), false, false, false},
		{"loose ref with trailing text", stale(func(h string) string { return h + " trailing text\n" }), false, false, false},
		{"empty loose ref", stale(func(string) string { return "" }), false, true, false},
		{"HEAD a symlink out of the repository", func(t *testing.T, r *testRepo) string {
			out := filepath.Join(t.TempDir(), "HEAD")
			os.WriteFile(out, []byte(r.git("rev-parse", "HEAD")+"\n"), 0o644)
			head := filepath.Join(r.dir, ".git", "HEAD")
			os.Remove(head)
			if err := os.Symlink(out, head); err != nil {
				t.Skip(err)
			}
			return "HEAD"
		}, false, true, false},
		{"packed-refs garbage line", func(t *testing.T, r *testRepo) string {
			r.git("pack-refs", "--all")
			p := filepath.Join(r.dir, ".git", "packed-refs")
			b, _ := os.ReadFile(p)
			os.WriteFile(p, append(b, "garbage\n"...), 0o644)
			return "main"
		}, false, true, false},
		{"bad pack object checksum", func(t *testing.T, r *testRepo) string {
			head := r.git("rev-parse", "HEAD")
			pack, off, size := packEntry(t, r, head)
			b, _ := os.ReadFile(pack)
			b[off+size-1] ^= 0xff // the last byte of the entry's zlib checksum
			os.Chmod(pack, 0o644)
			os.WriteFile(pack, b, 0o644)
			return "HEAD"
		}, false, true, false},
		{"loose and packed copies differ", func(t *testing.T, r *testRepo) string {
			head := r.git("rev-parse", "HEAD")
			first := r.git("rev-list", "--max-parents=0", "HEAD")
			other, _ := os.ReadFile(looseObjectPath(r, first))
			packEntry(t, r, head) // packs everything, loose copies gone
			p := looseObjectPath(r, head)
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, other, 0o444) // a loose "copy" that is another commit
			return "HEAD"
		}, false, false, true},
		{"loose zlib bomb", func(t *testing.T, r *testRepo) string {
			head := r.commit("to be replaced")
			var buf bytes.Buffer
			zw, _ := zlib.NewWriterLevel(&buf, zlib.BestCompression)
			zw.Write([]byte("commit 10\x00"))
			zw.Write(make([]byte, 8<<20)) // far past the 10 bytes the header gives
			zw.Close()
			p := looseObjectPath(r, head)
			os.Chmod(p, 0o644)
			os.WriteFile(p, buf.Bytes(), 0o444)
			return "HEAD"
		}, false, true, false},
		{"author date before the epoch in a negative zone", func(t *testing.T, r *testRepo) string {
			tree := r.git("rev-parse", "HEAD^{tree}")
			return r.rawCommit("tree " + tree + "\nauthor A <a@b> 100 -0500\ncommitter C <c@d> 1 +0000\n\npre-epoch\n")
		}, false, true, false},
		{"missing second parent", func(t *testing.T, r *testRepo) string {
			tree := r.git("rev-parse", "HEAD^{tree}")
			return r.rawCommit("tree " + tree + "\nparent " + r.git("rev-parse", "HEAD") + "\nparent " + strings.Repeat("1", 40) +
				"\nauthor A <a@b> 1700000000 +0000\ncommitter C <c@d> 1 +0000\n\nmerge\n")
		}, false, true, false},
		{"missing tree", func(t *testing.T, r *testRepo) string {
			return r.rawCommit("tree " + strings.Repeat("2", 40) + "\nparent " + r.git("rev-parse", "HEAD") +
				"\nauthor A <a@b> 1700000000 +0000\ncommitter C <c@d> 1 +0000\n\nno tree\n")
		}, false, true, false},
		{"tree-less partial clone, promisor gone", func(t *testing.T, r *testRepo) string {
			c := r.rawCommit("tree " + strings.Repeat("3", 40) + "\nparent " + r.git("rev-parse", "HEAD") +
				"\nauthor A <a@b> 1700000000 +0000\ncommitter C <c@d> 1 +0000\n\nfiltered\n")
			r.git("remote", "add", "origin", filepath.Join(t.TempDir(), "gone"))
			r.git("config", "remote.origin.promisor", "true")
			r.git("config", "remote.origin.partialclonefilter", "tree:0")
			r.git("config", "extensions.partialClone", "origin")
			return c
		}, false, true, false},
		{"alternates line ending in CRLF", func(t *testing.T, r *testRepo) string {
			other := newTestRepo(t)
			other.write("g", "in the other repository only")
			c := other.commit("elsewhere")
			r.write(".git/objects/info/alternates", filepath.Join(other.dir, ".git", "objects")+"\r\n")
			return c
		}, false, true, false},
		{"notes on refs/notes/commits", func(t *testing.T, r *testRepo) string {
			r.git("notes", "add", "-m", "a note git shows", "HEAD")
			return "HEAD"
		}, false, false, false},
		{"log.showSignature", func(t *testing.T, r *testRepo) string {
			r.git("config", "log.showSignature", "true")
			return "HEAD"
		}, false, false, false},
		{"log.decorate=Short is no style", func(t *testing.T, r *testRepo) string {
			r.git("config", "log.decorate", "Short")
			return "HEAD"
		}, false, false, true},
		{"log.decorate=AUTO on a terminal", func(t *testing.T, r *testRepo) string {
			r.git("config", "log.decorate", "AUTO")
			return "HEAD"
		}, true, false, true},
		{"HEAD names a symbolic branch", func(t *testing.T, r *testRepo) string {
			r.git("symbolic-ref", "refs/heads/alias", "refs/heads/main")
			r.git("symbolic-ref", "HEAD", "refs/heads/alias")
			return "HEAD"
		}, true, false, true},
		{"a lock file and a backup under refs/", func(t *testing.T, r *testRepo) string {
			h := r.git("rev-parse", "HEAD")
			r.write(".git/refs/tags/v1.lock", h+"\n")
			r.write(".git/refs/tags/v1~", h+"\n")
			return "HEAD"
		}, true, false, false},
		{"fully-peeled packed-refs without peel lines", func(t *testing.T, r *testRepo) string {
			r.git("tag", "-a", "-m", "annotated", "v2")
			r.git("pack-refs", "--all")
			p := filepath.Join(r.dir, ".git", "packed-refs")
			b, _ := os.ReadFile(p)
			var keep []string
			for _, l := range strings.SplitAfter(string(b), "\n") {
				if !strings.HasPrefix(l, "^") {
					keep = append(keep, l)
				}
			}
			os.WriteFile(p, []byte(strings.Join(keep, "")), 0o644)
			return "HEAD"
		}, true, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newTestRepo(t)
			r.write("f", "1")
			r.commit("first")
			r.write("f", "2")
			r.commit("second")
			rev := c.setup(t, r)
			want, err := Here(r.dir).ShowHeaders(ctx, []string{rev}, c.terminal, false)
			if (err != nil) != c.gitFails {
				t.Fatalf("git: %v (%d records); want failure %v", err, len(want), c.gitFails)
			}
			repo, ok := Discover(r.dir, os.Getenv)
			if !ok {
				if c.inProcess {
					t.Fatal("Discover declined")
				}
				return
			}
			s, ok := LoadSettingsInProcess(r.dir, os.Getenv)
			if !ok {
				t.Fatal("settings declined")
			}
			rec, _, ok := repo.ShowInProcess(rev, s, c.terminal, os.Getenv)
			switch {
			case ok && c.gitFails:
				t.Errorf("printed %q in process; git refuses", rec.Text)
			case ok && (len(want) != 1 || rec.Text != want[0].Text):
				t.Errorf("in process:\n%q\ngit:\n%+v", rec.Text, want)
			case !ok && c.inProcess:
				t.Errorf("declined; git answers %+v", want)
			}
		})
	}
}

func looseObjectPath(r *testRepo, h string) string {
	return filepath.Join(r.dir, ".git", "objects", h[:2], h[2:])
}

// packEntry packs the repository (loose copies pruned) and returns the
// pack holding h, h's offset and its size in the pack.
func packEntry(t *testing.T, r *testRepo, h string) (string, int, int) {
	t.Helper()
	r.git("repack", "-a", "-d", "-q")
	r.git("prune-packed")
	idxs, _ := filepath.Glob(filepath.Join(r.dir, ".git", "objects", "pack", "*.idx"))
	for _, idx := range idxs {
		for _, l := range strings.Split(r.git("verify-pack", "-v", idx), "\n") {
			f := strings.Fields(l)
			if len(f) >= 5 && f[0] == h {
				size, _ := strconv.Atoi(f[3])
				off, _ := strconv.Atoi(f[4])
				return strings.TrimSuffix(idx, ".idx") + ".pack", off, size
			}
		}
	}
	t.Fatalf("%s in no pack", h)
	return "", 0, 0
}
