package queue

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/util/filelock"
)

func TestParse(t *testing.T) {
	a := Record{Hook: "post-commit", Dir: "/w/a b", GitDir: ".git"}
	b := Record{Hook: "post-merge", Dir: "/w/new\nline\ttab", WorkTree: "/w"}
	tests := []struct {
		name string
		data []byte
		want []Record
	}{
		{"empty", nil, nil},
		{"two", append(Format(a), Format(b)...), []Record{a, b}},
		{"torn record, then a good one", append([]byte("gcq1\x00post-commit\x00/half"), Format(b)...), []Record{b}},
		{"torn at the end", append(Format(a), []byte("gcq1\x00post-co")...), []Record{a}},
		{"foreign line", append([]byte("hello\n"), Format(a)...), []Record{a}},
		{"no directory", []byte("gcq1\x00post-commit\x00\x00\x00\x00\n"), nil},
		{"a field starting with a newline", Format(Record{Hook: "post-commit", Dir: "/w", GitDir: "\n.git"}), []Record{{Hook: "post-commit", Dir: "/w", GitDir: "\n.git"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Parse(tt.data); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse = %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestDrain(t *testing.T) {
	dir := t.TempDir()
	if n, err := Drain(dir, time.Second, func([]Record) error { t.Fatal("apply on an empty queue"); return nil }); n != 0 || err != nil {
		t.Fatal(n, err)
	}
	r := Record{Hook: "post-commit", Dir: "/w"}
	for range 3 {
		if err := Append(dir, r); err != nil {
			t.Fatal(err)
		}
	}
	// A failed apply keeps every record.
	boom := errors.New("db locked")
	if _, err := Drain(dir, time.Second, func([]Record) error { return boom }); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if !Pending(dir) || Waiting(dir) != 3 {
		t.Fatalf("a failed drain lost the records: %d waiting", Waiting(dir))
	}
	// A killed drain's claimed file is taken by the next one, with what
	// was queued since.
	Append(dir, Record{Hook: "post-merge", Dir: "/v"})
	var got []Record
	n, err := Drain(dir, time.Second, func(recs []Record) error { got = recs; return nil })
	if err != nil || n != 4 || len(got) != 4 || got[3].Dir != "/v" {
		t.Fatalf("drain = %d %v %+v", n, err, got)
	}
	// A claimed file just written stays for a late writer: what it appends
	// is applied next time, and only that.
	held, _ := filepath.Glob(filepath.Join(dir, FileName+".*"))
	if len(held) == 0 {
		t.Fatal("nothing held for a late writer")
	}
	late := Record{Hook: "post-commit", Dir: "/late"}
	f, _ := os.OpenFile(held[len(held)-1], os.O_APPEND|os.O_WRONLY, 0)
	f.Write(Format(late))
	f.Close()
	got = nil
	if n, err := Drain(dir, time.Second, func(recs []Record) error { got = recs; return nil }); n != 1 || err != nil || got[0] != late {
		t.Fatalf("the late record: %d %v %+v", n, err, got)
	}
	// Once older than the grace, it goes.
	held, _ = filepath.Glob(filepath.Join(dir, FileName+".*"))
	old := time.Now().Add(-time.Hour)
	for _, f := range held {
		os.Chtimes(f, old, old)
	}
	if n, _ := Drain(dir, time.Second, func([]Record) error { t.Error("applied again"); return nil }); n != 0 {
		t.Errorf("drained %d records again", n)
	}
	if Pending(dir) || Waiting(dir) != 0 {
		t.Error("applied records were kept past the grace")
	}
}

func TestDrainWaitsForTheLock(t *testing.T) {
	dir := t.TempDir()
	Append(dir, Record{Hook: "post-commit", Dir: "/w"})
	unlock, err := filelock.Lock(filepath.Join(dir, ".lock"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Drain(dir, 0, func([]Record) error { return nil }); !errors.Is(err, ErrBusy) {
		t.Errorf("a drain while another holds the lock: %v", err)
	}
	unlock()
	if n, err := Drain(dir, 0, func([]Record) error { return nil }); n != 1 || err != nil {
		t.Errorf("after unlock: %d %v", n, err)
	}
}

// Any bytes parse without a panic, and a record that was written whole is
// read back as written, whatever precedes it.
func FuzzParse(f *testing.F) {
	f.Add([]byte("junk"), "/w/a b", ".git", "")
	f.Add(Format(Record{Hook: "post-commit", Dir: "/x"}), "/w\n", "", "/t")
	f.Fuzz(func(t *testing.T, prefix []byte, dir, gitDir, workTree string) {
		Parse(prefix)
		r := Record{Hook: "post-commit", Dir: dir, GitDir: gitDir, WorkTree: workTree}
		if !strings.HasPrefix(dir, "/") || strings.ContainsRune(dir+gitDir+workTree, 0) {
			return // no path holds NUL; a record names $PWD, an absolute directory
		}
		data := append(append(append([]byte{}, prefix...), "\x00\n"...), Format(r)...)
		got := Parse(data)
		if len(got) == 0 || got[len(got)-1] != r {
			t.Fatalf("Parse(%q) = %+v, want it to end with %+v", data, got, r)
		}
	})
}
