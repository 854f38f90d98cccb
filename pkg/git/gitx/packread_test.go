package gitx

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/git/odb"
	"github.com/go-git/go-git/v5/plumbing"
)

// TestPackReaderMatchesGit reads every object of a packed history with
// deltas, as offsets (OFS_DELTA) and as hashes (REF_DELTA), and compares it
// with git cat-file's answer.
func TestPackReaderMatchesGit(t *testing.T) {
	r := newTestRepo(t)
	var body strings.Builder
	for i := range 300 {
		fmt.Fprintf(&body, "line %d of a file that changes a little each commit\n", i)
	}
	text := body.String()
	for i := range 40 {
		text = strings.Replace(text, fmt.Sprintf("line %d ", i*7), fmt.Sprintf("LINE %d ", i*7), 1)
		r.write("big.txt", text)
		r.write(fmt.Sprintf("d%d/f.txt", i%5), text[:i*100])
		r.commit(fmt.Sprintf("commit %d\n\n%s", i, strings.Repeat("body ", i)))
	}
	for _, ofs := range []string{"true", "false"} {
		t.Run("useDeltaBaseOffset="+ofs, func(t *testing.T) {
			r.git("-c", "repack.useDeltaBaseOffset="+ofs, "repack", "-a", "-d", "-f", "-q", "--depth=20")
			cmd := exec.Command("git", "cat-file", "--batch-all-objects", "--batch")
			cmd.Dir = r.dir
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			st := odb.Open(filepath.Join(r.dir, ".git"))
			defer st.Close()
			br := bufio.NewReader(bytes.NewReader(out))
			n := 0
			for {
				line, err := br.ReadString('\n')
				if err == io.EOF {
					break
				}
				f := strings.Fields(line)
				size, _ := strconv.Atoi(f[2])
				want := make([]byte, size+1)
				if _, err := io.ReadFull(br, want); err != nil {
					t.Fatal(err)
				}
				typ, got, err := st.Object(plumbing.NewHash(f[0]))
				if err != nil || typ.String() != f[1] || !bytes.Equal(got, want[:size]) {
					t.Fatalf("%s: %v %v, %d bytes; git %s, %d bytes", f[0], typ, err, len(got), f[1], size)
				}
				n++
			}
			if n < 200 {
				t.Fatalf("only %d objects", n)
			}
			// The pack holds deltas: the test reads some.
			v := exec.Command("git", "verify-pack", "-v", packName(t, r))
			v.Dir = r.dir
			vout, _ := v.Output()
			if !bytes.Contains(vout, []byte("chain length = 2")) {
				t.Fatalf("no delta chains in the pack:\n%.500s", vout)
			}
		})
	}
}

// A pack cut short (the pack is mapped, and read to its end): an object
// past the cut is an error, never a read past the mapping.
func TestPackReaderCutShort(t *testing.T) {
	r := newTestRepo(t)
	for i := range 30 {
		r.write("f.txt", strings.Repeat(fmt.Sprintf("line %d\n", i), 50+i))
		r.commit(fmt.Sprintf("commit %d", i))
	}
	r.git("repack", "-a", "-d", "-q")
	hashes := strings.Fields(r.git("cat-file", "--batch-all-objects", "--batch-check=%(objectname)"))
	pack := strings.TrimSuffix(packName(t, r), ".idx") + ".pack"
	fi, err := os.Stat(pack)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(pack, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(pack, fi.Size()*2/3); err != nil {
		t.Fatal(err)
	}
	st := odb.Open(filepath.Join(r.dir, ".git"))
	defer st.Close()
	failed := 0
	for _, h := range hashes {
		if _, _, err := st.Object(plumbing.NewHash(h)); err != nil {
			failed++
		}
	}
	if failed == 0 {
		t.Fatal("every object read from a pack cut to two thirds")
	}
}

func packName(t *testing.T, r *testRepo) string {
	t.Helper()
	idx, _ := filepath.Glob(filepath.Join(r.dir, ".git", "objects", "pack", "*.idx"))
	if len(idx) != 1 {
		t.Fatalf("%d packs", len(idx))
	}
	return idx[0]
}

// FuzzMediumHeader: any commit object is printed or declined, never a panic.
func FuzzMediumHeader(f *testing.F) {
	f.Add([]byte("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <a@b> 1700000000 +0100\ncommitter A <a@b> 1 +0000\n\nmsg\n"))
	f.Add([]byte("tree x\nauthor <> 99999999999999 -9999\n\n\t\xff\tx"))
	f.Fuzz(func(t *testing.T, data []byte) {
		text, _, ok := mediumHeader("0123456789012345678901234567890123456789", data)
		if ok && !strings.HasSuffix(text, "\n") {
			t.Fatalf("%q", text)
		}
	})
}
