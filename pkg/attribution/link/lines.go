package link

import (
	"hash/fnv"
	"strings"
	"unicode"
)

// NormLine is a line as compared: line endings and trailing white space
// removed (editors and formatters change them without changing the code).
func NormLine(s string) string {
	return strings.TrimRight(s, " \t\r\n")
}

// LineHash is a 64-bit FNV-1a hash of NormLine(s), as a signed integer so
// SQLite stores it as one.
func LineHash(s string) int64 {
	h := fnv.New64a()
	h.Write([]byte(NormLine(s)))
	return int64(h.Sum64())
}

// Countable reports whether a line counts as evidence: blank lines do not
// (every file has them, and nobody "wrote" one).
func Countable(s string) bool { return strings.TrimSpace(s) != "" }

// Distinctive reports whether a line is long enough to tell one writer's
// text from another's: four letters or digits at least, and not one bare
// word (`}`, `});`, `i++`, `return` and `continue` are in every other file).
func Distinctive(s string) bool {
	t := strings.TrimSpace(s)
	alnum := 0
	for _, r := range t {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			alnum++
		}
	}
	return alnum >= 4 && !(len(strings.Fields(t)) == 1 && alnum == len([]rune(t)))
}

// SplitLines splits text written by an edit into its countable lines.
func SplitLines(text string) []string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if Countable(l) {
			out = append(out, NormLine(l))
		}
	}
	return out
}
