package applypatch

import (
	"reflect"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/attribution/position"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name  string
		patch string
		want  []File
	}{
		{"add and update", "*** Begin Patch\n*** Add File: a/new.go\n+package a\n+\n+func A() {}\n*** Update File: b.go\n@@ func B() {\n ctx\n-old\n+new\n+more\n*** End Patch\n",
			[]File{
				{Path: "a/new.go", Op: Add, Hunks: []Hunk{{New: []string{"package a", "", "func A() {}"}, Added: []string{"package a", "", "func A() {}"}}}},
				{Path: "b.go", Op: Update, Hunks: []Hunk{{Old: []string{"ctx", "old"}, New: []string{"ctx", "new", "more"}, Added: []string{"new", "more"}}}},
			}},
		{"move and two hunks", "*** Begin Patch\n*** Update File: x.go\n*** Move to: y.go\n@@\n a\n+b\n@@\n c\n-d\n*** End of File\n*** End Patch",
			[]File{{Path: "x.go", Op: Update, MoveTo: "y.go", Hunks: []Hunk{
				{Old: []string{"a"}, New: []string{"a", "b"}, Added: []string{"b"}},
				{Old: []string{"c", "d"}, New: []string{"c"}},
			}}}},
		{"delete", "*** Begin Patch\n*** Delete File: gone.go\n*** End Patch", []File{{Path: "gone.go", Op: Delete}}},
		{"truncated", "*** Begin Patch\n*** Update File: t.go\n@@\n x\n+y", []File{{Path: "t.go", Op: Update, Hunks: []Hunk{{Old: []string{"x"}, New: []string{"x", "y"}, Added: []string{"y"}}}}}},
		{"crlf", "*** Begin Patch\r\n*** Add File: w.txt\r\n+hi\r\n*** End Patch\r\n", []File{{Path: "w.txt", Op: Add, Hunks: []Hunk{{New: []string{"hi"}, Added: []string{"hi"}}}}}},
		{"no path", "*** Begin Patch\n*** Update File: \n+x\n*** End Patch", nil},
		{"not a patch", "hello\n+world", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Parse(tc.patch); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Parse:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestWritesLocate: a patch's writes, located in the file the patch made,
// give exactly the added lines.
func TestWritesLocate(t *testing.T) {
	after := "package b\n\nfunc B() {\n\tctx()\n\tnew()\n\tmore()\n}\n"
	files := Parse("*** Begin Patch\n*** Update File: b.go\n@@ func B() {\n \tctx()\n-\told()\n+\tnew()\n+\tmore()\n*** End Patch")
	span, ok := position.Locate("b.go", after, files[0].Writes())
	if span == nil || !ok[0] {
		t.Fatalf("not located: %v", ok)
	}
	if got := position.Covered(span.Ranges); !reflect.DeepEqual(got, []int{5, 6}) {
		t.Errorf("lines %v, want [5 6]", got)
	}
	add := Parse("*** Begin Patch\n*** Add File: n.go\n+a\n+b\n*** End Patch")
	span, _ = position.Locate("n.go", "a\nb\n", add[0].Writes())
	if span == nil || !reflect.DeepEqual(position.Covered(span.Ranges), []int{1, 2}) {
		t.Errorf("new file: %+v", span)
	}
	if got := strings.Join(files[0].Added(), "|"); got != "\tnew()\n\tmore()" {
		t.Errorf("Added %q", got)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("*** Begin Patch\n*** Add File: a\n+x\n*** Update File: b\n*** Move to: c\n@@\n y\n-z\n+w\n*** Delete File: d\n*** End Patch")
	f.Add("*** Update File: \n@@\n+")
	f.Fuzz(func(t *testing.T, patch string) {
		for _, file := range Parse(patch) {
			if file.Path == "" {
				t.Fatal("a file with no path")
			}
			for _, h := range file.Hunks {
				if len(h.Added) > len(h.New) {
					t.Fatal("more added lines than new lines")
				}
			}
			_ = file.Writes()
			_ = file.Added()
		}
	})
}
