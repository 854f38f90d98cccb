package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/app"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/util/mstime"
	"github.com/git-convo/git-convo/pkg/util/term"
	"github.com/git-convo/git-convo/pkg/util/textmatch"
)

func conversationsCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "conversations",
		Usage:     "list conversations, newest first, with their linked-commit counts",
		UsageText: "git convo conversations [--all] [--since <date>] [--file <path>] [-n <count>] [--json]",
		Description: `Lists the conversations of the current repository (those that edited its files or
were opened on it), most recently active first. --all lists every repository's.`,
		Flags: append(readFlags(),
			&cli.BoolFlag{Name: "all", Usage: "every repository's conversations"},
			&cli.StringFlag{Name: "since", Usage: "only conversations active since this date (as git log --since: 2.weeks, yesterday, 2026-11-01; or 3d)"},
			&cli.StringFlag{Name: "file", Usage: "only conversations that touched this file"},
			&cli.IntFlag{Name: "max-count", Aliases: []string{"n"}, Value: 50, Usage: "at most this many (0: no limit)"},
		),
		Action: func(c *cli.Context) error {
			ctx := c.Context
			rc, f, err := openFiltered(c, env)
			if err != nil {
				return err
			}
			defer rc.Close()
			f.Limit = c.Int("max-count")
			list, err := rc.Conversations(ctx, f) // local, shared, and git-ai's commits of each session
			if err != nil {
				return err
			}
			if len(list) > 0 { // nothing to page: no empty pager after the hint
				rc.startPager()
				defer rc.stopPager()
			}
			p := rc.io.Palette()
			for _, cs := range list {
				if rc.json {
					if err := rc.io.WriteJSON(conversationRow(cs.Conversation, cs.Commits)); err != nil {
						return rc.ioErr(err)
					}
					continue
				}
				when := ""
				if cs.ActivityMs > 0 {
					when = term.RelativeTime(time.UnixMilli(cs.ActivityMs), env.Now())
				}
				if _, err := fmt.Fprintf(rc.io.Out, "%s %s %s\n", p.Key(cs.ID, shortID(cs.ID)), displayTitle(cs.Conversation, cs.ID),
					p.Dim(fmt.Sprintf("(%d commit%s, %s%s)", cs.Commits, plural(cs.Commits), when, env.agentSuffix(cs.Agent)))); err != nil {
					return rc.ioErr(err)
				}
			}
			// A hint for a person only; the read context's own hint (no
			// database yet) says it already.
			if len(list) == 0 && !rc.json && env.StderrTTY && rc.Hint() == "" {
				fmt.Fprintln(env.Stderr, "No conversations recorded for this repository yet.")
			}
			return nil
		},
	}
}

// openFiltered opens the read context and builds the conversation filter
// that conversations and search share. The caller closes rc.
func openFiltered(c *cli.Context, env *Env) (*readContext, app.ConversationFilter, error) {
	rc, err := newReadContext(c.Context, env, c)
	if err != nil {
		return nil, app.ConversationFilter{}, err
	}
	if err := rc.Ready(); err != nil {
		rc.Close()
		return nil, app.ConversationFilter{}, err
	}
	f, err := rc.filter(c)
	if err != nil {
		rc.Close()
		return nil, f, err
	}
	return rc, f, nil
}

// filter builds the repository/--since/--file filter shared by conversations and search.
func (rc *readContext) filter(c *cli.Context) (app.ConversationFilter, error) {
	var f app.ConversationFilter
	if !c.Bool("all") {
		repo, err := gitx.Open(c.Context, ".", false)
		if err != nil {
			return f, fmt.Errorf("%v (use --all outside a repository)", err)
		}
		f.RepoKey = repoKey(repo.CommonDir)
		f.Root = repo.TopLevel
	}
	if since := c.String("since"); since != "" {
		t, err := parseSince(c.Context, since, rc.env.Now())
		if err != nil {
			return f, usagef("--since=%s: %v", since, err)
		}
		f.SinceMs = t.UnixMilli()
	}
	if file := c.String("file"); file != "" {
		abs, err := filepath.Abs(file)
		if err != nil {
			return f, err
		}
		key, rel, ok := locate(abs)
		if !ok {
			return f, fmt.Errorf("%s is outside the repository", file)
		}
		f.RepoKey, f.FileKey = key, pathKey(rel)
	}
	return f, nil
}

type conversationRowJSON struct {
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	Summary     string   `json:"summary,omitempty"`
	FirstPrompt string   `json:"firstPrompt,omitempty"`
	Model       string   `json:"model,omitempty"`
	Status      string   `json:"status,omitempty"`
	Workspace   string   `json:"workspace,omitempty"`
	Started     string   `json:"started,omitempty"`
	LastActive  string   `json:"lastActive,omitempty"`
	Files       []string `json:"files"`
	Commits     int      `json:"commits"`
	Agent       string   `json:"agent,omitempty"`
}

func conversationRow(c app.Conversation, commits int) conversationRowJSON {
	files := c.CapturedFiles
	if files == nil {
		files = []string{}
	}
	return conversationRowJSON{ID: c.ID, Title: titleOf(c), Summary: c.Summary, FirstPrompt: c.FirstPrompt, Model: c.Model,
		Status: c.Status, Workspace: c.WorkspaceRoot, Started: mstime.ISO(c.FirstSeenMs), LastActive: mstime.ISO(c.ActivityMs),
		Files: files, Commits: commits, Agent: c.Agent}
}

func searchCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "search conversations' titles, summaries, first messages, prompts and final answers",
		UsageText: "git convo search [--all] [--since <date>] [-n <count>] [--json] <words>...",
		Description: `Finds the conversations whose title, Cursor summary, first message, prompts or the
agent's final answers (as the hooks recorded them) contain every word (case-insensitive), ranks them (title matches first, then how often the words
occur, then recency) and shows an excerpt around the first match. Conversations teammates
shared in git notes are found by their title, summary and shared first prompt.`,
		Flags: append(readFlags(),
			&cli.BoolFlag{Name: "all", Usage: "search every repository's conversations"},
			&cli.StringFlag{Name: "since", Usage: "only conversations active since this date (as git log --since: 2.weeks, yesterday; or 3d)"},
			&cli.IntFlag{Name: "max-count", Aliases: []string{"n"}, Value: 20, Usage: "at most this many results"},
		),
		Action: func(c *cli.Context) error {
			ctx := c.Context
			words := strings.Fields(strings.Join(c.Args().Slice(), " "))
			if len(words) == 0 {
				return usagef("search needs words to look for")
			}
			rc, f, err := openFiltered(c, env)
			if err != nil {
				return err
			}
			defer rc.Close()
			docs, shared, err := rc.SearchDocs(ctx, words, f)
			if err != nil {
				return err
			}
			results := rankSearch(docs, words)
			if n := c.Int("max-count"); n > 0 && len(results) > n {
				results = results[:n]
			}
			return printSearch(ctx, rc, results, shared)
		},
	}
}

type searchResult struct {
	doc     app.SearchDoc
	score   float64
	excerpt string
}

// rankSearch orders matches: words in the title weigh most, then the number of
// occurrences, then recency.
func rankSearch(docs []app.SearchDoc, words []string) []searchResult {
	out := make([]searchResult, 0, len(docs))
	for _, d := range docs {
		title := textmatch.Fold(d.Title)
		text := textmatch.Fold(d.Text + "\n" + d.Summary + "\n" + d.FirstPrompt)
		var score float64
		for _, w := range words {
			w = textmatch.Fold(w)
			if strings.Contains(title, w) {
				score += 5
			}
			score += float64(min(strings.Count(text, w), 10))
		}
		shown := d.Text // title, summary, first message, prompts and final answers
		if shown == "" {
			shown = d.Title + "\n" + d.Summary + "\n" + d.FirstPrompt
		}
		out = append(out, searchResult{doc: d, score: score, excerpt: excerpt(shown, words[0], 60)})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].doc.ActivityMs > out[j].doc.ActivityMs
	})
	return out
}

// excerpt returns the text around the first occurrence of word, on one line.
func excerpt(text, word string, radius int) string {
	start, end := textmatch.Index(text, word, 0)
	if start < 0 {
		return oneLine(text, 2*radius)
	}
	around, before, after := textmatch.Around(text, start, end, radius)
	s := oneLine(around, 3*radius)
	if before {
		s = "…" + s
	}
	if after {
		s += "…"
	}
	return s
}

type searchJSON struct {
	conversationRowJSON
	Score   float64 `json:"score"`
	Excerpt string  `json:"excerpt"`
	Origin  string  `json:"origin"` // local, or notes: known only from what teammates shared
}

func printSearch(_ context.Context, rc *readContext, results []searchResult, shared map[string]bool) error {
	rc.startPager()
	defer rc.stopPager()
	p := rc.io.Palette()
	for _, r := range results {
		if rc.json {
			if err := rc.io.WriteJSON(searchJSON{conversationRow(r.doc.Conversation, r.doc.Commits), r.score, r.excerpt, origin(shared[r.doc.ID])}); err != nil {
				return rc.ioErr(err)
			}
			continue
		}
		if _, err := fmt.Fprintf(rc.io.Out, "%s %s %s\n    %s\n", p.Key(r.doc.ID, shortID(r.doc.ID)),
			p.Bold(displayTitle(r.doc.Conversation, r.doc.ID)),
			p.Dim(fmt.Sprintf("(%d commit%s%s)", r.doc.Commits, plural(r.doc.Commits), rc.env.agentSuffix(r.doc.Agent))), term.Line(r.excerpt)); err != nil {
			return rc.ioErr(err)
		}
	}
	if len(results) == 0 && !rc.json && rc.env.StderrTTY && rc.Hint() == "" { // a hint for a person only
		fmt.Fprintln(rc.io.ErrOut, "No conversation matches.")
	}
	return nil
}
