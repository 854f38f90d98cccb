package gitx

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// catFile is git cat-file --batch's answer to each name: the content of a
// blob, nil for anything else or a missing name.
func catFile(t *testing.T, dir string, names []string) [][]byte {
	t.Helper()
	cmd := exec.Command("git", "cat-file", "--batch")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(strings.Join(names, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(bytes.NewReader(out))
	res := make([][]byte, len(names))
	for i := range names {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			continue // "<name> missing"
		}
		n, _ := strconv.Atoi(f[2])
		body := make([]byte, n+1)
		if _, err := io.ReadFull(br, body); err != nil {
			t.Fatal(err)
		}
		if f[1] == "blob" {
			res[i] = body[:n]
		}
	}
	return res
}

// TestBlobsInProcessMatchesCatFile: notes trees flat and fanned out, loose
// and packed, and names cat-file finds nothing at.
func TestBlobsInProcessMatchesCatFile(t *testing.T) {
	r := newTestRepo(t)
	r.write("dir/sub/file", "deep\n")
	r.write("top", "top\n")
	var hashes []string
	for i := range 3 {
		hashes = append(hashes, r.commit(fmt.Sprintf("c%d", i)))
	}
	r.git("notes", "--ref=flat", "add", "-m", "flat note", hashes[0])
	r.git("notes", "--ref=flat", "add", "-m", "another", hashes[1])
	// A fanned-out tree, as git makes for many notes.
	var fi bytes.Buffer
	fmt.Fprintf(&fi, "commit refs/notes/fanned\ncommitter T <t@e> 1700000000 +0000\ndata 1\nn\n")
	fmt.Fprintf(&fi, "M 100644 inline %s/%s\ndata 6\nfanned\n", hashes[0][:2], hashes[0][2:])
	fmt.Fprintf(&fi, "M 100644 inline %s/%s/%s\ndata 7\ndeeper\n\n", hashes[1][:2], hashes[1][2:4], hashes[1][4:])
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Stdin = r.dir, &fi
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v %s", err, out)
	}
	var names []string
	for _, ref := range []string{"refs/notes/flat", "refs/notes/fanned", "refs/heads/main"} {
		for _, h := range hashes {
			names = append(names, ref+":"+h, ref+":"+h[:2]+"/"+h[2:], ref+":"+h[:2]+"/"+h[2:4]+"/"+h[4:])
		}
		names = append(names, ref+":dir/sub/file", ref+":dir", ref+":top", ref+":top/x", ref+":nope")
	}
	names = append(names, r.git("rev-parse", "HEAD:top"), r.git("rev-parse", "HEAD"))
	repo, ok := Discover(r.dir, os.Getenv)
	if !ok {
		t.Fatal("Discover declined")
	}
	for _, packed := range []bool{false, true} {
		if packed {
			r.git("gc", "-q")
		}
		got, ok := repo.BlobsInProcess(names, os.Getenv)
		if !ok {
			t.Fatalf("packed %v: declined", packed)
		}
		want := catFile(t, r.dir, names)
		found := 0
		for i := range names {
			if !bytes.Equal(got[i], want[i]) || (got[i] == nil) != (want[i] == nil) {
				t.Errorf("packed %v, %s: %q, cat-file %q", packed, names[i], got[i], want[i])
			}
			if want[i] != nil {
				found++
			}
		}
		if found < 7 {
			t.Fatalf("only %d names found: the test reads too little", found)
		}
	}
	if _, ok := repo.BlobsInProcess([]string{"refs/notes/none:" + hashes[0]}, os.Getenv); ok {
		t.Error("a ref not in the files answered in process")
	}
	r.git("replace", hashes[1], hashes[0])
	if _, ok := repo.BlobsInProcess(names, os.Getenv); ok {
		t.Error("answered in process with replace refs")
	}
}
