package prsummary

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// hostile is outside text that tries to become markup in every format.
const hostile = "\x1b[31mred\x1b]8;;http://x\x07 <script>alert(1)</script></textarea> --> <!-- [click](javascript:alert(1)) ![i](http://evil/x.png) | cell # h \u202ereversed <img src=x onerror=alert(1)>"

func hostileSummary() *Summary {
	conv := Conversation{ID: "c1", Title: "title " + hostile, Agent: "claude", Model: "m " + hostile, Lines: 3, Confidence: 0.9, Evidence: "position"}
	return &Summary{Range: "main..feature", Head: "abc", MergeBase: "def", Message: "3 of 5",
		Headline:      Headline{Lines: Lines{Added: 5, Agent: 3, NoEdit: 1, NoRecord: 1}},
		Commits:       Commits{Total: 2, Covered: 1, Uncovered: []Commit{{Hash: "0123456789ab", Short: "0123456", Subject: "subject " + hostile, Reason: "no record"}}},
		Conversations: []Conversation{conv},
		Files:         []File{{Path: "a/" + hostile + ".go", Lines: Lines{Added: 5, Agent: 3}, Conversations: []Count{{"c1", 3}}}},
		Hunks: []Hunk{{Path: "a/" + hostile + ".go", NewStart: 1, NewLines: 5, Lines: Lines{Added: 5, Agent: 3},
			Writers: []Writer{{Conversation: "c1", Commit: "0123", Lines: 2, Prompt: "prompt " + hostile, Words: "words " + hostile, WordsFolded: 2,
				Answer: "answer " + hostile, Confidence: 0.9, Evidence: "position"},
				{Conversation: "c1", Commit: "0456", Lines: 1, Prompt: "prompt " + hostile, Answer: "answer " + hostile, Confidence: 0.9, Evidence: "position"}}}},
	}
}

func TestMarkdownHostileTextInert(t *testing.T) {
	md := Markdown(hostileSummary(), MarkdownOptions{})
	_, body, _ := strings.Cut(md, "\n") // the data block is JSON in a comment: checked below
	for _, bad := range []string{"\x1b", "\x07", "<script", "</textarea", "<img", "<!-- [", "](javascript:", "![i](", "\u202e"} {
		if strings.Contains(body, bad) || bad[0] < 0x20 && strings.Contains(md, bad) {
			t.Errorf("markdown holds %q:\n%s", bad, md)
		}
	}
	// One comment, the data block: the prompt's "-->" closes nothing.
	if n := strings.Count(md, "-->"); n != 1 {
		t.Errorf("%d comment ends, want the data block's only:\n%s", n, md)
	}
	if !strings.Contains(md, `\[click\]\(javascript\:alert\(1\)\)`) || !strings.Contains(md, "&lt;script&gt;") || !strings.Contains(md, `\| cell`) {
		t.Errorf("hostile text should show escaped:\n%s", md)
	}
	// The words before the edit show in place of the answer; the answer
	// where there are none.
	if !strings.Contains(md, "said before the edit: “words ") || !strings.Contains(md, "(+2 lines)") ||
		strings.Count(md, "the agent's answer: “answer ") != 1 {
		t.Errorf("words and answer:\n%s", md)
	}
	line := strings.SplitN(md, "\n", 2)[0]
	if !strings.HasPrefix(line, DataMarker) || !strings.HasSuffix(line, " -->") {
		t.Fatalf("first line is not the data block: %q", line)
	}
	var c Compact
	if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(line, DataMarker), " -->")), &c); err != nil {
		t.Fatal(err)
	}
	if c.Lines.Agent != 3 || c.Conversations[0].Title != "title "+hostile {
		t.Errorf("data block %+v", c)
	}
}

func TestHTMLHostileTextInert(t *testing.T) {
	page := HTML(hostileSummary())
	for _, bad := range []string{"\x1b", "\x07", "<script", "</textarea", "<img", "<!--", "-->", "\u202e", "javascript:alert(1)\"", "http://evil", "<link", "@import", "url("} {
		if bad == "http://evil" {
			// present only as escaped text inside a cell, never in an attribute
			if strings.Contains(page, "src=\"http://evil") || strings.Contains(page, "href=") {
				t.Errorf("page requests %q", bad)
			}
			continue
		}
		if strings.Contains(page, bad) {
			t.Errorf("page holds %q", bad)
		}
	}
	if !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;&lt;/textarea&gt;") {
		t.Errorf("prompt should show as text")
	}
	if !strings.Contains(page, "said before the edit:</span> words \\033[31mred") || strings.Count(page, "the agent&#39;s answer:</span> answer") != 1 &&
		strings.Count(page, "the agent's answer:</span> answer") != 1 {
		t.Errorf("the words, then the answer where there are none, as text:\n%s", page)
	}
	if !strings.Contains(page, "default-src 'none'") {
		t.Errorf("no Content-Security-Policy")
	}
}

func TestMarkdownShortens(t *testing.T) {
	s := &Summary{Range: "main..x", Message: "m", Headline: Headline{Lines: Lines{Added: 1}}}
	for i := 0; i < 3000; i++ {
		p := fmt.Sprintf("dir/file%04d.go", i)
		s.Files = append(s.Files, File{Path: p, Lines: Lines{Added: 10, Agent: 10}, Conversations: []Count{{"c1", 10}}})
		for j := 0; j < 3; j++ {
			s.Hunks = append(s.Hunks, Hunk{Path: p, NewStart: j*10 + 1, NewLines: 3, Lines: Lines{Added: 3, Agent: 3},
				Writers: []Writer{{Conversation: "c1", Lines: 3, Prompt: strings.Repeat("long prompt ", 20), Evidence: "position"}}})
		}
	}
	s.Conversations = []Conversation{{ID: "c1", Title: "t", Lines: 30000}}
	for i := 0; i < 3000; i++ { // thousands of conversations and uncovered commits: the data block stays bounded
		s.Conversations = append(s.Conversations, Conversation{ID: fmt.Sprintf("conv-%04d", i), Title: strings.Repeat("title ", 10)})
		s.Commits.Uncovered = append(s.Commits.Uncovered, Commit{Hash: strings.Repeat("a", 40), Short: "aaaaaaa", Subject: "s", Reason: "no record"})
	}
	full := Markdown(s, MarkdownOptions{Limit: 1 << 30})
	md := Markdown(s, MarkdownOptions{FullReport: "the job summary"})
	if len(full) <= MarkdownLimit {
		t.Fatalf("test too small: %d", len(full))
	}
	if len(md) > MarkdownLimit || !strings.Contains(md, "the job summary") || !strings.HasPrefix(md, DataMarker) || !strings.Contains(md, "#### Per file") {
		t.Errorf("shortened to %d bytes; names the full report: %v", len(md), strings.Contains(md, "the job summary"))
	}
	var c Compact
	line, _, _ := strings.Cut(md, "\n")
	if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(line, DataMarker), " -->")), &c); err != nil ||
		len(c.Conversations) != 50 || c.ConvsAll != 3001 || len(c.Uncovered) != 50 || c.UncoveredAll != 3000 {
		t.Errorf("data block: %d of %d conversations, %d of %d uncovered (%v)", len(c.Conversations), c.ConvsAll, len(c.Uncovered), c.UncoveredAll, err)
	}
	// Per file first: hunks go before any file row does, when that is enough.
	small := &Summary{Range: "r", Files: s.Files[:40], Hunks: s.Hunks[:120], Conversations: s.Conversations[:1]}
	md = Markdown(small, MarkdownOptions{Limit: 12000, FullReport: "there"})
	if len(md) > 12000 || !strings.Contains(md, "the hunks of") || strings.Contains(md, "more files left out") {
		t.Errorf("per file first: %d bytes\n%s", len(md), md)
	}
}

func TestNothingRecordedEveryFormat(t *testing.T) {
	s := &Summary{Range: "a..b", NothingRecorded: true, Message: "Nothing recorded for a..b: none of its 2 commits has a git-convo record (local, or in fetched notes)."}
	if md := Markdown(s, MarkdownOptions{}); !strings.Contains(md, "Nothing recorded for a\\.\\.b") {
		t.Errorf("markdown:\n%s", md)
	}
	if page := HTML(s); !strings.Contains(page, "Nothing recorded for a..b") {
		t.Errorf("html:\n%s", page)
	}
}

// TestWordsNoteEveryFormat: the conversations whose words were not looked
// up are counted where the reader looks.
func TestWordsNoteEveryFormat(t *testing.T) {
	s := hostileSummary()
	if s.WordsNote() != "" || strings.Contains(Markdown(s, MarkdownOptions{}), "not looked up") || strings.Contains(HTML(s), "not looked up") {
		t.Errorf("a note with nothing unread")
	}
	s.WordsUnread = 3
	want := "The agent's words before the edits were not looked up for 3 conversations: one report reads at most 24 transcripts, 64 MiB."
	if s.WordsNote() != want {
		t.Errorf("note %q", s.WordsNote())
	}
	if md := Markdown(s, MarkdownOptions{}); !strings.Contains(md, "not looked up for 3 conversations") {
		t.Errorf("markdown:\n%s", md)
	}
	if page := HTML(s); !strings.Contains(page, "not looked up for 3 conversations") {
		t.Errorf("html:\n%s", page)
	}
}
