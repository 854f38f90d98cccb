package term

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Text from outside the program (conversation titles, prompts, summaries,
// paths, ids, transcripts, log lines) must never drive the terminal: an
// escape sequence in a prompt could set the clipboard (OSC 52), clear the
// screen or overwrite a line. Line and Text make such text safe to print,
// showing control characters escaped the way git shows odd bytes in paths
// (\033, \r, \a). --json output goes through JSON: encoding/json escapes
// C0 controls itself but leaves C1 controls and bidi overrides raw.

// Line makes s safe to print as part of one line: every control character,
// newline and tab included, is shown escaped.
func Line(s string) string { return escape(s, false) }

// Text makes multi-line s (a transcript, a prompt) safe to print: newlines
// (\n and \r\n) and tabs are kept, every other control character is shown
// escaped.
func Text(s string) string { return escape(s, true) }

// unsafeRune reports a character a terminal may act on rather than show:
// C0 controls, DEL, and the characters of hiddenRune.
func unsafeRune(r rune, keepLines bool) bool {
	switch {
	case keepLines && (r == '\n' || r == '\t'):
		return false
	case r < 0x20, r == 0x7f:
		return true
	}
	return hiddenRune(r)
}

// hiddenRune reports a non-ASCII character that acts rather than shows, or
// shows as nothing: C1 controls (U+0080–U+009F: some terminals read U+009B
// as CSI), the bidirectional marks, embeddings, overrides and isolates that
// reorder what is displayed, zero-width characters that hide text inside a
// word (U+200B–U+200D, U+2060–U+2064, U+FEFF) and the Unicode line and
// paragraph separators (U+2028, U+2029) that break a line.
func hiddenRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r >= 0x200b && r <= 0x200f, r >= 0x2028 && r <= 0x202e:
		return true
	case r >= 0x2060 && r <= 0x2064, r >= 0x2066 && r <= 0x2069, r == 0xfeff:
		return true
	}
	return false
}

// JSON returns encoded JSON with every hiddenRune written as a \uXXXX
// escape: the same value to a JSON reader, but nothing a terminal acts on
// when the output is read raw (jq -r aside). encoding/json escapes C0
// controls, U+2028 and U+2029 itself. Outside strings JSON is ASCII, so
// replacing the characters wherever they are is safe.
func JSON(b []byte) []byte {
	if !bytes.ContainsFunc(b, hiddenRune) {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if size > 1 && hiddenRune(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// JSONWriter passes what is written to w through JSON. Each Write must be
// whole characters: json.Encoder writes one whole value per call.
func JSONWriter(w io.Writer) io.Writer { return jsonWriter{w} }

type jsonWriter struct{ w io.Writer }

func (j jsonWriter) Write(p []byte) (int, error) {
	if _, err := j.w.Write(JSON(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

func escape(s string, keepLines bool) string {
	// Most text needs nothing: return it without allocating. Printable
	// ASCII is passed over a byte at a time, the rest read as runes.
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f {
		i++
	}
	if i == len(s) {
		return s
	}
	clean := true
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unsafeRune(r, keepLines) && !crlf(s, i, keepLines) {
			clean = false
			break
		}
		i += size
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			octal(&b, s[i]) // a byte that is not UTF-8, as git shows it
		case !unsafeRune(r, keepLines) || crlf(s, i, keepLines):
			b.WriteString(s[i : i+size])
		case r < 0x80:
			if c := cEscape(byte(r)); c != 0 {
				b.WriteByte('\\')
				b.WriteByte(c)
			} else {
				octal(&b, byte(r))
			}
		default:
			for j := 0; j < size; j++ {
				octal(&b, s[i+j])
			}
		}
		i += size
	}
	return b.String()
}

// crlf reports a Windows line end at s[i] in multi-line text: harmless to
// print, and kept so a CRLF transcript does not show \r on every line.
func crlf(s string, i int, keepLines bool) bool {
	return keepLines && s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n'
}

// cEscape returns the letter of c's C escape as git's quote_c_style writes
// it (\r for a carriage return), or 0 when c has none.
func cEscape(c byte) byte {
	i := strings.IndexByte("\a\b\t\n\v\f\r", c)
	if i < 0 {
		return 0
	}
	return "abtnvfr"[i]
}

func octal(b *strings.Builder, c byte) {
	b.WriteByte('\\')
	o := strconv.FormatUint(uint64(c), 8)
	b.WriteString(strings.Repeat("0", 3-len(o)))
	b.WriteString(o)
}
