package gitx

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
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
		got, _, ok := repo.BlobsInProcess(names, 0, os.Getenv)
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
	if _, _, ok := repo.BlobsInProcess([]string{"refs/notes/none:" + hashes[0]}, 0, os.Getenv); ok {
		t.Error("a ref not in the files answered in process")
	}
	r.git("replace", hashes[1], hashes[0])
	if _, _, ok := repo.BlobsInProcess(names, 0, os.Getenv); ok {
		t.Error("answered in process with replace refs")
	}
}

// hashObject writes what r reads as a blob and returns its hash: a large
// note made quickly, without a file of its size.
func (r *testRepo) hashObject(content io.Reader) string {
	r.t.Helper()
	cmd := exec.Command("git", "hash-object", "-w", "--stdin")
	cmd.Dir, cmd.Stdin = r.dir, content
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("hash-object: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// TestHostileBlobsOverLimit (issue 28, item 9): the in-process reader held
// a 100 MB note whole before its caller dropped it. A blob over the limit
// is now said to be over, nil, and never inflated past its header, loose
// or packed, whole or a delta; one under it reads as cat-file reads it,
// and one packed as a delta of a blob over the limit is left to git.
func TestHostileBlobsOverLimit(t *testing.T) {
	const limit = 4 << 20
	r := newTestRepo(t)
	c := r.commit("c")
	var content bytes.Buffer
	for i := 0; content.Len() < 3*limit; i++ {
		fmt.Fprintf(&content, "{\"line\":%d}\n", i)
	}
	big := content.Bytes()
	huge := r.hashObject(bytes.NewReader(big))
	// Packed, twin and part are deltas of huge (git deltas toward the smaller).
	twin := r.hashObject(io.MultiReader(bytes.NewReader(big[:len(big)-100]), strings.NewReader("the end")))
	part := r.hashObject(bytes.NewReader(big[:limit/2]))
	small := r.hashObject(strings.NewReader("{\"files\":[]}\n"))
	for ref, blob := range map[string]string{"convo": huge, "twin": twin, "part": part, "small": small} {
		r.git("notes", "--ref="+ref, "add", "-C", blob, c) // reachable, so packed
	}
	names := []string{"refs/notes/convo:" + c, huge, twin, "refs/notes/small:" + c}
	repo, ok := Discover(r.dir, os.Getenv)
	if !ok {
		t.Fatal("Discover declined")
	}
	allocated := func(limit int64) (uint64, [][]byte, []bool) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		got, over, ok := repo.BlobsInProcess(names, limit, os.Getenv)
		runtime.ReadMemStats(&after)
		if !ok {
			t.Fatalf("limit %d: declined", limit)
		}
		return after.TotalAlloc - before.TotalAlloc, got, over
	}
	for _, packed := range []bool{false, true} {
		if packed {
			r.git("gc", "-q")
		}
		// The control: with no limit, the notes are read whole.
		if n, got, _ := allocated(0); n < uint64(len(big)) || !bytes.Equal(got[0], big) {
			t.Fatalf("packed %v: with no limit, %d bytes allocated and a note of %d: the measure measures nothing", packed, n, len(got[0]))
		}
		n, got, over := allocated(limit)
		for i, want := range []bool{true, true, true, false} {
			if over[i] != want || (got[i] == nil) != want {
				t.Errorf("packed %v, %s: over %v, %d bytes; want over %v", packed, names[i], over[i], len(got[i]), want)
			}
		}
		if want := catFile(t, r.dir, names[3:]); !bytes.Equal(got[3], want[0]) {
			t.Errorf("packed %v: the small note reads %q, cat-file %q", packed, got[3], want[0])
		}
		if n > limit/4 {
			t.Errorf("packed %v: %d bytes allocated reading notes over a limit of %d", packed, n, limit)
		}
		got, _, ok := repo.BlobsInProcess([]string{part}, limit, os.Getenv)
		// A delta longer than the limit (192 copies at least) is checked
		// from its first bytes.
		if _, over, ok := repo.BlobsInProcess([]string{twin}, 64, os.Getenv); !ok || !over[0] {
			t.Errorf("packed %v: a note over a limit its delta is over too: ok %v, over %v", packed, ok, over)
		}
		// Packed, its base is over the limit: git's to read.
		if ok == packed || ok && !bytes.Equal(got[0], big[:limit/2]) {
			t.Errorf("packed %v: a note under the limit: ok %v, %d bytes", packed, ok, len(got))
		}
	}
	// The delta cases were read: git packed them as deltas.
	bases := r.git("cat-file", "--batch-check=%(objectname) %(deltabase)", "--batch-all-objects")
	for _, h := range []string{twin, part} {
		if !strings.Contains(bases, h+" "+huge) {
			t.Errorf("%s is no delta of the large note: that case is untested\n%s", h, bases)
		}
	}
}
