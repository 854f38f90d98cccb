package prsummary

import (
	"fmt"
	"html"
	"strings"

	"github.com/git-convo/git-convo/pkg/util/term"
)

// HTML is the report as one self-contained page: inline CSS, an inline SVG
// chart, no script, and a Content-Security-Policy that forbids every
// request (no font, image, style or frame from anywhere). Outside text is
// escaped: it shows as text.
func HTML(s *Summary) string {
	e := func(s string) string { return html.EscapeString(term.Line(s)) }
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>git convo pr: ` + e(s.Range) + `</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#1f2328;background:#fff}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #d0d7de}h3{font-size:1em;font-family:ui-monospace,monospace}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #d0d7de;padding:.25em .6em;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}.k-agent{color:#0969da}.k-noedit{color:#6e7781}.k-norecord{color:#9a6700}
.legend span{margin-right:1.5em}.sw{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:middle}
.prompt{white-space:pre-wrap;font-style:italic}.ev{font-family:ui-monospace,monospace;font-size:.9em}code{font-family:ui-monospace,monospace}
.muted{color:#6e7781}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}td,th{border-color:#30363d}}
</style></head><body>
`)
	fmt.Fprintf(&b, "<h1>Conversations behind <code>%s</code></h1>\n", e(s.Range))
	fmt.Fprintf(&b, "<p class=\"muted\">head <code>%s</code>, merge base <code>%s</code></p>\n", e(short(s.Head)), e(short(s.MergeBase)))
	h := s.Headline
	fmt.Fprintf(&b, "<p id=\"message\">%s</p>\n", e(s.Message))
	if s.NothingRecorded {
		b.WriteString("</body></html>\n")
		return b.String()
	}
	b.WriteString(chart(h.Lines))
	fmt.Fprintf(&b, `<p class="legend" id="headline" data-added="%d" data-agent="%d" data-noedit="%d" data-norecord="%d">
<span>added: <b id="n-added">%d</b></span>
<span class="k-agent"><i class="sw" style="background:#0969da"></i>written by agents' edits: <b id="n-agent">%d</b></span>
<span class="k-noedit"><i class="sw" style="background:#afb8c1"></i>recorded commits, no recorded edit: <b id="n-noedit">%d</b></span>
<span class="k-norecord"><i class="sw" style="background:#d4a72c"></i>no record (nothing says who wrote them): <b id="n-norecord">%d</b></span></p>
`, h.Added, h.Agent, h.NoEdit, h.NoRecord, h.Added, h.Agent, h.NoEdit, h.NoRecord)
	if h.Person > 0 {
		fmt.Fprintf(&b, "<p><b id=\"n-person\">%d</b> a person's, as another tool's record attests.</p>\n", h.Person)
	}
	if len(h.OtherTools) > 0 {
		b.WriteString("<p>From other tools' records:</p><ul id=\"other-tools\">\n")
		for _, w := range h.OtherTools {
			fmt.Fprintf(&b, "<li>%s: %s <span class=\"muted\">(%s)</span></li>\n", e(OtherWhat(w)), e(s.OtherName(w)), e(OtherSource(w)))
		}
		b.WriteString("</ul>\n")
	}
	fmt.Fprintf(&b, "<p><b id=\"n-covered\">%d</b> of <b id=\"n-commits\">%d</b> commits covered by a record.</p>\n", s.Commits.Covered, s.Commits.Total)
	if len(s.Commits.Uncovered) > 0 {
		b.WriteString("<p>Not covered:</p><ul>\n")
		for _, u := range s.Commits.Uncovered {
			fmt.Fprintf(&b, "<li><code>%s</code> %s <span class=\"muted\">(%s)</span></li>\n", e(u.Short), e(u.Subject), e(u.Reason))
		}
		b.WriteString("</ul>\n")
	}
	if len(s.Conversations) > 0 {
		b.WriteString("<h2>Conversations</h2>\n<table><tr><th>Conversation</th><th>Agent</th><th>Model</th><th>Lines</th><th>Confidence</th><th>Evidence</th></tr>\n")
		for _, c := range s.Conversations {
			fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td><td>%s</td><td class=\"n\">%d</td><td class=\"n\">%.2f</td><td class=\"ev\">%s</td></tr>\n",
				e(convName(c)), e(c.Agent), e(c.Model), c.Lines, c.Confidence, e(c.EvidenceSaid()))
		}
		b.WriteString("</table>\n")
	}
	b.WriteString("<h2>Files</h2>\n")
	for _, f := range s.Files {
		fmt.Fprintf(&b, "<section><h3>%s</h3>\n<p>%d added: <span class=\"k-agent\">%d by agents</span>, <span class=\"k-noedit\">%d from no recorded edit</span>, <span class=\"k-norecord\">%d with no record</span>",
			e(f.Path), f.Added, f.Agent, f.NoEdit, f.NoRecord)
		if f.Person > 0 {
			fmt.Fprintf(&b, ", %d a person's (another tool's record)", f.Person)
		}
		if w := s.fileWriters(f); w != "" {
			fmt.Fprintf(&b, "; %s", e(w))
		}
		b.WriteString("</p>\n<table><tr><th>Hunk</th><th>Lines</th><th>Conversation</th><th>Prompt</th><th>Confidence</th><th>Evidence</th></tr>\n")
		for _, hk := range s.Hunks {
			if hk.Path != f.Path || hk.Added == 0 {
				continue
			}
			rows := max(1, len(hk.Writers)+len(hk.OtherTools))
			fmt.Fprintf(&b, "<tr><td rowspan=\"%d\"><code>+%d,%d</code><br><span class=\"muted\">%d added, %d no edit, %d no record</span></td>",
				rows, hk.NewStart, hk.NewLines, hk.Added, hk.NoEdit, hk.NoRecord)
			if len(hk.Writers)+len(hk.OtherTools) == 0 {
				b.WriteString("<td colspan=\"5\" class=\"muted\">no conversation</td></tr>\n")
				continue
			}
			for i, w := range hk.Writers {
				if i > 0 {
					b.WriteString("<tr>")
				}
				c := s.conv(w.Conversation)
				lines := fmt.Sprintf("%d", w.Lines)
				if w.Lines == 0 {
					lines = "linked, wrote none"
				}
				prompt := e(w.Prompt)
				if w.PromptFolded > 0 {
					prompt += fmt.Sprintf(" <span class=\"muted\">(+%d lines)</span>", w.PromptFolded)
				}
				if said, folded, what := w.Said(); said != "" {
					prompt += "<br><span class=\"muted\">" + what + ":</span> " + e(said)
					if folded > 0 {
						prompt += fmt.Sprintf(" <span class=\"muted\">(+%d lines)</span>", folded)
					}
				}
				ev := e(w.Evidence)
				if w.LineEvidence != "" && w.LineEvidence != w.Evidence {
					ev += " (lines: " + e(w.LineEvidence) + ")"
				}
				fmt.Fprintf(&b, "<td>%s</td><td>%s <span class=\"muted\">%s · %s</span></td><td class=\"prompt\">%s</td><td class=\"n\">%.2f</td><td class=\"ev\">%s</td></tr>\n",
					lines, e(convName(c)), e(c.Agent), e(short(w.Commit)), prompt, w.Confidence, ev)
			}
			for i, w := range hk.OtherTools {
				if i > 0 || len(hk.Writers) > 0 {
					b.WriteString("<tr>")
				}
				fmt.Fprintf(&b, "<td>%s</td><td>%s <span class=\"muted\">%s</span></td><td class=\"muted\">%s</td><td></td><td class=\"ev\">%s</td></tr>\n",
					e(OtherWhat(w)), e(s.OtherName(w)), e(short(w.Commit)), e("from "+w.From), e(w.Evidence))
			}
		}
		b.WriteString("</table></section>\n")
	}
	if note := s.WordsNote(); note != "" {
		fmt.Fprintf(&b, "<p class=\"muted\">%s</p>\n", e(note))
	}
	b.WriteString("</body></html>\n")
	return b.String()
}

// chart is the headline's three kinds as one stacked bar (inline SVG).
func chart(l Lines) string {
	const width = 600
	total := l.Agent + l.NoEdit + l.NoRecord + l.Person
	var b strings.Builder
	fmt.Fprintf(&b, "<svg id=\"chart\" role=\"img\" aria-label=\"added lines by kind\" width=\"%d\" height=\"28\" viewBox=\"0 0 %d 28\" xmlns=\"http://www.w3.org/2000/svg\">", width, width)
	x := 0.0
	for _, part := range []struct {
		n     int
		color string
		name  string
	}{{l.Agent, "#0969da", "agent"}, {l.Person, "#8250df", "person"}, {l.NoEdit, "#afb8c1", "noEdit"}, {l.NoRecord, "#d4a72c", "noRecord"}} {
		if total == 0 || part.n == 0 {
			continue
		}
		w := float64(part.n) / float64(total) * width
		fmt.Fprintf(&b, "<rect data-kind=\"%s\" x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"28\" fill=\"%s\"><title>%s: %d</title></rect>", part.name, x, w, part.color, part.name, part.n)
		x += w
	}
	b.WriteString("</svg>\n")
	return b.String()
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
