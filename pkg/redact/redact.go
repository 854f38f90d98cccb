// Package redact scrubs secrets out of free text before it leaves the
// machine (shared notes): known token formats, private key blocks, passwords
// in URLs and assignments, and long high-entropy strings become "[redacted]".
// It is a small scrubber of its own: a full scanner (gitleaks) adds ~10 MB
// and ~85 ms of start-up, and redaction runs on every note written.
package redact

import (
	"math"
	"regexp"
	"strings"
	"sync"
)

// Mark replaces what was removed.
const Mark = "[redacted]"

// rule is one known secret format. keep says what of a match stays: 0
// nothing, 1 an assignment's key, 2 a URL's scheme and user name.
type rule struct {
	name string
	re   *regexp.Regexp
	keep int
	// hints are literals (lower case) one of which every match contains:
	// a rule whose hints are all absent is skipped (regexp is slow).
	hints []string
}

// rules are applied in order; private keys first, as their bodies would
// otherwise be cut into high-entropy pieces. Compiled on first use: every
// git-convo process links this package, few redact anything.
var rules = sync.OnceValue(func() []rule {
	return []rule{
		{"private key", regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----(?s:.*?)(-----END[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|$)`), 0, []string{"private key"}},
		{"password in URL", regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.\-]*://[^/\s:@]*:)[^@\s/]+(@)`), 2, []string{"://"}},
		{"aws access key", regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b`), 0, []string{"akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "anpa"}},
		{"github token", regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})\b`), 0, []string{"gh"}},
		{"gitlab token", regexp.MustCompile(`\b(?:glpat|gldt|glrt|glptt|glsoat)-[A-Za-z0-9_\-]{20,}`), 0, []string{"gl"}},
		{"slack token", regexp.MustCompile(`\bxox[abposre]-[A-Za-z0-9\-]{10,}|https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_\-]+`), 0, []string{"xox", "hooks.slack.com"}},
		{"openai or anthropic key", regexp.MustCompile(`\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}`), 0, []string{"sk-"}},
		{"jwt", regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{4,}`), 0, []string{"eyj"}},
		{"assignment", regexp.MustCompile(`(?i)(\b(?:password|passwd|pwd|secret|token|api[_\-]?key|access[_\-]?key|client[_\-]?secret|auth)\b["']?\s*[:=]\s*)("[^"\n]+"|'[^'\n]+'|[^\s"',;]+)`), 1,
			[]string{"password", "passwd", "pwd", "secret", "token", "key", "auth"}},
	}
})

// mayMatch reports whether lower (a text in lower case) holds one of hints.
func mayMatch(lower string, hints []string) bool {
	for _, h := range hints {
		if strings.Contains(lower, h) {
			return true
		}
	}
	return false
}

// word is a candidate for the entropy test: a run of token characters.
var word = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9+/=_\-]{20,}`) })

var uuid = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
})

// Text returns s with every secret it recognises replaced by Mark.
func Text(s string) string {
	// Replacing only removes text, so hints absent now stay absent.
	lower := strings.ToLower(s)
	for _, r := range rules() {
		if !mayMatch(lower, r.hints) {
			continue
		}
		s = r.re.ReplaceAllStringFunc(s, func(m string) string {
			if r.keep == 0 {
				return Mark
			}
			sub := r.re.FindStringSubmatch(m)
			if r.keep == 2 { // a URL: the user part, the mark, the "@"
				return sub[1] + Mark + sub[2]
			}
			if strings.HasPrefix(sub[2], Mark) { // an assignment whose value is already scrubbed
				return m
			}
			return sub[1] + Mark
		})
	}
	return word().ReplaceAllStringFunc(s, func(w string) string {
		if looksRandom(w) {
			return Mark
		}
		return w
	})
}

// looksRandom tells a key or token from a long identifier or path: enough
// kinds of character, digits among them, and high Shannon entropy.
func looksRandom(w string) bool {
	if uuid().MatchString(w) || strings.Contains(w, "redacted") {
		return false
	}
	var upper, lower, digit int
	hex := true
	for _, c := range w {
		switch {
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= 'a' && c <= 'z':
			lower++
		case c >= '0' && c <= '9':
			digit++
		}
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			hex = false
		}
	}
	h := entropy(w)
	if digit < 2 {
		// Base64 keys can have few digits; identifiers and paths rarely
		// mix cases this randomly.
		return len(w) >= 30 && upper > 0 && lower > 0 && strings.ContainsAny(w, "/+") && h >= 4.0
	}
	if upper+lower == 0 {
		return false
	}
	if hex {
		return len(w) >= 32 && h >= 3.0
	}
	return h >= 3.6 && (upper > 0 && lower > 0 || digit*4 >= len(w))
}

// entropy is the Shannon entropy of s in bits per character.
func entropy(s string) float64 {
	counts := map[rune]int{}
	n := 0
	for _, c := range s {
		counts[c]++
		n++
	}
	h := 0.0
	for _, k := range counts {
		p := float64(k) / float64(n)
		h -= p * math.Log2(p)
	}
	return h
}

// homePath matches an absolute path inside someone's home directory.
var homePath = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:/home/|/Users/|[A-Za-z]:[\\/]Users[\\/])[^\s/\\'"]+`)
})

// Paths rewrites absolute paths in s so that none outside the repository is
// shared: root's own prefix is dropped (leaving the repo-relative path),
// home directories become "~".
func Paths(s, root, home string) string {
	if root != "" && root != "/" {
		s = strings.ReplaceAll(s, strings.TrimSuffix(root, "/")+"/", "")
		s = strings.ReplaceAll(s, root, ".")
	}
	if home != "" && home != "/" {
		s = strings.ReplaceAll(s, home, "~")
	}
	return homePath().ReplaceAllString(s, "~")
}
