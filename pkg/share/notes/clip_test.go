package notes

import (
	"math"
	"reflect"
	"testing"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
)

func TestHostileClip(t *testing.T) {
	added := map[string][]gitx.AddedLine{"a.go": {{Line: 3}, {Line: 4}, {Line: 5}, {Line: 9}}}
	conv := func(rs ...trace.Range) trace.Conversation {
		return trace.Conversation{URL: "git-convo:conversation/c", Contributor: &trace.Contributor{Type: "ai"}, Ranges: rs}
	}
	tests := []struct {
		name string
		in   []trace.File
		want []trace.File
	}{
		{"whole range kept with its hash", []trace.File{{Path: "a.go", Conversations: []trace.Conversation{conv(trace.Range{StartLine: 3, EndLine: 5, ContentHash: "h"})}}},
			[]trace.File{{Path: "a.go", Conversations: []trace.Conversation{conv(trace.Range{StartLine: 3, EndLine: 5, ContentHash: "h"})}}}},
		{"two billion lines", []trace.File{{Path: "a.go", Conversations: []trace.Conversation{conv(trace.Range{StartLine: 1, EndLine: 2000000000, ContentHash: "h"})}}},
			[]trace.File{{Path: "a.go", Conversations: []trace.Conversation{conv(trace.Range{StartLine: 3, EndLine: 5}, trace.Range{StartLine: 9, EndLine: 9})}}}},
		{"extremes and reversed", []trace.File{{Path: "./a.go", Conversations: []trace.Conversation{conv(trace.Range{StartLine: math.MinInt64, EndLine: math.MaxInt64}, trace.Range{StartLine: 9, EndLine: 3})}}},
			[]trace.File{{Path: "a.go", Conversations: []trace.Conversation{conv(trace.Range{StartLine: 3, EndLine: 5}, trace.Range{StartLine: 9, EndLine: 9})}}}},
		{"lines the commit did not add", []trace.File{{Path: "a.go", Conversations: []trace.Conversation{conv(trace.Range{StartLine: 6, EndLine: 8})}}}, []trace.File{}},
		{"a path it did not change", []trace.File{{Path: "../../etc/passwd", Conversations: []trace.Conversation{conv(trace.Range{StartLine: 1, EndLine: 9})}}}, []trace.File{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := clip(trace.Record{Files: tt.in}, added).Files
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("clip = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// toDiff leaves out exactly the records the clip would empty whatever the
// diff: those naming none of the files asked, matched as clip matches them.
func TestToDiff(t *testing.T) {
	rec := func(paths ...string) trace.Record {
		var r trace.Record
		for _, p := range paths {
			r.Files = append(r.Files, trace.File{Path: p})
		}
		return r
	}
	recs := map[string]trace.Record{
		"c1": rec("a.go"),
		"c2": rec("./sub/b.go", "../../etc/passwd"),
		"c3": rec(`sub\b.go`),
		"c4": rec(),
		"c5": rec("other.go"),
	}
	tests := []struct {
		name  string
		paths []string
		want  []string
	}{
		{"every file", nil, []string{"c1", "c2", "c3", "c4", "c5"}},
		{"no file named: every file, as diffs reads it", []string{}, []string{"c1", "c2", "c3", "c4", "c5"}},
		{"one file", []string{"a.go"}, []string{"c1"}},
		{"normalised on both sides", []string{"sub/b.go"}, []string{"c2", "c3"}},
		{"git's name with a backslash", []string{`sub\b.go`}, []string{"c2", "c3"}},
		{"several names of one file", []string{"a.go", "other.go"}, []string{"c1", "c5"}},
		{"a file no record names", []string{"none.go"}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := toDiff(recs, tt.paths); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("toDiff = %v, want %v", got, tt.want)
			}
		})
	}
}
