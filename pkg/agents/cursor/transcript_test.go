//go:build !windows

package cursor

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadTranscriptRegularFilesOnly: a FIFO, a directory or an oversized
// file named as a transcript is refused at once, never waited on.
func TestReadTranscriptRegularFilesOnly(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "t.jsonl")
	os.WriteFile(good, []byte(`{"role":"user","message":{"content":[{"type":"text","text":"hi"}]}}`+"\n"), 0o600)
	if msgs, err := ReadTranscript(good); err != nil || len(msgs) != 1 || msgs[0].Text != "hi" {
		t.Fatalf("regular file: %v %v", msgs, err)
	}
	big := filepath.Join(dir, "big.jsonl")
	f, _ := os.Create(big)
	f.Truncate(MaxTranscript + 1) // sparse: no disk used
	f.Close()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{"directory": dir, "too large": big, "fifo": fifo}
	for name, path := range cases {
		done := make(chan error, 1)
		go func() { _, err := ReadTranscript(path); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), path) {
				t.Errorf("%s: err %v", name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: ReadTranscript blocked", name)
		}
	}
}
