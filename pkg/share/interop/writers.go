package interop

import (
	"context"
	"sort"

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
// tool and person.
func sortWriters(ws []Writer) {
	sort.SliceStable(ws, func(i, j int) bool {
		if ws[i].Lines != ws[j].Lines {
			return ws[i].Lines > ws[j].Lines
		}
		return ws[i].From+ws[i].Tool+ws[i].Person < ws[j].From+ws[j].Tool+ws[j].Person
	})
}

// ForCommit reads what other tools say of one commit (its notes on the
// refs the repository has, and its trailers), for a caller that shows one
// commit (the MCP server). known names git-convo's conversations (nil:
// none).
func ForCommit(ctx context.Context, repo *gitx.Repo, g notes.Git, h string, known Known) ([]Writer, []Skip) {
	said, skips := ReadCommits(ctx, repo, g, []string{h}, nil, known)
	return Writers(said.Lines[h], said.Commit[h]), skips
}
