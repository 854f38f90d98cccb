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
