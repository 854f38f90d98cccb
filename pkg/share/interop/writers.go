package interop

import (
	"cmp"
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/notes"
)

// Writer is one writer other tools name in a commit: its claim and the
// lines it claims (none for a trailer: which lines is not known).
type Writer struct {
	Claim
	Lines int      `json:"lines"`
	Files []string `json:"files,omitempty"`
}

// Writers lists, per writer, what other tools say of one commit (byPath:
// its line claims; commit: its trailers' claims): line claims first, most
// lines first, then the trailers.
func Writers(byPath map[string]map[int][]Claim, commit []Claim) []Writer {
	at := map[Claim]int{}
	var out []Writer
	files := map[Claim]map[string]bool{}
	for path, byLine := range byPath {
		for _, cs := range byLine {
			for _, c := range cs {
				i, ok := at[c]
				if !ok {
					i = len(out)
					at[c] = i
					out = append(out, Writer{Claim: c})
					files[c] = map[string]bool{}
				}
				out[i].Lines++
				files[c][path] = true
			}
		}
	}
	for i := range out {
		for f := range files[out[i].Claim] {
			out[i].Files = append(out[i].Files, f)
		}
		sort.Strings(out[i].Files)
	}
	sortWriters(out)
	for _, c := range commit {
		out = append(out, Writer{Claim: c})
	}
	return out
}

// sortWriters orders line writers: most lines first, then by source,
// tool and person (their text joined, compared without joining it), then
// by what else tells two writers apart (two sessions of one agent), so
// that ties do not come in the order of a map.
func sortWriters(ws []Writer) {
	slices.SortStableFunc(ws, func(a, b Writer) int {
		if a.Lines != b.Lines {
			return cmp.Compare(b.Lines, a.Lines)
		}
		return cmp.Or(compareJoined([3]string{a.From, a.Tool, a.Person}, [3]string{b.From, b.Tool, b.Person}),
			strings.Compare(a.Model, b.Model), strings.Compare(a.Session, b.Session),
			strings.Compare(a.Conversation, b.Conversation), strings.Compare(a.Evidence, b.Evidence),
			strings.Compare(a.Attribution, b.Attribution), strings.Compare(a.Source, b.Source), cmp.Compare(a.Rank, b.Rank))
	})
}

// compareJoined is strings.Compare(a[0]+a[1]+a[2], b[0]+b[1]+b[2]).
func compareJoined(a, b [3]string) int {
	ai, aj, bi, bj := 0, 0, 0, 0 // part, and byte in it
	for {
		for ai < len(a) && aj == len(a[ai]) {
			ai, aj = ai+1, 0
		}
		for bi < len(b) && bj == len(b[bi]) {
			bi, bj = bi+1, 0
		}
		switch {
		case ai == len(a) && bi == len(b):
			return 0
		case ai == len(a):
			return -1
		case bi == len(b):
			return 1
		}
		if c := cmp.Compare(a[ai][aj], b[bi][bj]); c != 0 {
			return c
		}
		aj, bj = aj+1, bj+1
	}
}

// ForCommit reads what other tools say of one commit (its notes on the
// refs the repository has, and its trailers), for a caller that shows one
// commit (the MCP server). known names git-convo's conversations (nil:
// none).
func ForCommit(ctx context.Context, repo *gitx.Repo, g notes.Git, h string, known Known) ([]Writer, []Skip) {
	said, skips := ReadCommits(ctx, repo, g, []string{h}, nil, known)
	return Writers(said.Lines[h], said.Commit[h]), skips
}
