package notes

import (
	"testing"

	"github.com/git-convo/git-convo/pkg/share/trace"
)

// TestAILines: the lines a record gives its conversations, asked one by
// one: overlapping, adjacent and huge ranges, a person's and an unnamed
// conversation's lines left out.
func TestAILines(t *testing.T) {
	conv := func(url, ty string, rs ...[2]int) trace.Conversation {
		c := trace.Conversation{URL: url, Contributor: &trace.Contributor{Type: ty}}
		for _, r := range rs {
			c.Ranges = append(c.Ranges, trace.Range{StartLine: r[0], EndLine: r[1]})
		}
		return c
	}
	u := trace.ConversationURL("c1")
	rec := trace.Record{Files: []trace.File{
		{Path: "./a.go", Conversations: []trace.Conversation{
			conv(u, "ai", [2]int{10, 12}, [2]int{3, 4}, [2]int{5, 5}, [2]int{11, 20}),
			conv("", "human", [2]int{6, 9}),
			conv("https://example.com/x", "ai", [2]int{7, 7}),
			conv(u, "mixed", [2]int{30, 31}),
		}},
		{Path: "big.go", Conversations: []trace.Conversation{conv(u, "ai", [2]int{1, 2000000000}, [2]int{9, 1})}},
	}}
	a := AILinesOf(rec)
	for _, tc := range []struct {
		path string
		line int
		want bool
	}{
		{"a.go", 2, false}, {"a.go", 3, true}, {"a.go", 5, true}, {"a.go", 6, false}, {"a.go", 7, false},
		{"a.go", 10, true}, {"a.go", 20, true}, {"a.go", 21, false}, {"a.go", 30, false},
		{"big.go", 1, true}, {"big.go", 123456789, true}, {"big.go", 0, false}, {"c.go", 1, false},
	} {
		if got := a.Has(tc.path, tc.line); got != tc.want {
			t.Errorf("%s:%d = %v, want %v", tc.path, tc.line, got, tc.want)
		}
	}
}
