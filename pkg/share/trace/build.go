package trace

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/attribution/link"
	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/redact"
	"github.com/git-convo/git-convo/pkg/util/mstime"
)

// Input is what git-convo knows about one commit.
type Input struct {
	Commit string
	Time   time.Time // the commit's committer time: the record's timestamp, so rebuilding it changes nothing
	// Added is the commit's added lines per path (against its first parent).
	Added map[string][]gitx.AddedLine
	// Writers names, per path and line, the conversation that wrote it.
	Writers map[string]map[int]string
	// Unexamined: the commit's lines were not examined (recorded before
	// line evidence, or a conversation that wrote some was forgotten): a
	// line Writers does not name is unknown, not a person's.
	Unexamined bool
	// BlanksKnown: Writers name the blank lines the agents wrote (evidence
	// by position), so no other blank line is given to a conversation.
	BlanksKnown bool
	Links       []Link
	// Prompts shares each conversation's first prompt (redacted).
	Prompts bool
	// Root and Home are the work tree and the home directory: paths under
	// them are made relative or hidden in free text.
	Root, Home  string
	ToolVersion string
	Writer      string // names this clone (convo.shareWriter)
	// Withdrawn are the derived links this clone withdrew on the commit.
	Withdrawn []Withdrawal
}

// Link is one conversation linked to the commit.
type Link struct {
	ID, Agent, Model, Title, Summary, FirstPrompt, Status, Reason string
	Confidence                                                    float64
	MatchedFiles                                                  []string
	FirstSeenMs, ActivityMs                                       int64
	WrittenLines, AddedLines, PositionLines                       int
	Derived                                                       string // "squash": derived, not recorded (ConvMeta.Derived)
	SharedBy                                                      string // the teammate whose note a derived link came from (ConvMeta.SharedBy)
}

// ConversationURL names a conversation in a record: conversations live in
// the agent's own storage, so this is a name, not a web address.
func ConversationURL(id string) string { return "git-convo:conversation/" + url.PathEscape(id) }

// ConversationID is the inverse of ConversationURL ("" for another URL).
func ConversationID(u string) string {
	rest, ok := strings.CutPrefix(u, "git-convo:conversation/")
	if !ok {
		return ""
	}
	id, err := url.PathUnescape(rest)
	if err != nil {
		return ""
	}
	return id
}

// Build makes the record of one commit.
func Build(in Input) Record {
	rec := Record{
		Version:   SpecVersion,
		Timestamp: in.Time.UTC().Format(time.RFC3339),
		VCS:       &VCS{Type: "git", Revision: in.Commit},
		Tool:      &Tool{Name: "git-convo", Version: in.ToolVersion},
		Files:     []File{},
	}
	meta := Meta{Format: Format, Writer: in.Writer, Conversations: map[string]ConvMeta{}, Withdrawn: in.Withdrawn}
	models := map[string]string{}
	wroteLines := map[string]bool{}
	for _, l := range in.Links {
		models[l.ID] = ModelID(in.text(l.Model)) // redacted before lower-casing: secret formats have a case
		meta.Conversations[l.ID] = in.convMeta(l)
	}
	for _, w := range in.Writers {
		for _, id := range w {
			wroteLines[id] = true
		}
	}
	paths := make([]string, 0, len(in.Added))
	for p := range in.Added {
		if shareable(p) {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		f, ev := in.file(p, models, wroteLines)
		if len(f.Conversations) > 0 {
			rec.Files = append(rec.Files, f)
		}
		meta.Evidence = append(meta.Evidence, ev...)
	}
	rec.SetMeta(meta)
	rec.ID = contentID(rec)
	return rec
}

// file attributes one file's added lines: each conversation's own lines,
// then the rest to a person, or "mixed" to a conversation linked on this
// file without line evidence (it was there, but which lines it wrote is
// not known). In a commit whose lines were not examined (Unexamined) the
// rest is unknown, mixed or not: no one examined them, and a reader takes
// a record with no unknown line for an examined commit, its lines no
// conversation wrote for a person's.
func (in Input) file(p string, models map[string]string, wroteLines map[string]bool) (File, []Evidence) {
	lines := in.Added[p]
	owner := make([]string, len(lines))
	for i, l := range lines {
		owner[i] = in.Writers[p][l.Line]
	}
	// A blank line inside one conversation's run belongs to it (when only
	// text evidence says who wrote what).
	for i := range lines {
		if !in.BlanksKnown && owner[i] == "" && !link.Countable(lines[i].Text) && i > 0 && i+1 < len(lines) && owner[i-1] != "" && owner[i-1] == owner[i+1] {
			owner[i] = owner[i-1]
		}
	}
	mixed := ""
	for _, l := range in.Links {
		if !in.Unexamined && !wroteLines[l.ID] && contains(l.MatchedFiles, p) {
			mixed = l.ID
			break
		}
	}
	type group struct {
		lines []gitx.AddedLine
	}
	groups := map[string]*group{}
	var order []string
	for i, l := range lines {
		o := owner[i]
		if o == "" && mixed != "" {
			o = "mixed:" + mixed
		}
		if groups[o] == nil {
			groups[o] = &group{}
			order = append(order, o)
		}
		groups[o].lines = append(groups[o].lines, l)
	}
	sort.Strings(order)
	f := File{Path: p, Conversations: []Conversation{}}
	var ev []Evidence
	for _, o := range order {
		g := groups[o]
		c := Conversation{Ranges: ranges(g.lines)}
		switch {
		case o == "" && in.Unexamined:
			c.Contributor = &Contributor{Type: "unknown"}
		case o == "":
			c.Contributor = &Contributor{Type: "human"}
		case strings.HasPrefix(o, "mixed:"):
			id := strings.TrimPrefix(o, "mixed:")
			c.URL = ConversationURL(id)
			c.Contributor = &Contributor{Type: "mixed", ModelID: models[id]}
		default:
			c.URL = ConversationURL(o)
			c.Contributor = &Contributor{Type: "ai", ModelID: models[o]}
			var hs []string
			for _, l := range g.lines {
				if link.Countable(l.Text) {
					hs = append(hs, LineHash(l.Text))
				}
			}
			if len(hs) > 0 {
				ev = append(ev, Evidence{Path: p, Conversation: o, Lines: hs})
			}
		}
		f.Conversations = append(f.Conversations, c)
	}
	return f, ev
}

// ranges folds lines (in file order) into runs of consecutive numbers,
// each with the hash of its content.
func ranges(lines []gitx.AddedLine) []Range {
	var out []Range
	var texts []string
	flush := func() {
		if len(out) > 0 {
			out[len(out)-1].ContentHash = "fnv1a64:" + LineHash(strings.Join(texts, "\n"))
		}
		texts = texts[:0]
	}
	for _, l := range lines {
		if n := len(out); n > 0 && out[n-1].EndLine+1 == l.Line {
			out[n-1].EndLine = l.Line
		} else {
			flush()
			out = append(out, Range{StartLine: l.Line, EndLine: l.Line})
		}
		texts = append(texts, link.NormLine(l.Text))
	}
	flush()
	return out
}

// LineHash is a line's content evidence: FNV-1a 64 of the line with its
// whitespace normalised (link.LineHash), in hex.
func LineHash(text string) string { return fmt.Sprintf("%016x", uint64(link.LineHash(text))) }

func (in Input) convMeta(l Link) ConvMeta {
	m := ConvMeta{
		Agent:         in.text(l.Agent),
		Model:         in.text(l.Model),
		Title:         in.text(in.title(l)),
		Summary:       in.text(l.Summary),
		Confidence:    l.Confidence,
		Status:        l.Status,
		Reason:        in.text(l.Reason),
		WrittenLines:  l.WrittenLines,
		AddedLines:    l.AddedLines,
		PositionLines: l.PositionLines,
		Derived:       l.Derived,
		SharedBy:      in.text(l.SharedBy),
		StartedAt:     mstime.ISO(l.FirstSeenMs),
		LastActiveAt:  mstime.ISO(l.ActivityMs),
	}
	m.MatchedFiles = shareableFiles(l.MatchedFiles)
	if in.Prompts {
		m.FirstPrompt = in.text(l.FirstPrompt)
	}
	return m
}

// Reshared is m, a conversation's entry an earlier share wrote, as in
// would share it now: no first prompt unless in shares prompts (nor a
// title made from it), its free text redacted again. It only takes text
// away: a note kept for a conversation no longer here (forgotten) follows
// the settings of each later share.
func (in Input) Reshared(m ConvMeta) ConvMeta {
	if !in.Prompts {
		if fromPrompt(m.Title, m.FirstPrompt) {
			m.Title = ""
		}
		m.FirstPrompt = ""
	}
	for _, s := range []*string{&m.Agent, &m.Model, &m.Title, &m.Summary, &m.Reason, &m.FirstPrompt, &m.SharedBy} {
		*s = in.text(*s)
	}
	m.MatchedFiles = shareableFiles(m.MatchedFiles)
	return m
}

// shareableFiles is the paths of files that are shareable (nil for none).
func shareableFiles(files []string) []string {
	var out []string
	for _, f := range files {
		if shareable(f) {
			out = append(out, f)
		}
	}
	return out
}

// title is the conversation's title as shared: none when it is the start
// of the first prompt and prompts are not shared. An agent titles an
// untitled conversation by its first prompt (Claude Code with no title
// line), and such a title would share the prompt that --prompts guards.
func (in Input) title(l Link) string {
	if in.Prompts || !fromPrompt(l.Title, l.FirstPrompt) {
		return l.Title
	}
	return ""
}

// fromPrompt reports whether title is the start of prompt's first line
// (whitespace folded, a trailing ellipsis dropped): a title made from it.
func fromPrompt(title, prompt string) bool {
	t := strings.Join(strings.Fields(strings.TrimSuffix(strings.TrimSpace(title), "…")), " ")
	p := strings.TrimSpace(prompt)
	if i := strings.IndexByte(p, '\n'); i >= 0 {
		p = p[:i]
	}
	p = strings.Join(strings.Fields(p), " ")
	return t != "" && strings.HasPrefix(p, t)
}

// text is a free-text field as shared: no path outside the repository, no
// home directory, no secret.
func (in Input) text(s string) string {
	return redact.Text(redact.Paths(s, in.Root, in.Home))
}

// shareable reports whether a path is repository-relative (never absolute,
// never above the root).
func shareable(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, `\`) || (len(p) > 1 && p[1] == ':') {
		return false
	}
	c := path.Clean(p)
	return c != ".." && !strings.HasPrefix(c, "../")
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// ModelID spells a model name the models.dev way, provider/model, when the
// provider is known from the name ("" otherwise, e.g. Cursor's "auto").
// A model name is free text (a gateway URL, a Bedrock ARN): Build redacts
// it first.
func ModelID(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" || n == "default" || n == "auto" {
		return ""
	}
	if strings.Contains(n, "/") {
		return n
	}
	for _, p := range []struct{ prefix, provider string }{
		{"claude", "anthropic"}, {"gpt", "openai"}, {"o1", "openai"}, {"o3", "openai"}, {"o4", "openai"},
		{"codex", "openai"}, {"gemini", "google"}, {"grok", "xai"}, {"deepseek", "deepseek"},
		{"composer", "cursor"}, {"cursor", "cursor"}, {"kimi", "moonshotai"}, {"qwen", "alibaba"},
	} {
		if strings.HasPrefix(n, p.prefix) {
			return p.provider + "/" + n
		}
	}
	return ""
}

// contentID is a UUID made from the record's content: the same attribution
// always gives the same record, so rewriting a note changes nothing.
func contentID(r Record) string {
	r.ID = ""
	b, _ := json.Marshal(r)
	s := sha256.Sum256(b)
	s[6] = s[6]&0x0f | 0x80 // version 8: custom
	s[8] = s[8]&0x3f | 0x80 // RFC 4122 variant
	return fmt.Sprintf("%x-%x-%x-%x-%x", s[0:4], s[4:6], s[6:8], s[8:10], s[10:16])
}
