package prsummary

import (
	"encoding/json"
	"fmt"
	"html"
	"sort"
	"strings"

	"github.com/git-convo/git-convo/pkg/util/term"
)

// MarkdownLimit is the most characters GitHub keeps in a pull request's
// description or a comment.
const MarkdownLimit = 65536

// DataMarker starts the compact machine-readable block of the Markdown
// report, an HTML comment AI review tools can read from the raw text:
// <!-- git-convo:data {...} -->. Its JSON escapes <, > and &, so no text
// in it can close the comment.
const DataMarker = "<!-- git-convo:data "

// Compact is the machine-readable block's content: the headline, the
// commits and the conversations, no prompt text.
type Compact struct {
	Version       int            `json:"v"`
	Range         string         `json:"range"`
	Head          string         `json:"head"`
	Lines         Lines          `json:"lines"`
	Commits       int            `json:"commits"`
	Covered       int            `json:"covered"`
	Uncovered     []string       `json:"uncovered"`      // the first compactMax
	UncoveredAll  int            `json:"uncoveredTotal"` // how many there are
	Conversations []Conversation `json:"conversations"`  // the compactMax that wrote most
	ConvsAll      int            `json:"conversationsTotal"`
}

// compactMax bounds the block's lists: it must leave room for the report.
const compactMax = 50

// CompactOf is s's machine-readable block.
func CompactOf(s *Summary) Compact {
	c := Compact{Version: 1, Range: s.Range, Head: s.Head, Lines: s.Headline.Lines, Commits: s.Commits.Total,
		Covered: s.Commits.Covered, Uncovered: []string{}, UncoveredAll: len(s.Commits.Uncovered),
		Conversations: s.Conversations[:min(len(s.Conversations), compactMax)], ConvsAll: len(s.Conversations)}
	for _, u := range s.Commits.Uncovered[:min(len(s.Commits.Uncovered), compactMax)] {
		c.Uncovered = append(c.Uncovered, u.Hash)
	}
	return c
}

// MarkdownOptions shape the Markdown report.
type MarkdownOptions struct {
	// FullReport says where the full report is when the Markdown had to be
	// shortened ("" names the command that prints it).
	FullReport string
	Limit      int // 0: MarkdownLimit
}

// Markdown is the GitHub-flavoured report, at most Limit bytes (so at
// most as many characters): past that the hunks are left out file by file,
// the biggest first, then file rows from the end, and the text says where
// the full report is. Outside text is escaped: it cannot open a link, an
// image, a tag or a table cell, or close the data block.
func Markdown(s *Summary, o MarkdownOptions) string {
	limit := o.Limit
	if limit <= 0 {
		limit = MarkdownLimit
	}
	where := o.FullReport
	if where == "" {
		where = "run `git convo pr " + mdEscape(s.Range) + " --format html` for the full report"
	}
	head := markdownHead(s)
	if s.NothingRecorded {
		return head
	}
	rows := make([]string, len(s.Files))
	details := make([]string, len(s.Files))
	byPath := map[string][]string{}
	for _, h := range s.Hunks {
		if h.Added > 0 {
			byPath[h.Path] = append(byPath[h.Path], s.hunkMarkdown(h))
		}
	}
	total := len(head)
	for i, f := range s.Files {
		rows[i] = fmt.Sprintf("| %s | %d | %d | %d | %s |\n", mdEscape(f.Path), f.Agent, f.NoEdit, f.NoRecord, mdEscape(s.fileWriters(f)))
		if hs := byPath[f.Path]; len(hs) > 0 {
			// The <summary> line is an HTML block, where Markdown's escapes
			// would show: HTML's own escaping there.
			details[i] = fmt.Sprintf("<details><summary>%s (%d hunk%s)</summary>\n\n%s\n\n</details>\n\n",
				htmlInline(f.Path), len(hs), plural(len(hs)), strings.Join(hs, "\n"))
		}
		total += len(rows[i]) + len(details[i])
	}
	// Room for the section headings and the notes saying what was left out.
	budget := limit - 600 - len(where)*2
	folded := make([]bool, len(s.Files))
	if total > budget {
		order := make([]int, len(s.Files))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return len(details[order[a]]) > len(details[order[b]]) })
		for _, i := range order {
			if total <= budget || details[i] == "" {
				break
			}
			total -= len(details[i])
			folded[i] = true
		}
	}
	files := len(s.Files)
	for files > 0 && total > budget {
		files--
		total -= len(rows[files])
		if !folded[files] {
			total -= len(details[files])
		}
	}
	var b strings.Builder
	b.WriteString(head)
	if len(s.Files) > 0 {
		b.WriteString("#### Per file\n\n| File | By agents | No recorded edit | No record | Conversations |\n| --- | ---: | ---: | ---: | --- |\n")
		for _, r := range rows[:files] {
			b.WriteString(r)
		}
		if files < len(s.Files) {
			fmt.Fprintf(&b, "\n%d more files left out to fit: %s.\n", len(s.Files)-files, where)
		}
		b.WriteString("\n")
	}
	var foldedFiles []string
	wrote := false
	for i := range s.Files[:files] {
		if folded[i] {
			foldedFiles = append(foldedFiles, mdEscape(s.Files[i].Path))
			continue
		}
		if details[i] == "" {
			continue
		}
		if !wrote {
			b.WriteString("#### Per hunk\n\n")
			wrote = true
		}
		b.WriteString(details[i])
	}
	if len(foldedFiles) > 0 {
		note := fmt.Sprintf("Shortened to fit GitHub's %d characters: the hunks of %s are left out; %s.\n", MarkdownLimit,
			strings.Join(foldedFiles, ", "), where)
		if b.Len()+len(note) > limit {
			note = fmt.Sprintf("Shortened to fit GitHub's %d characters: the hunks of %d files are left out; %s.\n", MarkdownLimit, len(foldedFiles), where)
		}
		b.WriteString(note)
	}
	if note := s.WordsNote(); note != "" {
		b.WriteString("\n" + note + "\n")
	}
	out := b.String()
	if len(out) > limit { // the head alone past the limit: cut at a line (the data block is bounded)
		cut := max(strings.LastIndex(out[:limit-200], "\n"), strings.IndexByte(out, '\n'))
		out = out[:cut+1] + "\n… cut to fit: " + where + ".\n"
	}
	return out
}

// markdownHead is the data block, the headline, the commits and the
// conversations.
func markdownHead(s *Summary) string {
	var b strings.Builder
	data, _ := json.Marshal(CompactOf(s)) // escapes <, > and &: "-->" cannot appear
	b.WriteString(DataMarker)
	b.Write(term.JSON(data))
	b.WriteString(" -->\n")
	b.WriteString("### Conversations behind these changes\n\n")
	if s.NothingRecorded {
		b.WriteString(mdEscape(s.Message) + "\n")
		return b.String()
	}
	h := s.Headline
	fmt.Fprintf(&b, "Of **%d** added lines (non-blank): **%d** written by agents' edits · **%d** in recorded commits, from no recorded edit · **%d** in commits with no record (nothing says who wrote them).\n\n",
		h.Added, h.Agent, h.NoEdit, h.NoRecord)
	if h.Person > 0 {
		fmt.Fprintf(&b, "**%d** a person's, as another tool's record attests.\n\n", h.Person)
	}
	if len(h.OtherTools) > 0 {
		b.WriteString("From other tools' records:")
		for i, w := range h.OtherTools {
			if i == 20 {
				fmt.Fprintf(&b, " and %d more", len(h.OtherTools)-20)
				break
			}
			fmt.Fprintf(&b, " %s, %s (%s);", mdEscape(s.OtherName(w)), OtherWhat(w), mdEscape(OtherSource(w)))
		}
		b.WriteString("\n\n")
	}
	fmt.Fprintf(&b, "**%d of %d** commits covered by a record.", s.Commits.Covered, s.Commits.Total)
	if len(s.Commits.Uncovered) > 0 {
		b.WriteString(" Not covered:")
		for i, u := range s.Commits.Uncovered {
			if i == 20 {
				fmt.Fprintf(&b, " and %d more", len(s.Commits.Uncovered)-20)
				break
			}
			fmt.Fprintf(&b, " `%s` %s (%s);", u.Short, mdEscape(u.Subject), mdEscape(u.Reason))
		}
	}
	b.WriteString("\n\n")
	if len(s.Conversations) > 0 {
		b.WriteString("| Conversation | Agent | Model | Lines | Confidence | Evidence |\n| --- | --- | --- | ---: | ---: | --- |\n")
		for i, c := range s.Conversations {
			if i == 50 {
				fmt.Fprintf(&b, "\n%d more conversations in the full report.\n", len(s.Conversations)-50)
				break
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %.2f | %s |\n", mdEscape(convName(c)), mdEscape(c.Agent), mdEscape(c.Model),
				c.Lines, c.Confidence, c.EvidenceSaid())
		}
		b.WriteString("\n")
	}
	return b.String()
}

func (s *Summary) hunkMarkdown(h Hunk) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- `+%d,%d`: %d added", h.NewStart, h.NewLines, h.Added)
	if h.NoEdit > 0 {
		fmt.Fprintf(&b, ", %d from no recorded edit", h.NoEdit)
	}
	if h.NoRecord > 0 {
		fmt.Fprintf(&b, ", %d with no record", h.NoRecord)
	}
	b.WriteString("\n")
	for _, w := range h.Writers {
		c := s.conv(w.Conversation)
		if w.Lines > 0 {
			fmt.Fprintf(&b, "  - **%d** by %s (%s) · confidence %.2f · evidence: %s", w.Lines, mdEscape(convName(c)), mdEscape(c.Agent), w.Confidence, w.Evidence)
		} else {
			fmt.Fprintf(&b, "  - linked: %s (%s) · confidence %.2f · evidence: %s, wrote none of these lines", mdEscape(convName(c)), mdEscape(c.Agent), w.Confidence, w.Evidence)
		}
		if w.Prompt != "" {
			fmt.Fprintf(&b, "<br>prompt: “%s”", mdEscape(w.Prompt))
			if w.PromptFolded > 0 {
				fmt.Fprintf(&b, " (+%d lines)", w.PromptFolded)
			}
		}
		if said, folded, what := w.Said(); said != "" {
			fmt.Fprintf(&b, "<br>%s: “%s”", what, mdEscape(said))
			if folded > 0 {
				fmt.Fprintf(&b, " (+%d lines)", folded)
			}
		}
		b.WriteString("\n")
	}
	for _, w := range h.OtherTools {
		fmt.Fprintf(&b, "  - %s: %s · %s\n", OtherWhat(w), mdEscape(s.OtherName(w)), mdEscape(OtherSource(w)))
	}
	if said := SourcesSaid(h); said != "" {
		fmt.Fprintf(&b, "  - %s (the JSON lists every claim)\n", said)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// conv is the conversation with id (a bare one when unknown).
func (s *Summary) conv(id string) Conversation {
	for _, c := range s.Conversations {
		if c.ID == id {
			return c
		}
	}
	return Conversation{ID: id}
}

// counts names conversations with their line counts: "Title (3)".
func (s *Summary) counts(cs []Count) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s (%d)", convName(s.conv(c.Name)), c.Lines))
	}
	return strings.Join(parts, ", ")
}

// fileWriters names a file's conversations and other tools' writers, with
// their line counts; a person's lines another tool attests too.
func (s *Summary) fileWriters(f File) string {
	out := s.counts(f.Conversations)
	for _, w := range f.OtherTools {
		if w.Conversation != "" {
			continue // counted among the conversations
		}
		if out != "" {
			out += ", "
		}
		out += fmt.Sprintf("%s (%d, from %s)", s.OtherName(w), w.Lines, w.From)
	}
	return out
}

// convName is a conversation's title, else its short id.
func convName(c Conversation) string {
	if c.Title != "" {
		return c.Title
	}
	id := c.ID
	if len(id) > 8 {
		id = id[:8]
	}
	return "conversation " + id
}

// mdEscape makes outside text inert in GitHub Markdown, on one line: HTML
// is entity-escaped (no tag, no comment end), every punctuation mark that
// could start markup is backslash-escaped (no link, image, emphasis, table
// cell, heading), control characters and hidden
// ones show escaped (term.Line).
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range term.Line(s) {
		switch {
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case strings.ContainsRune("\\`*_{}[]()#+-.!|~:\"'=", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// markdownPunct are the characters that could start Markdown markup, as
// HTML numeric references: inert whether GitHub reads the line as HTML or
// as Markdown.
var markdownPunct = strings.NewReplacer("[", "&#91;", "]", "&#93;", "(", "&#40;", ")", "&#41;", "!", "&#33;",
	"`", "&#96;", "*", "&#42;", "_", "&#95;", "\\", "&#92;", "|", "&#124;", "~", "&#126;", ":", "&#58;")

// htmlInline is outside text for an HTML line of the Markdown report.
func htmlInline(s string) string { return markdownPunct.Replace(html.EscapeString(term.Line(s))) }
