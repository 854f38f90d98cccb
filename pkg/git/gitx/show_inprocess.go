package gitx

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/git-convo/git-convo/pkg/git/odb"
	"github.com/go-git/go-git/v5/plumbing"
)

// show's common case without git: ShowHeaders' record for one revision,
// printed from the repository's files exactly as `git show --no-patch -z
// --no-color --pretty=medium` prints it, wherever that can be told for
// sure. Everything else (options, ranges, :/text, abbreviated hashes, tags
// shown as tags, mailmaps, other date formats or encodings, decorations,
// grafts, replacements, shallow clones) is git's to answer.

// LoadSettingsInProcess is LoadSettings without the git fallback: ok is
// false where only `git config` can read the configuration (includes,
// `git -c`).
func LoadSettingsInProcess(dir string, getenv func(string) string) (*Settings, bool) {
	s, err := loadSettingsInProcess(dir, getenv)
	return s, err == nil
}

// ShowInProcess is ShowHeaders for one revision ("" for HEAD) with no other
// argument, from files, with no process: the record git would print, and
// the commit's fields as LogCommitsShow reads them. s is the configuration
// (LoadSettingsInProcess), terminal as for ShowHeaders. ok is false wherever
// git's output could differ: ask git then.
func (r *Repo) ShowInProcess(rev string, s *Settings, terminal bool, getenv func(string) string) (ShowRecord, *Commit, bool) {
	if r.ObjectFormat != "sha1" || r.TopLevel == "" || s == nil || !r.PlainObjects(getenv) {
		return ShowRecord{}, nil, false
	}
	decorate, ok := showSettingsPlain(s, terminal, getenv)
	if !ok {
		return ShowRecord{}, nil, false
	}
	// log.mailmap is on by default: git reads .mailmap at the top level.
	mailmap, valid := boolOr(s, "log.mailmap", true)
	if !valid {
		return ShowRecord{}, nil, false
	}
	if _, err := os.Lstat(filepath.Join(r.TopLevel, ".mailmap")); mailmap && !os.IsNotExist(err) {
		return ShowRecord{}, nil, false
	}
	if rev == "" {
		rev = "HEAD"
	} else if _, err := os.Lstat(filepath.Join(r.run.dir, rev)); !os.IsNotExist(err) {
		return ShowRecord{}, nil, false // also a file here: git says the argument is ambiguous
	}
	if r.notesShown(s, getenv) {
		return ShowRecord{}, nil, false
	}
	st := odb.Open(r.CommonDir)
	defer st.Close()
	// core.commitGraph (on by default): whether git reads parents from
	// the commit-graph. Parents are the same either way: a walk too long
	// to take without the graph is git's.
	graph, valid := boolOr(s, "core.commitgraph", true)
	if !valid {
		return ShowRecord{}, nil, false
	}
	hash, tag, ok := r.resolveIn(st, rev, graph)
	if !ok || tag {
		return ShowRecord{}, nil, false
	}
	data, err := st.Typed(plumbing.NewHash(hash), plumbing.CommitObject)
	if err != nil {
		return ShowRecord{}, nil, false
	}
	text, parents, ok := mediumHeader(hash, data)
	if !ok || !treesReadable(st, hash, data, parents) {
		return ShowRecord{}, nil, false
	}
	var decorations []Decoration
	if decorate {
		deco, ok := r.decorations(st, s, hash)
		if !ok {
			return ShowRecord{}, nil, false
		}
		if len(deco) > 0 {
			first, rest, _ := strings.Cut(text, "\n")
			text = first + " (" + JoinDecorations(deco) + ")\n" + rest
			decorations = deco
		}
	}
	if len(parents) > 1 {
		// git abbreviates a merge's parents as %h does.
		v, set := s.Get("core.abbrev")
		abbrevs, ok := r.abbrevsInProcess(parents, v, set)
		if !ok {
			return ShowRecord{}, nil, false
		}
		merge := "Merge:"
		for _, p := range parents {
			merge += " " + abbrevs[p]
		}
		first, rest, _ := strings.Cut(text, "\n")
		text = first + "\n" + merge + "\n" + rest
	}
	c, _, err := parseCommitObject(hash, data)
	if err != nil {
		return ShowRecord{}, nil, false
	}
	return ShowRecord{Hash: hash, Text: text, Decorations: decorations}, c, true
}

// treesReadable: the commit's tree and each parent are objects here, as
// git show (which diffs them even with --no-patch) needs them: a missing
// one (a corrupt repository, a partial clone whose promisor is gone) is
// git's to report. Headers only: no object is inflated for this.
func treesReadable(st *odb.Store, hash string, data []byte, parents []string) bool {
	if _, tree, err := parseCommitObject(hash, data); err != nil || !hasType(st, tree, plumbing.TreeObject) {
		return false
	}
	for _, p := range parents {
		if !hasType(st, plumbing.NewHash(p), plumbing.CommitObject) {
			return false
		}
	}
	return true
}

func hasType(st *odb.Store, h plumbing.Hash, want plumbing.ObjectType) bool {
	t, err := st.Type(h)
	return err == nil && t == want
}

// notesShown: git show would print notes under the message (a notes ref it
// displays exists, or one is named): git's to print.
func (r *Repo) notesShown(s *Settings, getenv func(string) string) bool {
	if getenv("GIT_NOTES_REF") != "" || getenv("GIT_NOTES_DISPLAY_REF") != "" ||
		isSet(s, "core.notesref") || isSet(s, "notes.displayref") {
		return true
	}
	refs := refFiles{r: r}
	_, found := refs.resolve("refs/notes/commits", 0)
	return found || refs.doubt
}

// boolOr is a boolean setting, def where it is not set; valid is false
// for a value git refuses.
func boolOr(s *Settings, key string, def bool) (value, valid bool) {
	if !isSet(s, key) {
		return def, true
	}
	return s.Bool(key)
}

func isSet(s *Settings, key string) bool {
	_, ok := s.Get(key)
	return ok
}

// showSettingsPlain: nothing in the configuration or environment changes
// git show's medium header from what mediumHeader prints, but decorations
// (decorate: git's short ones, on a terminal by default). log.showSignature
// does not count: ShowHeaders asks for the medium format. A signature
// shown (log.showSignature) is git's to print.
func showSettingsPlain(s *Settings, terminal bool, getenv func(string) string) (decorate, ok bool) {
	for _, k := range []string{"log.date", "log.abbrevcommit", "mailmap.file", "mailmap.blob"} {
		if isSet(s, k) {
			return false, false
		}
	}
	if on, valid := s.Bool("log.showsignature"); on || !valid && isSet(s, "log.showsignature") {
		return false, false
	}
	for _, k := range []string{"i18n.logoutputencoding", "i18n.commitencoding"} {
		if v, set := s.Get(k); set && !isUTF8(v) {
			return false, false
		}
	}
	if getenv("GIT_PAGER_IN_USE") != "" || getenv("GIT_NAMESPACE") != "" {
		return false, false
	}
	// log.decorate: auto (the default) decorates on a terminal only. git
	// compares "short", "full" and "auto" case-sensitively: "Short" is no
	// style, and decorates nothing (builtin/log.c: parse_decoration_style).
	v, set := s.Get("log.decorate")
	switch {
	case !set || v == "auto":
		return terminal, true
	case v == "short":
		return true, true
	case v == "full":
		return false, false // git's to print
	}
	on, _ := s.Bool("log.decorate")
	return on, true
}

// isUTF8 is git's is_encoding_utf8.
func isUTF8(enc string) bool {
	return strings.EqualFold(enc, "utf-8") || strings.EqualFold(enc, "utf8")
}

// PlainObjects reports a repository whose objects git reads as they are
// stored, where odb.Open finds them: no replace refs, grafts or shallow
// boundary, refs in files, no object directory from the environment.
func (r *Repo) PlainObjects(getenv func(string) string) bool {
	if r.CommonDir == "" {
		return false
	}
	for _, f := range []string{"shallow", "info/grafts", "reftable"} {
		if _, err := os.Lstat(filepath.Join(r.CommonDir, f)); !os.IsNotExist(err) {
			return false
		}
	}
	if ents, err := os.ReadDir(filepath.Join(r.CommonDir, "refs", "replace")); len(ents) > 0 || err != nil && !os.IsNotExist(err) {
		return false
	}
	if b, err := os.ReadFile(filepath.Join(r.CommonDir, "packed-refs")); err == nil && bytes.Contains(b, []byte(" refs/replace/")) ||
		err != nil && !os.IsNotExist(err) {
		return false
	}
	for _, k := range []string{"GIT_REPLACE_REF_BASE", "GIT_GRAFT_FILE", "GIT_SHALLOW_FILE", "GIT_OBJECT_DIRECTORY",
		"GIT_ALTERNATE_OBJECT_DIRECTORIES"} {
		if getenv(k) != "" {
			return false
		}
	}
	return true
}

// mediumHeader prints a commit as git's medium format does without a
// diff, decorations or color (pretty.c: pp_header, pp_user_info,
// pp_remainder), the Merge line left out: the header line, Author, Date,
// and the message with blank lines skipped at its start, every line's
// trailing white space dropped, indented by four with tabs expanded, and
// the end trimmed. parents are the commit's parents. ok is false for
// anything git might print otherwise (an odd ident or date, another
// encoding, a NUL, a tab after non-ASCII text).
func mediumHeader(hash string, data []byte) (text string, parents []string, ok bool) {
	head, msg, found := bytes.Cut(data, []byte("\n\n"))
	if !found || bytes.IndexByte(data, 0) >= 0 {
		return "", nil, false
	}
	lines := strings.Split(string(head), "\n")
	if !strings.HasPrefix(lines[0], "tree ") {
		return "", nil, false
	}
	i := 1
	for ; i < len(lines) && strings.HasPrefix(lines[i], "parent "); i++ {
		p := lines[i][len("parent "):]
		if len(p) != 40 || !IsFullHash(p) {
			return "", nil, false
		}
		parents = append(parents, p)
	}
	author, authors := "", 0
	for _, l := range lines[i:] {
		switch {
		case strings.HasPrefix(l, "parent "):
			return "", nil, false // a parent line git would not take for one
		case strings.HasPrefix(l, "author "):
			author, authors = l[len("author "):], authors+1
		case strings.HasPrefix(l, "encoding "):
			if !isUTF8(l[len("encoding "):]) {
				return "", nil, false
			}
		}
	}
	if authors != 1 {
		return "", nil, false
	}
	name, email, date, ok := identForShow(author)
	if !ok {
		return "", nil, false
	}
	var b strings.Builder
	b.Grow(len(data) + 128)
	b.WriteString("commit " + hash + "\nAuthor: " + name + " <" + email + ">\nDate:   " + date + "\n\n")
	started := false
	for rest := string(msg); rest != ""; {
		line, after, _ := strings.Cut(rest, "\n")
		rest = after
		line = strings.TrimRight(line, gitSpace)
		if line == "" && !started {
			continue
		}
		started = true
		b.WriteString("    ")
		if !writeTabExpanded(&b, line) {
			return "", nil, false
		}
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), gitSpace) + "\n", parents, true
}

// writeTabExpanded writes line with each tab expanded to the next multiple
// of 8 columns, as git's medium format does. ok is false when a tab follows
// text whose width git counts by Unicode rules (anything not printable
// ASCII).
func writeTabExpanded(b *strings.Builder, line string) bool {
	col := 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == '\t' {
			n := 8 - col%8
			b.WriteString("        "[:n])
			col += n
			continue
		}
		if c < 0x20 || c >= 0x7f {
			if strings.IndexByte(line[i:], '\t') >= 0 {
				return false
			}
			b.WriteString(line[i:])
			return true
		}
		b.WriteByte(c)
		col++
	}
	return true
}

// identForShow reads an author line's value ("Name <email> 1700000000
// +0200") as git's split_ident_line does, and its date as git's default
// date format prints it in the ident's own zone. ok is false for anything
// unusual: a second '<' or '>', a malformed or out-of-range date or zone.
func identForShow(s string) (name, email, date string, ok bool) {
	name, email, secs, off, tz, ok := splitIdentStrict(s)
	if !ok {
		return "", "", "", false
	}
	t := time.Unix(secs+int64(off), 0).UTC()
	return name, email, t.Format("Mon Jan 2 15:04:05 2006") + " " + signed4(tz), true
}

// splitIdentStrict splits an ident as identForShow takes it: the name,
// email, seconds, the zone's offset in seconds and as git writes it
// (-0130 is -130).
func splitIdentStrict(s string) (name, email string, secs int64, off, tz int, ok bool) {
	if strings.Count(s, "<") != 1 || strings.Count(s, ">") != 1 {
		return "", "", 0, 0, 0, false
	}
	lt, gt := strings.IndexByte(s, '<'), strings.IndexByte(s, '>')
	if gt < lt {
		return "", "", 0, 0, 0, false
	}
	name, email = strings.TrimRight(s[:lt], gitSpace), s[lt+1:gt]
	var f [3]string // " <seconds> <zone>": "", seconds, zone
	rest := s[gt+1:]
	for i := range f {
		var found bool
		if f[i], rest, found = strings.Cut(rest, " "); found != (i < 2) {
			return "", "", 0, 0, 0, false
		}
	}
	if f[0] != "" || len(f[1]) == 0 || len(f[1]) > 12 || len(f[2]) != 5 || f[2][0] != '+' && f[2][0] != '-' {
		return "", "", 0, 0, 0, false
	}
	secs, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil || f[1][0] < '0' || f[1][0] > '9' {
		return "", "", 0, 0, 0, false
	}
	tz, err = strconv.Atoi(f[2][1:])
	if err != nil || strings.Trim(f[2][1:], "0123456789") != "" || tz%100 >= 60 {
		return "", "", 0, 0, 0, false
	}
	off = (tz/100)*3600 + (tz%100)*60
	if f[2][0] == '-' {
		off, tz = -off, -tz
	}
	if secs+int64(off) < 0 {
		return "", "", 0, 0, 0, false // git dies: "Timestamp before Unix epoch"
	}
	if secs+int64(off) >= year10000 {
		return "", "", 0, 0, 0, false
	}
	return name, email, secs, off, tz, true
}

// year10000 is the first second of the year 10000 (UTC): git prints later
// dates its own way.
const year10000 = 253402300800

// signed4 is C's "%+05d".
func signed4(n int) string {
	sign := "+"
	if n < 0 {
		sign, n = "-", -n
	}
	s := strconv.Itoa(n)
	for len(s) < 4 {
		s = "0" + s
	}
	return sign + s
}
