// Package redact scrubs secrets out of free text before it leaves the
// machine (shared notes): known token formats, private key blocks, passwords
// in URLs, assignments and commands, and long high-entropy strings become
// "[redacted: <kind>]" (Mark). It is a small scrubber of its own: a full
// scanner (gitleaks) adds ~10 MB and ~85 ms of start-up, and redaction runs
// on every note written.
package redact

import (
	"math"
	"regexp"
	"strings"
	"sync"
)

// Mark is what replaces a secret of the given kind: "[redacted: github
// token]". Notes written before kinds were named carry OldMark; both start
// with MarkPrefix, which is how a reader tells redacted text.
func Mark(kind string) string { return MarkPrefix + ": " + kind + "]" }

// MarkPrefix starts every mark, old and new.
const MarkPrefix = "[redacted"

// OldMark is the mark of notes written before marks named their kind.
const OldMark = "[redacted]"

// rule is one known secret format. A rule whose expression has a group
// named "s" replaces only that group (the value of an assignment, a URL's
// password), else the whole match.
type rule struct {
	kind string
	re   *regexp.Regexp
	// hints are literals (lower case) one of which every match contains:
	// a rule whose hints are all absent is skipped (regexp is slow).
	hints []string
}

// secretKey is the name part of an assignment whose value is a secret:
// DB_PASSWORD, MY_API_KEY, PGPASSWORD, client-secret, authToken. Words
// joined by '_', '-' or '.' may come before (any letters may run into
// password and secret: PGPASSWORD) and a few after (_FILE is not one: its
// value is a path).
const secretKey = `(?:[A-Za-z0-9]+[_\-.])*(?:[A-Za-z0-9]*(?:password|passwd|passphrase|secret)|pwd|token|auth[_\-]?token|api[_\-]?key|access[_\-]?key|private[_\-]?key|client[_\-]?secret|credentials?|auth)(?:[_\-.]?(?:key|value|id|token|secret))?`

// rules are applied in order; private keys first, as their bodies would
// otherwise be cut into high-entropy pieces. Compiled on first use: every
// git-convo process links this package, few redact anything.
var rules = sync.OnceValue(func() []rule {
	return []rule{
		{"private key", regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----(?s:.*?)(-----END[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|$)`), []string{"private key"}},
		// The password runs to the last '@' before the host: it may hold '/' and '@'.
		{"password in URL", regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.\-]*://[^/\s:@]*:(?P<s>\S+)@[^\s@]`), []string{"://"}},
		{"aws access key", regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b`), []string{"akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "anpa"}},
		{"aws account id", regexp.MustCompile(`\barn:aws[a-z\-]*:[a-z0-9\-]*:[a-z0-9\-]*:(?P<s>\d{12})\b`), []string{"arn:aws"}},
		{"github token", regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})\b`), []string{"gh", "github_pat_"}},
		{"gitlab token", regexp.MustCompile(`\b(?:glpat|gldt|glrt|glptt|glsoat)-[A-Za-z0-9_\-]{20,}`), []string{"gl"}},
		{"huggingface token", regexp.MustCompile(`\bhf_[A-Za-z0-9]{30,}\b`), []string{"hf_"}},
		{"slack token", regexp.MustCompile(`\bxox[abposre]-[A-Za-z0-9\-]{10,}|https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_\-]+`), []string{"xox", "hooks.slack.com"}},
		{"anthropic key", regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_\-]{20,}`), []string{"sk-ant-"}},
		{"openai key", regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}`), []string{"sk-"}},
		{"stripe key", regexp.MustCompile(`\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}`), []string{"_live_", "_test_"}},
		{"google api key", regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}\b`), []string{"aiza"}},
		{"npm token", regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}\b`), []string{"npm_"}},
		{"jwt", regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{4,}`), []string{"eyj"}},
		// An Authorization header's credentials (with a digit: "Bearer
		// authentication" is prose).
		{"bearer token", regexp.MustCompile(`(?i)\b(?:bearer|basic)\s+(?P<s>[A-Za-z0-9\-._~+/]*[0-9][A-Za-z0-9\-._~+/]*=*)`), []string{"bearer", "basic"}},
		// mysql -pSECRET (-P is the port).
		{"password", regexp.MustCompile(`\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n|;&]*?\s-p(?P<s>'[^'\n]*'|"[^"\n]*"|[^\s'"]+)`), []string{"mysql", "mariadb"}},
		// "the password is X": X with a digit or a symbol ("the password is
		// stored in the vault" is prose).
		{"password", regexp.MustCompile(`(?i)\b(?:password|passphrase|passwd)\s+(?:is|was)\s+(?P<s>"[^"\n]+"|'[^'\n]+'|[^\s"',;]*[0-9!@#$%^&*_+=~?][^\s"',;]*)`), []string{"pass"}},
		{"secret", regexp.MustCompile(`(?i)\b` + secretKey + `\b["']?\s*[:=]\s*(?P<s>"[^"\n]+"|'[^'\n]+'|[^\s"',;]+)`),
			[]string{"pass", "pwd", "secret", "token", "key", "auth", "credential"}},
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

// Text returns s with every secret it recognises replaced by its Mark.
// Text of its own output changes nothing, old marks included.
func Text(s string) string {
	// Replacing only removes text, so hints absent now stay absent.
	lower := strings.ToLower(s)
	for _, r := range rules() {
		if mayMatch(lower, r.hints) {
			s = r.apply(s)
		}
	}
	return word().ReplaceAllStringFunc(s, func(w string) string {
		if looksRandom(w) {
			return Mark("random string")
		}
		return w
	})
}

// apply replaces every match of r in s: the group "s" when r has one (a
// value already marked stays), else the whole match.
func (r rule) apply(s string) string {
	g := r.re.SubexpIndex("s")
	ms := r.re.FindAllStringSubmatchIndex(s, -1)
	if len(ms) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		start, end := m[0], m[1]
		if g > 0 {
			start, end = m[2*g], m[2*g+1]
			if start < 0 {
				continue
			}
			if q := s[start]; (q == '"' || q == '\'') && end-start >= 2 && s[end-1] == q {
				start, end = start+1, end-1 // a quoted value keeps its quotes
			}
			if strings.HasPrefix(s[start:], MarkPrefix) { // already redacted
				continue
			}
		}
		b.WriteString(s[last:start])
		b.WriteString(Mark(r.kind))
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
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
		// A '/' beside '-' or '_' is a path, not base64.
		path := strings.Contains(w, "/") && strings.ContainsAny(w, "-_")
		return len(w) >= 30 && upper > 0 && lower > 0 && strings.ContainsAny(w, "/+") && !path && h >= 4.0
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

// homePath matches an absolute path inside someone's home directory. A
// user name may hold spaces ("/Users/First Last/"), up to four words, when
// a separator follows, which the match then includes.
var homePath = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:/home/|/Users/|[A-Za-z]:[\\/]Users[\\/])(?:[^\s/\\'"]+(?: [^\s/\\'"]+){1,3}[/\\]|[^\s/\\'"]+)`)
})

// rootHome matches root's home, /root, as a whole path component at the
// start of a path (not /srv/root, /rootfs).
var rootHome = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[\s'"=:(\[{,])/root([/\\\s'"),;:\]}]|$)`)
})

// Paths rewrites absolute paths in s so that none outside the repository is
// shared: root's own prefix is dropped (leaving the repo-relative path),
// home directories (root's /root too) become "~".
func Paths(s, root, home string) string {
	if root != "" && root != "/" {
		s = strings.ReplaceAll(s, strings.TrimSuffix(root, "/")+"/", "")
		s = strings.ReplaceAll(s, root, ".")
	}
	if home != "" && home != "/" {
		s = strings.ReplaceAll(s, home, "~")
	}
	s = homePath().ReplaceAllStringFunc(s, func(m string) string {
		if sep := m[len(m)-1]; sep == '/' || sep == '\\' {
			return "~" + string(sep)
		}
		return "~"
	})
	if strings.Contains(s, "/root") {
		s = rootHome().ReplaceAllString(s, "${1}~${2}")
	}
	return s
}
