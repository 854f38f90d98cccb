package gitx

import (
	"context"
	"testing"
	"time"
)

func TestFilesAt(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.go", "package a\n")
	r.write("dir/b c.go", "package b\n")
	r.write("odd\nname.go", "package odd\n")
	r.write("sub/x", "x")
	h := r.commit("files")
	got, err := r.open().FilesAt(context.Background(), h, []string{"a.go", "dir/b c.go", "odd\nname.go", "sub", "gone.go"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a.go": "package a\n", "dir/b c.go": "package b\n", "odd\nname.go": "package odd\n"}
	if len(got) != len(want) {
		t.Fatalf("got %d files: %q", len(got), got)
	}
	for p, w := range want {
		if string(got[p]) != w {
			t.Errorf("%q = %q, want %q", p, got[p], w)
		}
	}
}

// MadeMs trusts the loose object's time only within the commit's second.
func TestMadeMs(t *testing.T) {
	r := newTestRepo(t)
	r.write("a", "a")
	h := r.commit("a") // dated 2023 by hand: the object's time is not the commit's
	repo := r.open()
	if ms := repo.MadeMs(h, time.Unix(1700000060, 0)); ms != 0 {
		t.Errorf("a commit dated by hand: %d", ms)
	}
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", "now")
	now := r.git("rev-parse", "HEAD")
	ct := r.git("log", "-1", "--format=%ct")
	var sec int64
	for _, c := range ct {
		sec = sec*10 + int64(c-'0')
	}
	if ms := repo.MadeMs(now, time.Unix(sec, 0)); ms < sec*1000 || ms >= sec*1000+2000 {
		t.Errorf("a commit made now: %d, its second %d", ms, sec)
	}
}
