package errlog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLogAndTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "git-convo.log")
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	l := Log{Path: path, Now: func() time.Time { return at }}
	for i := range 5 {
		l.Printf("capture", "bad payload %d:\nsecond line", i)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("log file: %v, %v (want mode 0600)", fi, err)
	}
	got, err := Tail(path, 2)
	if err != nil || len(got) != 2 {
		t.Fatalf("Tail = %v, %v", got, err)
	}
	if got[1].Component != "capture" || !got[1].Time.Equal(at) || got[1].Message != "bad payload 4: second line" {
		t.Errorf("entry = %+v", got[1])
	}
	if none, err := Tail(filepath.Join(t.TempDir(), "missing"), 5); err != nil || none != nil {
		t.Errorf("missing log: %v, %v", none, err)
	}
	Log{}.Printf("x", "discarded") // the zero value must not panic
}

func TestRotation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "git-convo.log")
	os.WriteFile(path, []byte(strings.Repeat("x", MaxSize+1)), 0o600)
	Log{Path: path}.Printf("record", "after rotation")
	if _, err := os.Stat(path + ".1"); err != nil {
		t.Fatal("the full log was not rotated")
	}
	got, _ := Tail(path, 10)
	if len(got) != 1 || got[0].Message != "after rotation" {
		t.Errorf("after rotation: %+v", got)
	}
}
