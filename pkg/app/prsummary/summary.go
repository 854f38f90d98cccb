// Package prsummary is the reviewer's view of a range of commits (a pull
// request): which conversations wrote its added lines, how sure each link
// is and what evidence it rests on, and which lines no record covers. It is
// the application layer `git convo pr` and the MCP tool pr_summary share:
// it reads git, the local database and the shared notes, and returns one
// Summary that the front ends only print.
package prsummary

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/interop"
	"github.com/git-convo/git-convo/pkg/share/notes"
	"github.com/git-convo/git-convo/pkg/share/redact"
	"github.com/git-convo/git-convo/pkg/store"
)

// Input is what Summarize reads.
type Input struct {
	Repo  *gitx.Repo    // opened at the work tree's top level (blame takes repository paths)
	Store *store.Store  // the local database (store.OpenEmpty in CI: notes alone)
	Notes *notes.Reader // teammates' shared notes; nil: none
	Args  []string      // none, [<base>] or [<base>..<head>]
	Home  string        // the user's home directory, redacted as share redacts it
	// Transcript reads a local conversation's edits for the words before
	// them (nil: no words).
	Transcript Transcript
	// Log receives problems that do not stop the summary (unreadable notes).
	Log func(format string, args ...any)
	// DefaultAgent is the agent of a conversation recorded with none
	// (the registry's first, from pkg/app; "": none is assumed), to know a
	// git-ai session as git-convo's conversation.
	DefaultAgent string
}

// Lines counts non-blank added lines by the three kinds the summary keeps
// apart. NoRecord is never "written by a person": nothing says who wrote it.
type Lines struct {
	Added    int `json:"added"`    // non-blank lines the range's diff adds
	Agent    int `json:"agent"`    // written by an agent's recorded edits
	NoEdit   int `json:"noEdit"`   // in recorded commits, from no recorded edit
	NoRecord int `json:"noRecord"` // in commits with no record at all
	Person   int `json:"person"`   // a person's, as another tool's record attests (git-ai's h_ lines)
}

// Count is lines attributed to one name (an agent, a model, a conversation).
type Count struct {
	Name  string `json:"name"`
	Lines int    `json:"lines"`
}

// Headline is the range's added lines by kind, the agent's by agent, model
// and conversation.
type Headline struct {
	Lines
	ByAgent        []Count `json:"byAgent"`
	ByModel        []Count `json:"byModel"`
	ByConversation []Count `json:"byConversation"` // Name is the conversation's id
	// BySource: the lines (an agent's or a person's) each source answers
	// for: "git-convo", "git-ai's notes", "compass's Agent Trace record".
	BySource []Count `json:"bySource"`
	// OtherTools: the writers other tools' records name, with the lines
	// their claim answers for (docs/interop.md).
	OtherTools []OtherWriter `json:"otherTools"`
}

// Commit is a commit of the range that no record covers.
type Commit struct {
	Hash    string `json:"hash"`
	Short   string `json:"shortHash"`
	Subject string `json:"subject"`
	Reason  string `json:"reason"` // "no record", "recorded before line evidence", or a squash made here read in part
}

// Commits says how many commits of the range a record covers.
type Commits struct {
	Total     int      `json:"total"`
	Covered   int      `json:"covered"`
	Uncovered []Commit `json:"uncovered"`
	// ByOtherTools: the commits only another tool's record covers, by
	// source.
	ByOtherTools []Count `json:"byOtherTools"`
}

// Conversation is one conversation the range's lines or links name.
type Conversation struct {
	ID         string  `json:"id"`
	Title      string  `json:"title"`
	Agent      string  `json:"agent"`
	Model      string  `json:"model"`
	Lines      int     `json:"lines"`      // added lines of the range it wrote
	Confidence float64 `json:"confidence"` // its strongest link to a commit of the range
	Evidence   string  `json:"evidence"`   // that link's evidence kind
	Origin     string  `json:"origin"`     // local or notes
}

// EvidenceSaid is Evidence as the reports show it: a conversation read
// from a shared note (a teammate's, or one forgotten here) says so.
func (c Conversation) EvidenceSaid() string {
	if c.Origin == "notes" {
		return c.Evidence + ", from a shared note"
	}
	return c.Evidence
}

// File is one file of the range's diff.
type File struct {
	Path string `json:"path"`
	Lines
	Conversations []Count       `json:"conversations"` // Name is the conversation's id
	OtherTools    []OtherWriter `json:"otherTools"`    // writers other tools' records name
}

// Writer is one conversation in one hunk: the lines it wrote there (0 when
// it is linked to the hunk's commit without writing these lines), the
// prompt behind them and the link's evidence.
type Writer struct {
	Conversation string  `json:"conversation"` // its id
	Commit       string  `json:"commit"`
	Lines        int     `json:"lines"`
	Prompt       string  `json:"prompt"`       // its first meaningful line, redacted; "" when unknown
	PromptFolded int     `json:"promptFolded"` // further non-blank lines of the prompt, not shown
	PromptSource string  `json:"promptSource"` // "edit" (the prompt of the edit), "first prompt" (the conversation's), or ""
	Answer       string  `json:"answer"`       // the first meaningful line of the agent's recorded answer to that prompt, redacted; ""
	AnswerFolded int     `json:"answerFolded"` // further non-blank lines of the answer, not shown
	Words        string  `json:"words"`        // the first meaningful line of the agent's words just before the edit that wrote most of these lines, from its transcript (words.go), redacted; ""
	WordsFolded  int     `json:"wordsFolded"`  // further non-blank lines of the words, not shown
	Confidence   float64 `json:"confidence"`
	Evidence     string  `json:"evidence"`               // the link's: position, text match, agent commit, overlap only, manual
	LineEvidence string  `json:"lineEvidence,omitempty"` // how its lines are known: position or text match
}

// Said is what the reports show of the agent's words beside the prompt:
// its words just before the edit, else its recorded answer to the prompt,
// with how many lines are folded and what the text is.
func (w Writer) Said() (text string, folded int, what string) {
	if w.Words != "" {
		return w.Words, w.WordsFolded, "said before the edit"
	}
	if w.Answer != "" {
		return w.Answer, w.AnswerFolded, "the agent's answer"
	}
	return "", 0, ""
}

// Hunk is one hunk of the range's diff.
type Hunk struct {
	Path     string `json:"path"`
	OldStart int    `json:"oldStart"`
	OldLines int    `json:"oldLines"`
	NewStart int    `json:"newStart"`
	NewLines int    `json:"newLines"`
	Lines
	Writers []Writer `json:"writers"`
	// Other tools' records: the writers they name (a trailer's with no
	// lines) and, where any spoke, every claim on the hunk's lines with its
	// source, and on how many lines sources agree or disagree.
	OtherTools      []OtherWriter `json:"otherTools"`
	Claims          []ClaimCount  `json:"claims,omitempty"`
	SourcesAgree    int           `json:"sourcesAgree,omitempty"`
	SourcesDisagree int           `json:"sourcesDisagree,omitempty"`
}

// Summary is the reviewer's view of a range.
type Summary struct {
	Range           string         `json:"range"` // as given, or the default chosen
	Base            string         `json:"base"`
	Head            string         `json:"head"`
	MergeBase       string         `json:"mergeBase"`
	NothingRecorded bool           `json:"nothingRecorded"`
	Message         string         `json:"message"` // one line saying what the range holds
	Headline        Headline       `json:"headline"`
	Commits         Commits        `json:"commits"`
	Conversations   []Conversation `json:"conversations"`
	Files           []File         `json:"files"`
	Hunks           []Hunk         `json:"hunks"`
	// WordsUnread counts the conversations whose transcripts were not read
	// for the words before their edits: past MaxTranscripts, or
	// MaxTranscriptBytes.
	WordsUnread int `json:"wordsUnread"`
}

// Summarize reads the range and returns its summary. A range with nothing
// recorded is no error: NothingRecorded says so.
func Summarize(ctx context.Context, in Input) (*Summary, error) {
	if in.Log == nil {
		in.Log = func(string, ...any) {}
	}
	rg, err := resolveRange(ctx, in.Repo, in.Args)
	if err != nil {
		return nil, err
	}
	s := &Summary{Range: rg.label, Base: rg.base, Head: rg.head, MergeBase: rg.mergeBase,
		Commits: Commits{Uncovered: []Commit{}, ByOtherTools: []Count{}}, Conversations: []Conversation{}, Files: []File{}, Hunks: []Hunk{},
		Headline: Headline{ByAgent: []Count{}, ByModel: []Count{}, ByConversation: []Count{}, BySource: []Count{}, OtherTools: []OtherWriter{}}}
	var commits []gitx.Commit
	if err := in.Repo.StreamLog(ctx, []string{"^" + rg.base, rg.head}, gitx.LogOptions{}, func(c gitx.Commit) bool {
		commits = append(commits, c)
		return true
	}); err != nil {
		return nil, err
	}
	// The range's diff and where its lines come from, while the database
	// and the notes are read: one pass of git over the range's patches.
	type diffResult struct {
		hunks  []gitx.Hunk
		blamed map[string]map[int]gitx.BlameLine
		err    error
	}
	diffed := make(chan diffResult, 1)
	go func() {
		var d diffResult
		d.hunks, d.blamed, d.err = originsOf(ctx, in.Repo, rg, commits)
		diffed <- d
	}()
	hashes := make([]string, len(commits))
	for i, c := range commits {
		hashes[i] = c.Hash
	}
	// The readers blame --json and show --json use: local lines and links,
	// then the shared notes' for what the local database lacks.
	linked, err := in.Store.ConversationsForCommits(ctx, hashes)
	if err != nil {
		return nil, err
	}
	writers, covered, err := in.Store.CommitLineWriters(ctx, hashes)
	if err != nil {
		return nil, err
	}
	anyRecord, err := in.Store.RecordedCommits(ctx, hashes)
	if err != nil {
		return nil, err
	}
	var claimed notes.ClaimedLines
	squashedHere := map[string]bool{} // examined here, some lines unknown through this clone's note
	if in.Notes != nil {
		// Only lines the replay (or blame) says a commit added are looked
		// up, once it is done: the notes need no clip to each commit's diff.
		if err := in.Notes.OpenRewrites(ctx, hashes, covered, in.Store.RecordedCommits); err != nil {
			in.Log("reading the rewritten commits: %v", err)
		}
		// A squash of teammates' commits made here by git reset --soft:
		// this clone's note reads its lines as blame does.
		var examined []string
		for _, h := range hashes {
			if covered[h] {
				examined = append(examined, h)
			}
		}
		if err := in.Notes.MergeDerivedLines(ctx, examined, writers, covered); err != nil {
			in.Log("reading shared notes: %v", err)
		}
		for _, h := range examined {
			squashedHere[h] = !covered[h]
		}
		if claimed, err = in.Notes.MergeLinkedClaimed(ctx, hashes, linked, covered); err != nil {
			in.Log("reading shared notes: %v", err)
		}
	}
	// Other tools' records: a commit only they cover is covered.
	oth := others{said: in.readOthers(ctx, hashes), own: map[string]bool{}}
	for h, ok := range covered {
		oth.own[h] = ok
	}
	var trailerOnly map[string]string
	s.Commits.ByOtherTools, trailerOnly = oth.cover(commits, covered)
	byHash := map[string]gitx.Commit{}
	links := 0
	for _, c := range commits {
		byHash[c.Hash] = c
		links += len(linked[c.Hash])
		// A merge writes no lines of its own: its record is its coverage.
		if c.IsMerge() && anyRecord[c.Hash] {
			covered[c.Hash] = true
		}
		if covered[c.Hash] {
			s.Commits.Covered++
			continue
		}
		reason := "no record"
		if squashedHere[c.Hash] {
			reason = "a squash of teammates' commits made here, some lines unknown"
		} else if anyRecord[c.Hash] {
			reason = "recorded before line evidence"
		} else if r := trailerOnly[c.Hash]; r != "" {
			reason = r
		}
		s.Commits.Uncovered = append(s.Commits.Uncovered, Commit{Hash: c.Hash, Short: gitx.ShortHash(c.Hash),
			Subject: in.text(c.Subject), Reason: reason})
	}
	s.Commits.Total = len(commits)
	d := <-diffed
	if d.err != nil {
		return nil, d.err
	}
	hunks, blamed := d.hunks, d.blamed
	claimed.AddIn(writers, addedLines(blamed))
	b := builder{in: in, s: s, linked: linked, writers: writers, covered: covered, others: oth,
		convs: map[string]*Conversation{}, prompts: map[store.LineWriter]prompt{},
		words: wordsOf{read: in.Transcript, edits: map[string]byText{}, unread: map[string]bool{}},
		when:  func(h string) time.Time { return byHash[h].CommitTime }}
	for _, h := range hunks {
		b.hunk(ctx, h, blamed[h.Path])
	}
	b.finish()
	if s.WordsUnread = len(b.words.unread); s.WordsUnread > 0 {
		in.Log("pr: the words before the edits of %d conversations not read (at most %d transcripts, %d MiB, a summary)",
			s.WordsUnread, MaxTranscripts, MaxTranscriptBytes>>20)
	}
	switch {
	case len(commits) == 0:
		s.NothingRecorded = true
		s.Message = fmt.Sprintf("Nothing recorded: %s has no commits.", s.Range)
	case s.Commits.Covered == 0 && links == 0:
		s.NothingRecorded = true
		s.Message = fmt.Sprintf("Nothing recorded for %s: none of its %d commits has a git-convo record (local, or in fetched notes).",
			s.Range, len(commits))
		if n := len(trailerOnly); n > 0 {
			s.Message += fmt.Sprintf(" A commit trailer names an agent in %d of them (which lines is not known).", n)
		}
	default:
		s.Message = fmt.Sprintf("%d of %d non-blank added lines written by agents; %d of %d commits covered by a record.",
			s.Headline.Agent, s.Headline.Added, s.Commits.Covered, s.Commits.Total) + b.othersSaid()
	}
	return s, nil
}

// addedLines is the lines blamed gives each commit, by path (link.NormPath)
// and number there.
func addedLines(blamed map[string]map[int]gitx.BlameLine) map[string]map[string][]int {
	out := map[string]map[string][]int{}
	for _, lines := range blamed {
		for _, bl := range lines {
			if out[bl.Commit] == nil {
				out[bl.Commit] = map[string][]int{}
			}
			p := link.NormPath(bl.Filename)
			out[bl.Commit][p] = append(out[bl.Commit][p], bl.OrigLine)
		}
	}
	return out
}

// text is outside text as share would send it: no secret, no path outside
// the repository, no home directory.
func (in Input) text(s string) string {
	return redact.Text(redact.Paths(s, in.Repo.TopLevel, in.Home))
}

type prompt struct {
	first  string
	folded int
	source string
	answer string
	more   int
}

// builder adds up the hunks into the summary.
type builder struct {
	in      Input
	s       *Summary
	linked  map[string][]store.LinkedConversation
	writers map[string]map[string]map[int]store.LineWriter
	covered map[string]bool
	convs   map[string]*Conversation
	prompts map[store.LineWriter]prompt
	files   []*File
	fileIx  map[string]*File
	agents  map[string]int
	models  map[string]int
	words   wordsOf
	when    func(commit string) time.Time // its commit time
	// Other tools' records (others.go).
	others     others
	bySource   map[string]int
	otherWs    tally[interop.Claim, OtherWriter]
	fileOthers map[*File]*tally[interop.Claim, OtherWriter]
}

func (b *builder) conv(lc store.LinkedConversation) *Conversation {
	c := b.convs[lc.ConversationID]
	if c == nil {
		c = &Conversation{ID: lc.ConversationID, Title: b.in.text(titleOf(lc.Conv)), Agent: lc.Conv.Agent,
			Model: b.in.text(lc.Conv.Model), Confidence: lc.Confidence, Evidence: lc.Evidence(), Origin: notes.Origin(lc.Source)}
		b.convs[lc.ConversationID] = c
	} else if evidenceRank(lc.Evidence()) < evidenceRank(c.Evidence) ||
		evidenceRank(lc.Evidence()) == evidenceRank(c.Evidence) && lc.Confidence > c.Confidence {
		c.Confidence, c.Evidence = lc.Confidence, lc.Evidence()
	}
	return c
}

// linkOf is the commit's link to the conversation (ok false: none).
func (b *builder) linkOf(commit, conv string) (store.LinkedConversation, bool) {
	for _, lc := range b.linked[commit] {
		if lc.ConversationID == conv {
			return lc, true
		}
	}
	return store.LinkedConversation{}, false
}

func (b *builder) hunk(ctx context.Context, h gitx.Hunk, blamed map[int]gitx.BlameLine) {
	if b.fileIx == nil {
		b.fileIx, b.agents, b.models, b.bySource = map[string]*File{}, map[string]int{}, map[string]int{}, map[string]int{}
	}
	f := b.fileIx[h.Path]
	if f == nil {
		f = &File{Path: h.Path, OtherTools: []OtherWriter{}}
		b.fileIx[h.Path] = f
		b.files = append(b.files, f)
	}
	out := Hunk{Path: h.Path, OldStart: h.OldStart, OldLines: h.OldLines, NewStart: h.NewStart, NewLines: h.NewLines, Writers: []Writer{},
		OtherTools: []OtherWriter{}}
	var hc hunkClaims
	type key struct{ conv, commit, gen string }
	ws := map[key]*Writer{}
	var order []key
	written := map[key][]line{}
	commitsSeen := map[string]bool{}
	var commitOrder []string
	for _, al := range h.Added {
		if strings.TrimSpace(al.Text) == "" {
			continue // blank lines count in no share
		}
		out.Added++
		bl, ok := blamed[al.Line]
		if !ok {
			out.NoRecord++
			continue
		}
		if !commitsSeen[bl.Commit] {
			commitsSeen[bl.Commit] = true
			commitOrder = append(commitOrder, bl.Commit)
		}
		w, wrote := b.writers[bl.Commit][link.NormPath(bl.Filename)][bl.OrigLine]
		switch {
		case wrote:
			b.bySource[SourceGitConvo]++
			out.Agent++
			k := key{w.ConversationID, bl.Commit, w.GenerationID}
			wr := ws[k]
			if wr == nil {
				wr = b.writer(ctx, bl.Commit, w)
				ws[k] = wr
				order = append(order, k)
			}
			wr.Lines++
			written[k] = append(written[k], line{text: al.Text, commit: bl.Commit, path: bl.Filename})
			if v, spoke := b.claimsOn(bl, w, true); spoke {
				hc.note(bl.Commit, v) // git-convo's answer stands; the others agree or not
			}
			c := b.convs[w.ConversationID]
			c.Lines++
			b.agents[orUnknown(c.Agent)]++
			b.models[orUnknown(c.Model)]++
			f.conversation(w.ConversationID)
		case b.other(ctx, &hc, f, bl, &out):
		case b.covered[bl.Commit]:
			out.NoEdit++
		default:
			out.NoRecord++
		}
	}
	for _, k := range order {
		if lc, ok := b.linkOf(k.commit, k.conv); ok {
			if words := b.words.words(ctx, lc, written[k], b.when); words != "" {
				ws[k].Words, ws[k].WordsFolded = FirstLine(b.in.text(words))
			}
		}
	}
	// Conversations linked to the hunk's commits that wrote none of its
	// lines (overlap only, by hand, the agent's own commit): shown with
	// their evidence, never counted as writers.
	for _, commit := range commitOrder {
		for _, lc := range b.linked[commit] {
			found := hc.wrote(commit, lc.ConversationID) // by another tool's record
			for _, k := range order {
				if k.conv == lc.ConversationID && k.commit == commit {
					found = true
				}
			}
			if !found {
				b.conv(lc)
				k := key{lc.ConversationID, commit, "\x00linked"}
				ws[k] = &Writer{Conversation: lc.ConversationID, Commit: commit, Confidence: lc.Confidence, Evidence: lc.Evidence()}
				order = append(order, k)
			}
		}
	}
	for _, k := range order {
		out.Writers = append(out.Writers, *ws[k])
	}
	hc.finish(&out, commitOrder, b.others.said)
	f.Added += out.Added
	f.Agent += out.Agent
	f.NoEdit += out.NoEdit
	f.NoRecord += out.NoRecord
	f.Person += out.Person
	b.s.Headline.Person += out.Person
	b.s.Headline.Added += out.Added
	b.s.Headline.Agent += out.Agent
	b.s.Headline.NoEdit += out.NoEdit
	b.s.Headline.NoRecord += out.NoRecord
	b.s.Hunks = append(b.s.Hunks, out)
}

// writer starts a hunk's entry for the conversation whose edit wrote a line.
func (b *builder) writer(ctx context.Context, commit string, w store.LineWriter) *Writer {
	lc, ok := b.linkOf(commit, w.ConversationID)
	if !ok {
		lc = store.LinkedConversation{Link: store.Link{ConversationID: w.ConversationID, CommitHash: commit, Source: notes.SourceNotes,
			WrittenLines: 1}, Conv: store.Conversation{ID: w.ConversationID}}
		if w.Evidence == store.EvidencePosition {
			lc.PositionLines = 1
		}
	}
	b.conv(lc)
	wr := &Writer{Conversation: w.ConversationID, Commit: commit, Confidence: lc.Confidence, Evidence: lc.Evidence(),
		LineEvidence: store.LineEvidence(w)}
	p, seen := b.prompts[w]
	if !seen {
		text, source := "", ""
		if w.GenerationID != "" {
			if t, err := b.in.Store.PromptText(ctx, w.ConversationID, w.GenerationID); err == nil && t != "" {
				text, source = t, "edit"
			}
		}
		if text == "" && lc.Conv.FirstPrompt != "" {
			text, source = lc.Conv.FirstPrompt, "first prompt"
		}
		first, folded := FirstLine(b.in.text(text))
		p = prompt{first: first, folded: folded, source: source}
		if first == "" {
			p.source = ""
		}
		if source == "edit" {
			if t, err := b.in.Store.ResponseText(ctx, w.ConversationID, w.GenerationID); err == nil {
				p.answer, p.more = FirstLine(b.in.text(t))
			}
		}
		b.prompts[w] = p
	}
	wr.Prompt, wr.PromptFolded, wr.PromptSource = p.first, p.folded, p.source
	wr.Answer, wr.AnswerFolded = p.answer, p.more
	return wr
}

func (f *File) conversation(id string) {
	for i := range f.Conversations {
		if f.Conversations[i].Name == id {
			f.Conversations[i].Lines++
			return
		}
	}
	f.Conversations = append(f.Conversations, Count{Name: id, Lines: 1})
}

func (b *builder) finish() {
	b.finishOthers()
	for _, f := range b.files {
		if f.Conversations == nil {
			f.Conversations = []Count{}
		}
		sortCounts(f.Conversations)
		b.s.Files = append(b.s.Files, *f)
	}
	for _, c := range b.convs {
		b.s.Conversations = append(b.s.Conversations, *c)
		if c.Lines > 0 {
			b.s.Headline.ByConversation = append(b.s.Headline.ByConversation, Count{Name: c.ID, Lines: c.Lines})
		}
	}
	sort.Slice(b.s.Conversations, func(i, j int) bool {
		a, c := b.s.Conversations[i], b.s.Conversations[j]
		if a.Lines != c.Lines {
			return a.Lines > c.Lines
		}
		return a.ID < c.ID
	})
	sortCounts(b.s.Headline.ByConversation)
	for name, n := range b.agents {
		b.s.Headline.ByAgent = append(b.s.Headline.ByAgent, Count{Name: name, Lines: n})
	}
	for name, n := range b.models {
		b.s.Headline.ByModel = append(b.s.Headline.ByModel, Count{Name: name, Lines: n})
	}
	sortCounts(b.s.Headline.ByAgent)
	sortCounts(b.s.Headline.ByModel)
}

func sortCounts(cs []Count) {
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].Lines != cs[j].Lines {
			return cs[i].Lines > cs[j].Lines
		}
		return cs[i].Name < cs[j].Name
	})
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// evidenceRank orders evidence kinds strongest first (docs/linking.md).
func evidenceRank(e string) int {
	switch e {
	case store.LinkEvidenceManual:
		return 0
	case store.LinkEvidenceAgentCommit:
		return 1
	case store.LinkEvidencePosition:
		return 2
	case store.LinkEvidenceText:
		return 3
	case store.LinkEvidenceRewrite:
		return 4
	}
	return 5
}

// titleOf is a conversation's title as the read commands give it: its
// title, else the start of its first prompt.
func titleOf(c store.Conversation) string {
	if c.Title != "" || c.FirstPrompt == "" {
		return c.Title
	}
	first, _ := FirstLine(c.FirstPrompt)
	if r := []rune(first); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return first
}

// FirstLine is a prompt's first meaningful line (one holding a letter or
// digit, not a lone markup tag such as <user_query>), and how many further
// non-blank lines are folded away.
func FirstLine(text string) (first string, folded int) {
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if first != "" {
			folded++
			continue
		}
		if meaningful(t) {
			first = t
		}
	}
	return first, folded
}

func meaningful(t string) bool {
	if strings.HasPrefix(t, "<") && strings.HasSuffix(t, ">") && !strings.ContainsAny(t[1:len(t)-1], "<> ") {
		return false // a lone tag
	}
	return strings.IndexFunc(t, func(r rune) bool {
		return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127
	}) >= 0
}

// originsOf reads the range's diff and finds, for each of its added lines,
// the commit that added it and its number there: in the same pass of git
// over the range's patches when the range is linear (gitx.RangeLines:
// blame's answer, without a blame per file), else by blame.
func originsOf(ctx context.Context, repo *gitx.Repo, rg resolved, commits []gitx.Commit) ([]gitx.Hunk, map[string]map[int]gitx.BlameLine, error) {
	if rg.base != rg.mergeBase {
		commits = nil // they are base..head: mergeBase..head is read by RangeLines
	}
	hunks, carried, linear, err := repo.RangeLines(ctx, rg.mergeBase, rg.head, commits)
	if err != nil {
		return nil, nil, err
	}
	if !linear {
		blamed, err := blameAdded(ctx, repo, rg.mergeBase, rg.head, hunks)
		return hunks, blamed, err
	}
	out := map[string]map[int]gitx.BlameLine{}
	for _, h := range hunks {
		owners := carried[h.Path]
		m := out[h.Path]
		if m == nil {
			m = map[int]gitx.BlameLine{}
			out[h.Path] = m
		}
		for _, al := range h.Added {
			if al.Line-1 < len(owners) {
				if o := owners[al.Line-1]; o.Commit != "" {
					m[al.Line] = gitx.BlameLine{Line: al.Line, Commit: o.Commit, Filename: o.Path, OrigLine: o.Line}
				}
			}
		}
	}
	return hunks, out, nil
}

// blameAdded blames the added lines of each file of the range (git blame
// limited to mergeBase..head): per path and line of head, the commit that
// added it and its number there. Two files at a time.
func blameAdded(ctx context.Context, repo *gitx.Repo, mergeBase, head string, hunks []gitx.Hunk) (map[string]map[int]gitx.BlameLine, error) {
	ranges := map[string][]string{}
	var paths []string
	for _, h := range hunks {
		if len(h.Added) == 0 {
			continue
		}
		if ranges[h.Path] == nil {
			paths = append(paths, h.Path)
		}
		ranges[h.Path] = append(ranges[h.Path], "-L", fmt.Sprintf("%d,%d", h.NewStart, h.NewStart+h.NewLines-1))
	}
	out := make(map[string]map[int]gitx.BlameLine, len(paths))
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for _, p := range paths {
		wg.Add(1)
		sem <- struct{}{}
		go func(p string) {
			defer func() { <-sem; wg.Done() }()
			rev := head
			if mergeBase != "" {
				rev = mergeBase + ".." + head
			}
			args := append(append([]string{}, ranges[p]...), rev, "--", p)
			lines, err := repo.Blame(ctx, gitx.BlameOptions{Args: args})
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if firstErr == nil {
					firstErr = fmt.Errorf("blaming %s: %w", p, err)
				}
				return
			}
			m := make(map[int]gitx.BlameLine, len(lines))
			for _, l := range lines {
				if !l.Boundary {
					m[l.Line] = l
				}
			}
			out[p] = m
		}(p)
	}
	wg.Wait()
	return out, firstErr
}
