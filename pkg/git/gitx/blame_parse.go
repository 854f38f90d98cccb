package gitx

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"time"
)

// blameCommit is what porcelain output says once per commit (and, for the
// file name, again whenever it changes).
type blameCommit struct {
	hash, author, mail, summary, filename string
	previous, previousFilename            string
	unix                                  int64
	time                                  time.Time
	boundary                              bool
}

// ParseBlame parses `git blame --porcelain` output as it is read. Each line
// comes as a header ("<hash> <orig> <final>[ <count>]"), the commit's details
// the first time the commit appears, and the content after a tab. Commit
// details are shared by the lines of a commit and all texts come from one
// allocation, so a line costs little more than its BlameLine.
func ParseBlame(rd io.Reader) ([]BlameLine, error) {
	lr := lineReader{br: bufio.NewReaderSize(rd, 64*1024)}
	commits := map[string]*blameCommit{}
	var (
		lines       []BlameLine
		text        []byte // every line's text, back to back
		ends        []int  // where each line's text ends in text
		cur         *blameCommit
		orig, final int
		pending     bool // a header waits for its content line
	)
	for {
		b, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(b) > 0 && b[0] == '\t' {
			if !pending {
				return nil, errors.New("git blame: content line without a header")
			}
			pending = false
			lines = append(lines, BlameLine{Line: final, OrigLine: orig, Commit: cur.hash, Author: cur.author,
				AuthorMail: cur.mail, AuthorTime: cur.time, Summary: cur.summary, Filename: cur.filename,
				Boundary: cur.boundary, Previous: cur.previous, PreviousFilename: cur.previousFilename})
			text = append(text, b[1:]...)
			ends = append(ends, len(text))
			continue
		}
		key, val, _ := bytes.Cut(b, []byte{' '})
		if isFullHash(key) {
			if pending {
				return nil, errors.New("git blame: header without a content line")
			}
			o, f, ok := headerNumbers(val)
			if !ok {
				return nil, errors.New("git blame: malformed header line")
			}
			cur = commits[string(key)]
			if cur == nil {
				cur = &blameCommit{hash: string(key)}
				commits[cur.hash] = cur
			}
			orig, final, pending = o, f, true
			continue
		}
		if cur == nil {
			continue // before any header: not porcelain output, skipped
		}
		switch string(key) {
		case "author":
			cur.author = string(val)
		case "author-mail":
			cur.mail = string(bytes.TrimSuffix(bytes.TrimPrefix(val, []byte{'<'}), []byte{'>'}))
		case "author-time":
			if n, ok := atoi(val); ok {
				cur.unix = int64(n)
				cur.time = time.Unix(cur.unix, 0)
			}
		case "author-tz":
			if off, ok := tzOffset(val); ok {
				cur.time = time.Unix(cur.unix, 0).In(time.FixedZone("", off))
			}
		case "summary":
			cur.summary = string(val)
		case "filename": // once per group at most, not per line
			cur.filename = unquotePath(string(val))
		case "boundary":
			cur.boundary = true
		case "previous":
			h, name, _ := bytes.Cut(val, []byte{' '})
			cur.previous, cur.previousFilename = string(h), unquotePath(string(name))
		}
	}
	if pending {
		return nil, errors.New("git blame: output ends inside a line")
	}
	all := string(text)
	start := 0
	for i := range lines {
		lines[i].Text = all[start:ends[i]]
		start = ends[i]
	}
	return lines, nil
}

// headerNumbers reads "<orig> <final>[ <count>]" after a header's hash.
func headerNumbers(b []byte) (orig, final int, ok bool) {
	o, rest, _ := bytes.Cut(b, []byte{' '})
	f, _, _ := bytes.Cut(rest, []byte{' '})
	orig, ok1 := atoi(o)
	final, ok2 := atoi(f)
	return orig, final, ok1 && ok2 && final > 0
}

// atoi parses a non-negative decimal without allocating.
func atoi(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// tzOffset reads git's "+hhmm" zone into seconds east of UTC.
func tzOffset(b []byte) (int, bool) {
	if len(b) != 5 || (b[0] != '+' && b[0] != '-') {
		return 0, false
	}
	hhmm, ok := atoi(b[1:])
	if !ok {
		return 0, false
	}
	off := (hhmm/100)*3600 + (hhmm%100)*60
	if b[0] == '-' {
		off = -off
	}
	return off, true
}

// lineReader reads lines without copying them when they fit its buffer.
type lineReader struct {
	br   *bufio.Reader
	long []byte // a line longer than the buffer, put together
}

// next returns the next line without its "\n" (a "\r" before it is the
// line's own: git blame keeps it); it is valid until the next call.
func (lr *lineReader) next() ([]byte, error) {
	line, err := lr.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		lr.long = append(lr.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = lr.br.ReadSlice('\n')
			lr.long = append(lr.long, line...)
		}
		line = lr.long
	}
	if err != nil && (err != io.EOF || len(line) == 0) {
		return nil, err
	}
	return bytes.TrimSuffix(line, []byte{'\n'}), nil
}
