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

func TestScrub(t *testing.T) {
	path := filepath.Join(t.TempDir(), "git-convo.log")
	l := Log{Path: path}
	l.Printf("capture", "enriching conv-a: no title")
	l.Printf("capture", "enriching conv-b: no title")
	os.WriteFile(path+".1", []byte("old line about conv-a\nold line about conv-b\n"), 0o600)
	if err := Scrub(path, "conv-a"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + ".1"} {
		b, _ := os.ReadFile(p)
		if strings.Contains(string(b), "conv-a") || !strings.Contains(string(b), "conv-b") {
			t.Errorf("%s after Scrub:\n%s", p, b)
		}
	}
}

// TestLastErrorRecord: when the log cannot be written, the line goes to the
// preallocated record, which never grows; once the log works again, the line
// moves into it.
func TestLastErrorRecord(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "git-convo.log")
	l := Log{Path: path}
	l.Printf("capture", "first")
	if fi, err := os.Stat(RecordPath(path)); err != nil || fi.Size() != RecordSize {
		t.Fatalf("record not preallocated: %v %v", fi, err)
	}
	// The log stops taking lines (here: it became a directory).
	os.Rename(path, path+".saved")
	os.Mkdir(path, 0o700)
	l.Printf("capture", "the beforeSubmitPrompt event is lost: %s", strings.Repeat("x", 2*RecordSize))
	if got := LastError(path); !strings.Contains(got, "event is lost") {
		t.Fatalf("LastError = %q", got)
	}
	if fi, _ := os.Stat(RecordPath(path)); fi.Size() != RecordSize {
		t.Errorf("the record grew to %d bytes", fi.Size())
	}
	os.Remove(path)
	os.Rename(path+".saved", path)
	l.Printf("capture", "later")
	if got := LastError(path); got != "" {
		t.Errorf("record not cleared: %q", got)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "event is lost") {
		t.Errorf("the recorded line did not reach the log:\n%s", b)
	}
}

func TestFlush(t *testing.T) {
	path := filepath.Join(t.TempDir(), "git-convo.log")
	Prepare(path)
	writeRecord(path, "2026-11-22T10:00:00Z capture[1]: the stop event is lost\n")
	Flush(path)
	if LastError(path) != "" {
		t.Error("the record was not cleared")
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "the stop event is lost") {
		t.Errorf("log: %q", b)
	}
}
