package gitx

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// ResolveInProcess agrees with git rev-parse on every form it takes, and
// declines the rest.
func TestResolveInProcess(t *testing.T) {
	r := newTestRepo(t)
	for i := range 4 {
		r.write("f", string(rune('a'+i)))
		r.commit("c")
	}
	r.git("checkout", "-q", "-b", "side", "HEAD~2")
	r.write("s", "s")
	r.commit("side")
	r.git("checkout", "-q", "main")
	r.at("merge", "-q", "--no-edit", "side")
	r.git("tag", "-a", "-m", "annotated", "v1", "HEAD~1")
	r.git("tag", "light", "HEAD~2")
	r.git("pack-refs", "--all")
	r.git("branch", "loose", "HEAD~3")
	r.git("update-ref", "refs/remotes/origin/HEAD", "HEAD^2")
	sub := filepath.Join(r.dir, "sub")
	os.MkdirAll(sub, 0o755)
	repo, ok := Discover(sub, os.Getenv)
	if !ok {
		t.Fatal("Discover declined a plain repository")
	}
	if repo.TopLevel != realPath(t, r.dir) && repo.TopLevel != r.dir {
		t.Errorf("TopLevel = %q, want %q", repo.TopLevel, r.dir)
	}
	for _, rev := range []string{"HEAD", "@", "HEAD~1", "HEAD^2", "HEAD^2~1", "HEAD^", "HEAD~0", "main", "side", "v1", "v1^{commit}", "light~1",
		"loose", "refs/heads/side", "origin", "tags/v1", r.git("rev-parse", "HEAD~2")} {
		want, err := r.open().RevParse(context.Background(), rev)
		if err != nil {
			t.Fatal(rev, err)
		}
		got, ok := repo.ResolveInProcess(rev)
		if !ok || got != want[0] {
			t.Errorf("%s: %s %v, git says %s", rev, got, ok, want[0])
		}
	}
	for _, rev := range []string{"HEAD~9", "HEAD^3", "nope", ":/c", "HEAD@{1}", "main..side", r.git("rev-parse", "--short", "HEAD"), "ORIG_HEAD", "HEAD^{tree}",
		"@{upstream}", "main@{u}~1", ":/c~1", "HEAD^{/c}", "HEAD^!", "HEAD^@", "HEAD^-"} {
		if got, ok := repo.ResolveInProcess(rev); ok {
			t.Errorf("%s resolved to %s in process; git should answer it", rev, got)
		}
	}
}

func TestReadHeaderInProcess(t *testing.T) {
	r := newTestRepo(t)
	r.write("f", "x")
	h := r.commit("subject line\n\nbody text")
	repo, ok := Discover(r.dir, os.Getenv)
	if !ok {
		t.Fatal("Discover declined")
	}
	got, err := repo.ReadHeaderInProcess(h)
	if err != nil {
		t.Fatal(err)
	}
	want, err := r.open().ReadCommit(context.Background(), h)
	if err != nil {
		t.Fatal(err)
	}
	want.Files = nil
	sameCommit(t, "in process vs ReadCommit", got, want)
}

// readPackedRefs serves both the resolver (lenient: what it could read) and
// decorations (strict: ok must be true).
func TestReadPackedRefs(t *testing.T) {
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 40)
	for _, tc := range []struct {
		name, file string
		exists     bool
		want       map[string]refValue
		ok         bool
	}{
		{"missing", "", false, map[string]refValue{}, true},
		{"fully peeled", "# pack-refs with: peeled fully-peeled sorted \n" + a + " refs/tags/v1\n^" + b + "\n" + b + " refs/heads/main\n", true,
			// No "^" line is no peel: git decorates from the objects.
			map[string]refValue{"refs/tags/v1": {a, b, true}, "refs/heads/main": {b, "", false}}, true},
		{"not fully peeled", a + " refs/heads/main\n", true, map[string]refValue{"refs/heads/main": {a, "", false}}, true},
		{"a bad line", "xyz refs/heads/bad\n" + a + " refs/heads/main\n^" + b + "\n", true,
			map[string]refValue{"refs/heads/main": {a, b, true}}, false},
		{"a peel line after a bad one", "xyz refs/heads/bad\n^" + b + "\n", true, map[string]refValue{}, false},
		// git dies on each of these ("unexpected line in packed-refs").
		{"garbage line", a + " refs/heads/main\ngarbage\n", true, map[string]refValue{"refs/heads/main": {a, "", false}}, false},
		{"empty line", a + " refs/heads/main\n\n", true, map[string]refValue{"refs/heads/main": {a, "", false}}, false},
		{"unterminated", a + " refs/heads/main", true, map[string]refValue{"refs/heads/main": {a, "", false}}, false},
		{"comment not first", a + " refs/heads/main\n# note\n", true, map[string]refValue{"refs/heads/main": {a, "", false}}, false},
		{"upper-case hash", strings.ToUpper(a) + " refs/heads/main\n", true, map[string]refValue{}, false},
		{"bad name", a + " refs/heads/x.lock\n", true, map[string]refValue{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.exists {
				if err := os.WriteFile(filepath.Join(dir, "packed-refs"), []byte(tc.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, ok := readPackedRefs(dir)
			if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, %v; want %+v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}
