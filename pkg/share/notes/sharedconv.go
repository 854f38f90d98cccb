package notes

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/store"
)

// NotShared says why a teammate's conversation has no messages.
const NotShared = "shared by a teammate in git notes: metadata only, the transcript was not shared"

// Shared is what shared notes say of one conversation the local data
// lacks: its metadata, each field from the first note that has it, and the
// commits naming it. `git convo conversation` and MCP's get_conversation
// answer with it.
type Shared struct {
	Conv  store.Conversation
	Links []store.LinkedConversation
}

// SharedConversation finds the conversation whose id is prefix, or starts
// with it, in the shared notes of the repository at dir. ok is false when
// no note names it.
func SharedConversation(ctx context.Context, dir, prefix string) (sh Shared, ok bool, err error) {
	rd := NewReader(ctx, dir)
	defer rd.Close()
	links, err := rd.Conversation(ctx, prefix)
	if err != nil || len(links) == 0 {
		return sh, false, err
	}
	sh = Shared{Conv: links[0].Conv, Links: links}
	for _, lc := range links[1:] {
		FillConversation(&sh.Conv, lc.Conv)
	}
	return sh, true, nil
}

// Files is every file the commits' records match to the conversation,
// sorted, once each.
func (sh Shared) Files() []string {
	files := []string{}
	for _, lc := range sh.Links {
		for _, f := range lc.MatchedFiles {
			if !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
	}
	slices.Sort(files)
	return files
}

// WriteMarkdown writes it as Markdown: the title, agent and model, that the
// transcript was not shared, the summary, the files and the commits. agent
// is the agent's name as the caller shows it. The text is the notes' own:
// a caller printing to a terminal escapes it.
func (sh Shared) WriteMarkdown(w io.Writer, agent string) error {
	var b strings.Builder
	title := sh.Conv.Title
	if title == "" {
		title = sh.Conv.ID
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "Conversation %s (%s", sh.Conv.ID, agent)
	if sh.Conv.Model != "" {
		fmt.Fprintf(&b, ", %s", sh.Conv.Model)
	}
	fmt.Fprintf(&b, "), %s.\n\n", NotShared)
	if sh.Conv.Summary != "" {
		fmt.Fprintf(&b, "%s\n\n", sh.Conv.Summary)
	}
	if files := sh.Files(); len(files) > 0 {
		b.WriteString("## Files\n\n")
		for _, f := range files {
			fmt.Fprintf(&b, "- %s\n", f)
		}
		b.WriteString("\n")
	}
	b.WriteString("## Commits\n\n")
	for _, lc := range sh.Links {
		fmt.Fprintf(&b, "- %s %s\n", gitx.ShortHash(lc.CommitHash), lc.Reason)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
