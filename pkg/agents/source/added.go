package source

import "strings"

// AddedLines returns the lines of after that before does not have (as a
// multiset), joined with newlines: the lines an edit introduced.
func AddedLines(before, after string) string {
	have := map[string]int{}
	for _, l := range strings.Split(before, "\n") {
		have[strings.TrimRight(l, "\r")]++
	}
	var b strings.Builder
	for _, l := range strings.Split(after, "\n") {
		l = strings.TrimRight(l, "\r")
		if have[l] > 0 {
			have[l]--
			continue
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}
