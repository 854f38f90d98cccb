package position

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// lcs is the length of a longest common subsequence (the reference).
func lcs(a, b []int64) int {
	t := make([][]int, len(a)+1)
	for i := range t {
		t[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	return t[0][0]
}

// Match is a valid alignment, and a shortest diff where no line is unique
// to anchor it (the patience part is tested by TestMatchAnchors).
func TestMatchIsAShortestDiff(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for n := 0; n < 500; n++ {
		a := make([]int64, r.Intn(30))
		b := make([]int64, r.Intn(30))
		for i := range a {
			a[i] = int64(r.Intn(4))
		}
		for i := range b {
			b[i] = int64(r.Intn(4))
		}
		m, ok := Match(a, b)
		if !ok {
			t.Fatalf("%v %v: not ok", a, b)
		}
		kept, last := 0, -1
		for j, i := range m {
			if i < 0 {
				continue
			}
			if i <= last || a[i] != b[j] {
				t.Fatalf("%v %v: bad match %v", a, b, m)
			}
			last = i
			kept++
		}
		if len(uniqueAnchors(a, b)) == 0 && kept != lcs(a, b) {
			t.Fatalf("%v %v: kept %d lines, the LCS is %d", a, b, kept, lcs(a, b))
		}
	}
}

// Unique lines anchor the alignment: the agent's `}` after its unique
// return stays paired with the `}` right after that return, not with a
// person's last `}`.
func TestMatchAnchors(t *testing.T) {
	a := HashLines([]string{"func A() {", "\treturn use(x)", "}"})
	b := HashLines([]string{"func A() {", "", "\treturn use(x)", "}", "", "func B() {", "\treturn use(2)", "}"})
	m, ok := Match(a, b)
	if !ok || !reflect.DeepEqual(m, []int{0, -1, 1, 2, -1, -1, -1, -1}) {
		t.Fatalf("m = %v", m)
	}
}

func TestMatchTooLarge(t *testing.T) {
	a := make([]int64, maxEdits+10)
	b := make([]int64, maxEdits+10)
	for i := range a {
		a[i], b[i] = int64(i), int64(-i-1)
	}
	if _, ok := Match(a, b); ok {
		t.Fatal("a diff past maxEdits was trusted")
	}
}

func TestLocate(t *testing.T) {
	file := "package x\n\nfunc A() error {\n\tif a {\n\t\treturn nil\n\t}\n\treturn nil\n}\n\nfunc B() {}\n"
	tests := []struct {
		name  string
		w     Write
		want  []int
		found bool
	}{
		{"edit whole lines", Write{Old: "func B() {}\n", New: "func B() {}\n"}, nil, true},
		{"inserted function", Write{Old: "", New: "func A() error {\n\tif a {\n\t\treturn nil\n\t}\n\treturn nil\n}\n"}, []int{3, 4, 5, 6, 7, 8}, true},
		{"old lines are not written", Write{Old: "\tif a {\n\t}\n", New: "\tif a {\n\t\treturn nil\n\t}\n"}, []int{5}, true},
		{"part of a line", Write{Old: "B()", New: "B() {}"}, []int{10}, true},
		{"ambiguous text", Write{Old: "", New: "\treturn nil\n"}, nil, false},
		{"not in the file", Write{Old: "", New: "\tpanic(1)\n"}, nil, false},
		{"whole file, new", Write{Whole: true, New: file}, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, true},
		{"whole file, changed", Write{Whole: true, Old: "package x\n\nfunc B() {}\n", New: file}, []int{3, 4, 5, 6, 7, 8, 9}, true},
		{"agent's patch lines", Write{Lines: []PatchLine{{5, "    return nil"}}}, []int{5}, true},
		{"a patch the file contradicts", Write{Lines: []PatchLine{{5, "panic(1)"}}}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			span, ok := Locate("x.go", file, []Write{tt.w})
			if ok[0] != tt.found {
				t.Fatalf("located = %v, want %v", ok[0], tt.found)
			}
			var got []int
			if span != nil {
				got = Covered(span.Ranges)
				if len(Hashes(span.Snapshot)) != strings.Count(file, "\n") {
					t.Fatalf("snapshot has %d lines", len(Hashes(span.Snapshot)))
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("lines %v, want %v", got, tt.want)
			}
		})
	}
}

// A person's identical lines next to the agent's stay the person's: the
// agent's range is carried by position, not by text.
func TestCarryKeepsPositions(t *testing.T) {
	captured := SplitFile("package x\n\nfunc A() error {\n\treturn nil\n}\n")
	span, _ := Locate("x.go", strings.Join(captured, "\n")+"\n", []Write{{New: "func A() error {\n\treturn nil\n}\n"}})
	committed := SplitFile("package x\n\nfunc P() error {\n\treturn nil\n}\n\nfunc A() error {\n\t// checked\n\treturn nil\n}\n")
	got, ok := Carry(Hashes(span.Snapshot), span.Ranges, HashLines(committed))
	if !ok || !reflect.DeepEqual(got, []int{7, 9, 10}) {
		t.Fatalf("carried to %v (%v), want [7 9 10]", got, ok)
	}
}

// A blank line follows the written lines it lies among: a person's blank
// line that a diff could pair with the agent's does not take its place.
func TestCarryBlankLines(t *testing.T) {
	tests := []struct {
		name, from, to string
		ranges         []Range
		want           []int
	}{
		{"leading blank, a person's block above", "a\n\nf1\nf2\n", "a\n\np1\np2\n\nf1\nf2\n", []Range{{2, 4}}, []int{5, 6, 7}},
		{"trailing blank", "f1\nf2\n\nz\n", "f1\nf2\n\n\nz\n", []Range{{1, 3}}, []int{1, 2, 3}},
		{"a person's blank inside", "f1\n\nf2\n", "f1\n\n\nf2\n", []Range{{1, 3}}, []int{1, 2, 4}},
		{"anchor changed by a person", "x\nf1\n\n", "x\ng1\n\n", []Range{{2, 3}}, []int{}},
		{"blank lines alone", "a\n\n\nb\n", "a\n\n\nb\n", []Range{{2, 3}}, []int{2, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Carry(HashLines(SplitFile(tt.from)), tt.ranges, HashLines(SplitFile(tt.to)))
			if !ok || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("carried to %v, want %v", got, tt.want)
			}
		})
	}
}

// BenchmarkCarry: one edit of a 3,000-line file carried to a commit that
// changed a few lines elsewhere (the recorder's work per edit and file).
func BenchmarkCarry(b *testing.B) {
	var lines []string
	for i := 0; i < 3000; i++ {
		lines = append(lines, fmt.Sprintf("\tline(%d)", i%50))
	}
	from := HashLines(lines)
	to := append([]string{"// a person's header"}, lines...)
	to[1500] = "changed"
	toH := HashLines(to)
	for b.Loop() {
		if _, ok := Carry(from, []Range{{1000, 1010}}, toH); !ok {
			b.Fatal("not carried")
		}
	}
}

// A person rewrites the agent's "return nil" and inserts a function after
// the agent's: a shortest diff pairs the agent's "return nil" and "}" with
// the person's further on. The agent's range keeps its place next to its
// anchored lines: its "}" stays its own, the person's lines stay theirs.
// The same range is also carried whole where nothing moved.
func TestCarrySettlesRepeatedLines(t *testing.T) {
	captured := "package x\n\nfunc A(x int) error {\n\tif x < 0 {\n\t\treturn fmt.Errorf(\"A: %d\", x)\n\t}\n\treturn nil\n}\n\nfunc Z() {}\n"
	span, _ := Locate("x.go", captured, []Write{{New: "func A(x int) error {\n\tif x < 0 {\n\t\treturn fmt.Errorf(\"A: %d\", x)\n\t}\n\treturn nil\n}\n"}})
	for _, tc := range []struct {
		name, committed string
		want            []int
	}{
		{"a line rewritten, a function inserted after", "package x\n\nfunc A(x int) error {\n\tif x < 0 {\n\t\treturn fmt.Errorf(\"A: %d\", x)\n\t}\n\treturn check(x)\n}\n\nfunc P(x int) error {\n\tif x < 0 {\n\t\treturn fmt.Errorf(\"P: %d\", x)\n\t}\n\treturn nil\n}\n\nfunc Z() {}\n",
			[]int{3, 4, 5, 6, 8}},
		{"a person's line inside the agent's function", "package x\n\nfunc A(x int) error {\n\tif x < 0 {\n\t\treturn fmt.Errorf(\"A: %d\", x)\n\t}\n\tlog(x)\n\treturn nil\n}\n\nfunc Z() {}\n",
			[]int{3, 4, 5, 6, 8, 9}},
		{"nothing moved", captured, []int{3, 4, 5, 6, 7, 8}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Carry(Hashes(span.Snapshot), span.Ranges, HashLines(SplitFile(tc.committed)))
			if !ok || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("carried to %v (%v), want %v", got, ok, tc.want)
			}
		})
	}
}

// TestCarryEqualAnchorsStay: a person's function inserted between the
// agent's package line and its function splits the agent's range into two
// islands of one anchor each; both are as certain, and neither moves onto
// the person's identical "return nil" and "}".
func TestCarryEqualAnchorsStay(t *testing.T) {
	agent := "package q\n\nfunc Q() error {\n\treturn nil\n}\n"
	committed := "package q\n\nfunc P() error {\n\treturn nil\n}\n\nfunc Q() error {\n\treturn nil\n}\n"
	got, ok := Carry(HashLines(SplitFile(agent)), []Range{{Start: 1, End: 5}}, HashLines(SplitFile(committed)))
	if want := []int{1, 2, 7, 8, 9}; !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("carried to %v (%v), want %v", got, ok, want)
	}
}
