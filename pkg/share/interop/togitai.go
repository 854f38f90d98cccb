package interop

import (
	"errors"
	"fmt"
	"sort"

	"github.com/git-convo/git-convo/pkg/share/interop/gitai"
	"github.com/git-convo/git-convo/pkg/share/trace"
)

// ToGitAI writes git-convo's attribution of commit (its Agent Trace record)
// as a git-ai authorship log: each conversation's lines under a session
// key derived as git-ai derives it from the agent and the conversation id,
// so that git-ai and git-convo name the same session alike. Only the lines
// an agent's edits wrote are written: git-ai's h_ keys mean lines seen
// typed, which git-convo does not see, and "mixed" lines (a conversation
// linked without line evidence) are left untracked. The log is checked by
// Parse before it is returned.
func ToGitAI(commit string, rec trace.Record) ([]byte, error) {
	meta, _ := rec.Meta()
	l := gitai.Log{Meta: gitai.Metadata{SchemaVersion: gitai.SchemaVersion, BaseCommitSHA: commit,
		Prompts: map[string]gitai.Prompt{}, Sessions: map[string]gitai.Session{}}}
	for _, f := range rec.Files {
		if gitai.CheckPath(f.Path) != nil {
			continue
		}
		entries := map[string][]gitai.Range{}
		for _, c := range f.Conversations {
			id := trace.ConversationID(c.URL)
			cm, known := meta.Conversations[id]
			if id == "" || !known || cm.Agent == "" || c.Contributor == nil || c.Contributor.Type != "ai" {
				continue
			}
			session := gitai.SessionKey(cm.Agent, id)
			key := session + "::" + gitai.TraceID("git-convo:"+commit+":"+id)
			l.Meta.Sessions[session] = gitai.Session{AgentID: gitai.AgentID{Tool: cm.Agent, ID: id, Model: cm.Model}}
			for _, r := range c.Ranges {
				entries[key] = append(entries[key], gitai.Range{Start: r.StartLine, End: r.EndLine})
			}
		}
		if len(entries) == 0 {
			continue
		}
		file := gitai.File{Path: f.Path}
		keys := make([]string, 0, len(entries))
		for k := range entries {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			rs, err := gitai.ParseRanges(gitai.FormatRanges(entries[k])) // sorted, merged
			if err != nil {
				return nil, fmt.Errorf("%s: %v", f.Path, err)
			}
			file.Entries = append(file.Entries, gitai.Entry{Key: k, Ranges: rs})
		}
		l.Files = append(l.Files, file)
	}
	if len(l.Meta.Sessions) == 0 {
		l.Meta.Sessions = nil
	}
	b, err := gitai.Encode(l)
	if err != nil {
		return nil, err
	}
	if _, err := gitai.Parse(b); err != nil {
		return nil, errors.Join(errors.New("the authorship log written would not read back"), err)
	}
	return b, nil
}
