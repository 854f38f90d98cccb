package notes

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// splitNotesRefs is packed-refs read line by line, every line split: what
// packedNotesRefs must equal.
func splitNotesRefs(packed []byte) []string {
	var out []string
	for _, line := range strings.Split(string(packed), "\n") {
		if f := strings.Fields(line); len(f) == 2 && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "^") {
			if strings.Contains(f[1], "refs/notes/") {
				out = append(out, f[1])
			}
		}
	}
	return out
}

func bigPackedRefs(n int) []byte {
	var b strings.Builder
	b.WriteString("# pack-refs with: peeled fully-peeled sorted \n")
	for i := range n {
		fmt.Fprintf(&b, "%040x refs/heads/branch-%d\n", i, i)
		if i%10 == 0 {
			fmt.Fprintf(&b, "%040x refs/tags/v%d\n^%040x\n", i, i, i+1)
		}
	}
	fmt.Fprintf(&b, "%040x %s\n%040x refs/notes/remotes/origin/convo\n", 1, Ref, 2)
	return []byte(b.String())
}

func TestPackedNotesRefs(t *testing.T) {
	h := strings.Repeat("a", 40)
	for _, packed := range []string{
		"",
		"# pack-refs with: refs/notes/convo\n",
		h + " " + Ref,
		h + " " + Ref + "\n" + h + " refs/notes/remotes/origin/convo\r\n^" + h + "\n",
		h + " refs/heads/refs/notes/convo\n" + h + " refs/notes/convo refs/notes/x\n",
		"refs/notes/convo\n" + h + "  refs/notes/remotes/a/convo  \n\n\n" + h + " refs/notes/commits",
		string(bigPackedRefs(300)),
	} {
		var got []string
		packedNotesRefs([]byte(packed), func(r string) { got = append(got, r) })
		if want := splitNotesRefs([]byte(packed)); !reflect.DeepEqual(got, want) {
			t.Errorf("%.80q:\n got %q\nwant %q", packed, got, want)
		}
	}
}

// BenchmarkPackedNotesRefs: the notes refs among 4,400 packed refs, as a
// read command looks for them in a repository like git.git.
func BenchmarkPackedNotesRefs(b *testing.B) {
	packed := bigPackedRefs(4000)
	b.Run("every-line", func(b *testing.B) {
		for range b.N {
			splitNotesRefs(packed)
		}
	})
	b.Run("notes-lines", func(b *testing.B) {
		for range b.N {
			packedNotesRefs(packed, func(string) {})
		}
	})
}
