package interop

import (
	"context"
	"sort"

	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/notes"
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
// commit (the MCP server). known names git-convo's conversation for an
// agent's session ("" none).
func ForCommit(ctx context.Context, repo *gitx.Repo, g notes.Git, h string, known func(tool, session string) string) ([]Writer, []Skip) {
	if repo.CommonDir == "" {
		if r, ok := gitx.Discover(g.Dir, gitx.Getenv(g.Env)); ok {
			repo = r
		}
	}
	var lines Lines
	var skips []Skip
	if refs := Refs(ctx, g); len(refs) > 0 {
		lines, skips, _ = NewReader(repo, g, refs).Read(ctx, []string{h}, nil)
	}
	var commit []Claim
	if c, err := repo.ReadHeaderInProcess(h); err == nil {
		commit = TrailerClaims(c.Subject + "\n\n" + c.Body)
	}
	ws := Writers(lines[h], commit)
	for i := range ws {
		if ws[i].Tool != "" && ws[i].Session != "" && known != nil {
			ws[i].Conversation = known(ws[i].Tool, ws[i].Session)
		}
	}
	return ws, skips
}
