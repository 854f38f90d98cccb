package accuracy

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// score counts one clone's answers in one scenario against the truth.
type score struct {
	// Lines at HEAD and lines in the commits that added them.
	head, commits lineScore
	// Commits shown linked to a conversation that wrote none of their lines
	// (a link that says it wrote 0 of the commit's lines, to a conversation
	// begun before the commit, is overlapOnly).
	wrongCommits, overlapOnly int
	// Lines at HEAD that text blame shows as a conversation's and --json
	// not, or the other way round.
	viewsDisagree int
	notes         []string // what went wrong, for -v
}

type lineScore struct {
	given, wrong int // lines given to a conversation; of them, not its
	truth, found int // non-blank lines an agent wrote; of them, given to it
	// Of the agents' lines given to no conversation, those blame calls a
	// person's (attribution "human"): a wrong answer, where "unknown" is none.
	toPerson int
}

func (l *lineScore) add(o lineScore) {
	l.given += o.given
	l.wrong += o.wrong
	l.truth += o.truth
	l.found += o.found
	l.toPerson += o.toPerson
}

func (s *score) add(o score) {
	s.head.add(o.head)
	s.commits.add(o.commits)
	s.wrongCommits += o.wrongCommits
	s.overlapOnly += o.overlapOnly
	s.viewsDisagree += o.viewsDisagree
}

func (l lineScore) precision() (float64, bool) {
	if l.given == 0 {
		return 1, false
	}
	return float64(l.given-l.wrong) / float64(l.given), true
}

func (l lineScore) recall() (float64, bool) {
	if l.truth == 0 {
		return 1, false
	}
	return float64(l.found) / float64(l.truth), true
}

// What the JSON output says (docs/json.md), the fields the harness reads.
type logEntry struct {
	Commit struct {
		Hash    string `json:"hash"`
		Subject string `json:"subject"`
	} `json:"commit"`
	Conversations []struct {
		ID           string `json:"id"`
		Reason       string `json:"reason"`
		Origin       string `json:"origin"`
		WrittenLines int    `json:"writtenLines"`
		AddedLines   int    `json:"addedLines"`
	} `json:"conversations"`
}

type blameLine struct {
	Line        int     `json:"line"`
	Commit      string  `json:"commit"`
	Text        string  `json:"text"`
	WrittenBy   *string `json:"writtenBy"`
	Attribution string  `json:"attribution"`
}

func jsonLines[T any](out string) ([]T, error) {
	var all []T
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var v T
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			return nil, fmt.Errorf("%v: %q", err, l)
		}
		all = append(all, v)
	}
	return all, nil
}

// judge scores one line: given to writtenBy (attribution: blame's word for
// it), written by truth ("" a person). It says what went wrong with it, ""
// when nothing did.
func (l *lineScore) judge(text string, writtenBy *string, attribution, truth string) string {
	var wrong, missed, toPerson bool
	blank := strings.TrimSpace(text) == ""
	if writtenBy != nil {
		l.given++
		if *writtenBy != truth {
			l.wrong++
			wrong = true
		}
	}
	if truth != "" && !blank {
		l.truth++
		if writtenBy != nil && *writtenBy == truth {
			l.found++
		} else {
			missed = true
		}
		if writtenBy == nil && attribution == "human" {
			l.toPerson++
			toPerson = true
		}
	}
	switch {
	case wrong:
		return fmt.Sprintf("%q given to %.8s, written by %s", text, *writtenBy, who(truth))
	case toPerson:
		return fmt.Sprintf("%q written by %s, given to a person", text, who(truth))
	case missed:
		return fmt.Sprintf("%q written by %s, given to no conversation", text, who(truth))
	}
	return ""
}

// measure reads one clone's answers at main: log --json for the last depth
// commits' links, blame --json per commit and at HEAD for their lines.
func (w *world) measure(u *user, dir string, head tree, depth int) score {
	var sc score
	out := u.convo(dir, "log", "--json", "--max-count="+strconv.Itoa(depth), "main")
	entries, err := jsonLines[logEntry](out)
	if err != nil {
		w.t.Fatalf("log --json: %v", err)
	}
	wrongFiles := map[string]bool{}
	for _, e := range entries {
		tr := w.truth[e.Commit.Subject]
		claimed, wrong := false, false
		for _, conv := range e.Conversations {
			claimed = true
			switch {
			case tr != nil && tr.writers[conv.ID]:
			case conv.WrittenLines == 0 && conv.AddedLines > 0 && tr != nil && tr.started[conv.ID]:
				sc.overlapOnly++
			default:
				wrong = true
				sc.notes = append(sc.notes, fmt.Sprintf("commit %.10s %q claimed by %.8s (%s, %s)", e.Commit.Hash, e.Commit.Subject, conv.ID, conv.Origin, conv.Reason))
			}
		}
		if wrong {
			sc.wrongCommits++
		}
		// The lines the commit added, as blame at the commit gives them.
		files := map[string][]line{}
		if tr != nil {
			files = tr.files
		} else if claimed {
			for _, p := range strings.Fields(u.git(dir, "diff-tree", "--no-commit-id", "--name-only", "-r", e.Commit.Hash)) {
				files[p] = nil // a person's commit: every line a person's
				wrongFiles[p] = true
			}
		}
		for p, truth := range files {
			ranges := addedRanges(u, dir, e.Commit.Hash, p)
			if len(ranges) == 0 {
				continue
			}
			lines := w.blame(u, dir, e.Commit.Hash, p, ranges...)
			for _, bl := range lines {
				if bl.Commit != e.Commit.Hash {
					continue
				}
				writer := ""
				if truth != nil {
					if bl.Line > len(truth) || truth[bl.Line-1].text != bl.Text {
						w.t.Errorf("harness: %s in %q, line %d is %q, the model says otherwise", p, e.Commit.Subject, bl.Line, bl.Text)
						continue
					}
					writer = truth[bl.Line-1].writer
				}
				if what := sc.commits.judge(bl.Text, bl.WrittenBy, bl.Attribution, writer); what != "" {
					sc.notes = append(sc.notes, fmt.Sprintf("in %q %s:%d %s", e.Commit.Subject, p, bl.Line, what))
				}
			}
		}
	}
	// Every line at HEAD of the files the scenario touched, and of the
	// files of people's commits shown as a conversation's.
	for p := range w.paths {
		wrongFiles[p] = true
	}
	for p := range wrongFiles {
		truth, ok := head[p]
		if !ok {
			continue
		}
		lines := w.blame(u, dir, "HEAD", p)
		if len(lines) != len(truth) {
			w.t.Errorf("harness: %s has %d lines at HEAD, the model %d", p, len(lines), len(truth))
			continue
		}
		var text []bool // text blame, for the scenario's own files
		if w.paths[p] {
			text = textBlame(u, dir, p)
		}
		for i, bl := range lines {
			if i < len(text) && text[i] != (bl.WrittenBy != nil) {
				sc.viewsDisagree++
				sc.notes = append(sc.notes, fmt.Sprintf("at HEAD %s:%d %q: text blame gives it to a conversation: %v, --json: %v", p, i+1, bl.Text, text[i], bl.WrittenBy != nil))
			}
			if truth[i].text != bl.Text {
				w.t.Errorf("harness: %s:%d at HEAD is %q, the model says %q", p, i+1, bl.Text, truth[i].text)
				continue
			}
			if what := sc.head.judge(bl.Text, bl.WrittenBy, bl.Attribution, truth[i].writer); what != "" {
				sc.notes = append(sc.notes, fmt.Sprintf("at HEAD %s:%d %s", p, i+1, what))
			}
		}
	}
	return sc
}

func who(writer string) string {
	if writer == "" {
		return "a person"
	}
	return writer[:8]
}

func (w *world) blame(u *user, dir, rev, path string, opts ...string) []blameLine {
	args := append(append([]string{"blame", "--json"}, opts...), rev, "--", path)
	lines, err := jsonLines[blameLine](u.convo(dir, args...))
	if err != nil {
		w.t.Fatalf("blame --json %s %s: %v", rev, path, err)
	}
	return lines
}

// addedRanges are blame's -L options for the lines rev added to path (git
// diff-tree's hunks): blame then stops at rev instead of walking the whole
// history for the file's older lines.
func addedRanges(u *user, dir, rev, path string) []string {
	var opts []string
	out := u.git(dir, "diff-tree", "-U0", "--no-color", "--no-renames", "--root", "-r", rev, "--", path)
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "@@ ") {
			continue
		}
		f := strings.Fields(l) // @@ -a,b +c,d @@
		if len(f) < 3 {
			continue
		}
		start, count, ok := strings.Cut(strings.TrimPrefix(f[2], "+"), ",")
		if !ok {
			count = "1"
		}
		if count != "0" {
			opts = append(opts, "-L", start+",+"+count)
		}
	}
	return opts
}

// textLine is a line of text blame: the commit, the label (a conversation's
// prompt or title, "(by hand)", or nothing), then git blame's own columns.
var textLine = regexp.MustCompile(`^\^?[0-9a-f]+ (.*) \([^()]* \d{4}-\d{2}-\d{2} +\d+\)( |$)`)

// textBlame says, per line of path at HEAD, whether text blame shows it as
// a conversation's: a label that is neither empty nor "(by hand)" and does
// not say the conversation wrote none of the lines.
func textBlame(u *user, dir, path string) []bool {
	var out []bool
	for _, l := range strings.Split(strings.TrimSuffix(u.convo(dir, "blame", "HEAD", "--", path), "\n"), "\n") {
		m := textLine.FindStringSubmatch(l)
		label := ""
		if m != nil {
			label = strings.TrimSpace(m[1])
		}
		out = append(out, label != "" && label != "(by hand)" && !strings.Contains(label, "wrote none"))
	}
	return out
}
