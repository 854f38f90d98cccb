package gitx

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// abbrevRepo makes a repository of 1,500 packed commits (and their blobs
// and trees) and a few loose ones: at 4 hex digits many names collide, in
// packs and between a pack and loose objects.
func abbrevRepo(t testing.TB) *testRepo {
	r := newTestRepo(t)
	var in strings.Builder
	for c := range 1500 {
		fmt.Fprintf(&in, "commit refs/heads/main\nmark :%d\ncommitter C <c@x> %d +0000\ndata 3\nc%d\n", c+1, 1700000000+c, c%10)
		if c > 0 {
			fmt.Fprintf(&in, "from :%d\n", c)
		}
		fmt.Fprintf(&in, "M 644 inline f%d.txt\ndata %d\n%d\n", c%30, len(fmt.Sprint(c))+1, c)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Stdin = r.dir, strings.NewReader(in.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v %s", err, out)
	}
	r.git("reset", "-q", "--hard")
	for i := range 20 { // loose objects
		r.write("loose.txt", fmt.Sprint(i))
		r.commit(fmt.Sprint("loose ", i))
	}
	return r
}

// TestAbbrevsInProcessAsGit: every commit's abbreviation, worked out from
// the object files, is git's own %h, whatever core.abbrev says.
func TestAbbrevsInProcessAsGit(t *testing.T) {
	r := abbrevRepo(t)
	hashes := strings.Fields(r.git("rev-list", "--all"))
	ctx := context.Background()
	for _, tc := range []struct {
		value string
		set   bool
	}{{"", false}, {"4", true}, {"5", true}, {"12", true}, {"auto", true}, {"no", true}} {
		t.Run(fmt.Sprintf("core.abbrev=%q set=%v", tc.value, tc.set), func(t *testing.T) {
			if tc.set {
				r.git("config", "core.abbrev", tc.value)
			} else {
				exec.Command("git", "-C", r.dir, "config", "--unset", "core.abbrev").Run()
			}
			repo := Here(r.dir)
			want, err := repo.Abbrevs(ctx, hashes)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := repo.abbrevsInProcess(hashes, tc.value, tc.set)
			if !ok {
				t.Fatal("not answered in process")
			}
			short := 40
			for _, h := range hashes {
				if got[h] != want[h] {
					t.Errorf("%s: %s, git %s", h, got[h], want[h])
				}
				short = min(short, len(got[h]))
			}
			if tc.value == "4" && short > 4 {
				t.Errorf("no 4-digit abbreviation: the test makes no unique short name")
			}
		})
	}
}

// TestAbbreviatorAsGit: log's abbreviator answers git's %h for every
// commit: from the object files, and from git where the settings could not
// be read or core.abbrev is a value git refuses; a pack index larger than
// its bound leaves %h to git (nil).
func TestAbbreviatorAsGit(t *testing.T) {
	r := abbrevRepo(t)
	hashes := strings.Fields(r.git("rev-list", "--all"))
	ctx := context.Background()
	repo := Here(r.dir)
	want, err := repo.Abbrevs(ctx, hashes)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name        string
		value       string
		set, known  bool
		inProcessed bool
	}{
		{"unset", "", false, true, true},
		{"settings unknown", "", false, false, false},
		{"refused value", "true", true, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := repo.StartAbbrev(64<<20, func() (string, bool, bool) { return tc.value, tc.set, tc.known })
			if a == nil {
				t.Fatal("declined")
			}
			defer a.Close()
			got, err := a.Abbrevs(ctx, hashes)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("abbreviations differ from git's")
			}
			if (a.o != nil) != tc.inProcessed {
				t.Errorf("in process: %v, want %v", a.o != nil, tc.inProcessed)
			}
		})
	}
	if a := repo.StartAbbrev(100, func() (string, bool, bool) { return "", false, true }); a != nil {
		t.Error("indexes over the bound: not left to git")
	}
}

// TestAbbrevsInProcessDeclines: where git would read objects this reader
// does not, it leaves the answer to git.
func TestAbbrevsInProcessDeclines(t *testing.T) {
	r := abbrevRepo(t)
	hashes := strings.Fields(r.git("rev-list", "-n", "3", "HEAD"))
	if _, ok := Here(r.dir).abbrevsInProcess(hashes, "true", true); ok {
		t.Error("core.abbrev=true, which git refuses, answered")
	}
	if _, ok := Here(r.dir).abbrevsInProcess(hashes, "", true); ok {
		t.Error("an empty core.abbrev answered")
	}
	if err := os.WriteFile(filepath.Join(r.dir, ".git", "objects", "info", "alternates"), []byte("/nowhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := Here(r.dir).abbrevsInProcess(hashes, "", false); ok {
		t.Error("alternates: answered")
	}
}

// BenchmarkAbbrevs250 is blame's column width for 250 commits: in process
// and with git.
func BenchmarkAbbrevs250(b *testing.B) {
	r := abbrevRepo(b)
	hashes := strings.Fields(r.git("rev-list", "-n", "250", "HEAD"))
	repo := Here(r.dir)
	b.Run("in process", func(b *testing.B) {
		for range b.N {
			if _, ok := repo.abbrevsInProcess(hashes, "", false); !ok {
				b.Fatal("declined")
			}
		}
	})
	b.Run("git", func(b *testing.B) {
		for range b.N {
			if _, err := repo.Abbrevs(context.Background(), hashes); err != nil {
				b.Fatal(err)
			}
		}
	})
}
