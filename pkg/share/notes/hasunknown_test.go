package notes

import (
	"testing"

	"github.com/git-convo/git-convo/pkg/share/trace"
)

// TestHasUnknown: a record names some lines no one's when it says so
// (unknown), or when a "mixed" file's link was scored with no line
// evidence (added_lines 0: the commit's lines were not examined), as
// records written before trace.Build put unknown first did; a mixed file
// of a link scored on examined lines, or a person's lines, do not.
func TestHasUnknown(t *testing.T) {
	rec := func(added int, types ...string) trace.Record {
		f := trace.File{Path: "limiter.go"}
		for i, ty := range types {
			c := trace.Conversation{Contributor: &trace.Contributor{Type: ty}, Ranges: []trace.Range{{StartLine: i + 1, EndLine: i + 1}}}
			if ty != "human" && ty != "unknown" {
				c.URL = trace.ConversationURL("conv-" + ty)
			}
			f.Conversations = append(f.Conversations, c)
		}
		r := trace.Record{Files: []trace.File{f}}
		r.SetMeta(trace.Meta{Format: trace.Format, Writer: "clone-a", Conversations: map[string]trace.ConvMeta{
			"conv-ai": {WrittenLines: 1, AddedLines: 4}, "conv-mixed": {AddedLines: added}}})
		return r
	}
	for _, tc := range []struct {
		name string
		rec  trace.Record
		want bool
	}{
		{"examined", rec(4, "ai", "human"), false},
		{"unknown", rec(4, "ai", "unknown"), true},
		{"mixed, examined", rec(4, "ai", "mixed"), false},
		{"mixed, scored without line evidence", rec(0, "mixed"), true},
	} {
		if got := HasUnknown(tc.rec); got != tc.want {
			t.Errorf("%s: HasUnknown = %v, want %v", tc.name, got, tc.want)
		}
	}
}
