// Package sqliteuri builds the file: URIs git-convo opens SQLite databases
// with. A URI, not a bare path: query parameters such as mode=ro only take
// effect after "file:", and net/url escapes what SQLite would otherwise read
// as the start of the query or fragment ('?', '#') or as an escape ('%').
package sqliteuri

import (
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// File returns the URI of the database at path (as the OS spells it) with
// the query parameters q (nil for none).
func File(path string, q url.Values) string { return forOS(runtime.GOOS, path, q) }

// ReadOnly returns the URI that opens the database at path strictly
// read-only (mode=ro), waiting up to busy for a writer's lock (0: no wait).
// Never immutable=1: that ignores the WAL and misses a live writer's rows.
func ReadOnly(path string, busy time.Duration) string {
	q := url.Values{}
	q.Set("mode", "ro")
	if busy > 0 {
		q.Set("_busy_timeout", strconv.FormatInt(busy.Milliseconds(), 10))
	}
	return File(path, q)
}

// forOS is File for the OS goos, so every OS's spelling is tested anywhere.
func forOS(goos, path string, q url.Values) string {
	p := path
	if goos == "windows" {
		p = strings.ReplaceAll(p, `\`, "/")
		if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) {
			p = "/" + p // file:///C:/...: without the slash "C:" would be read as the authority
		}
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}
	if !strings.HasPrefix(p, "/") {
		// A relative path has no authority: file:dir/x.db, not file://dir/x.db.
		u = url.URL{Scheme: "file", Opaque: (&url.URL{Path: p}).EscapedPath(), RawQuery: q.Encode()}
	}
	return u.String()
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
