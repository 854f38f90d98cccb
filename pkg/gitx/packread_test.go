package gitx

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

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
			st := openObjects(filepath.Join(r.dir, ".git"))
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
				typ, got, err := st.object(plumbing.NewHash(f[0]))
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

func packName(t *testing.T, r *testRepo) string {
	t.Helper()
	idx, _ := filepath.Glob(filepath.Join(r.dir, ".git", "objects", "pack", "*.idx"))
	if len(idx) != 1 {
		t.Fatalf("%d packs", len(idx))
	}
	return idx[0]
}

// FuzzApplyDelta: a corrupt delta is an error, never a panic or an object
// of another size than the delta says.
func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("base text"), []byte{9, 4, 0x91, 0, 4}) // copy 4 bytes from 0
	f.Add([]byte("abc"), []byte{3, 2, 2, 'x', 'y'})      // insert "xy"
	f.Add([]byte(""), []byte{0, 0})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		out, err := applyDelta(base, delta)
		if err == nil {
			_, n := binary.Uvarint(delta)
			if want, _ := binary.Uvarint(delta[n:]); uint64(len(out)) != want {
				t.Fatalf("%d bytes, delta says %d", len(out), want)
			}
		}
	})
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

// A delta whose header claims a huge result allocates by what its ops can
// yield, not by the claim: fuzzing once ran out of memory on such input.
func TestApplyDeltaDoesNotTrustItsSize(t *testing.T) {
	delta := []byte("\x01\xe6\xe6\xe6\xe6\x05\xff\xff\x05\xe60") // claims ~1.4 GB
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := applyDelta([]byte("\x01"), delta); err == nil {
		t.Fatal("a delta yielding less than it claims was applied")
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("allocated %d bytes for an 11-byte delta", grew)
	}
}
