package term

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLineAndText(t *testing.T) {
	tests := []struct {
		name, in, line, text string
	}{
		{"plain", "Fix the parser – naïve 日本", "Fix the parser – naïve 日本", "Fix the parser – naïve 日本"},
		{"printable ASCII only", "Fix it (v2): ~all {ok}", "Fix it (v2): ~all {ok}", "Fix it (v2): ~all {ok}"},
		{"an escape after ASCII", "done\x1b", `done\033`, `done\033`},
		{"OSC 52, clear screen, carriage return", "\x1b]52;c;ZXZpbA==\x07\x1b[2J\rX", `\033]52;c;ZXZpbA==\a\033[2J\rX`, `\033]52;c;ZXZpbA==\a\033[2J\rX`},
		{"newline and tab", "a\n\tb", `a\n\tb`, "a\n\tb"},
		{"CRLF line ends", "a\r\nb\rc", `a\r\nb\rc`, "a\r\nb\\rc"},
		{"NUL, DEL", "a\x00b\x7f", `a\000b\177`, `a\000b\177`},
		{"C1 CSI", "a\u009b2Jb", `a\302\2332Jb`, `a\302\2332Jb`},
		{"invalid UTF-8", "a\xffb\x9b", `a\377b\233`, `a\377b\233`},
		{"bidi override", "a\u202eb", `a\342\200\256b`, `a\342\200\256b`},
		{"backslash kept", `C:\dir`, `C:\dir`, `C:\dir`},
		{"zero-width space and joiner", "pass\u200bword\u200d", `pass\342\200\213word\342\200\215`, `pass\342\200\213word\342\200\215`},
		{"word joiner, BOM", "a\u2060b\ufeff", `a\342\201\240b\357\273\277`, `a\342\201\240b\357\273\277`},
		{"line and paragraph separators", "a\u2028b\u2029", `a\342\200\250b\342\200\251`, `a\342\200\250b\342\200\251`},
		{"right-to-left mark", "a\u200fb", `a\342\200\217b`, `a\342\200\217b`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Line(tt.in); got != tt.line {
				t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.line)
			}
			if got := Text(tt.in); got != tt.text {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.text)
			}
		})
	}
}

func TestJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"t":"plain – naïve 日本"}`, `{"t":"plain – naïve 日本"}`},
		{"{\"t\":\"a\u009b2Jb\"}", `{"t":"a\u009b2Jb"}`},
		{"{\"t\":\"a\u202eb\u2066\"}", `{"t":"a\u202eb\u2066"}`},
		{"{\"t\":\"x\u200by\ufeff\"}", `{"t":"x\u200by\ufeff"}`},
	}
	for _, tt := range tests {
		got := string(JSON([]byte(tt.in)))
		if got != tt.want {
			t.Errorf("JSON(%q) = %q, want %q", tt.in, got, tt.want)
		}
		var a, b any
		if err := json.Unmarshal([]byte(tt.in), &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(got), &b); err != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("JSON(%q) = %q: decodes to %v (%v), want %v", tt.in, got, b, err, a)
		}
	}
	// Through an encoder, as the commands write.
	var out strings.Builder
	if err := json.NewEncoder(JSONWriter(&out)).Encode(map[string]string{"agent": "x\u009b\u202e\u2028"}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != `{"agent":"x\u009b\u202e\u2028"}`+"\n" {
		t.Errorf("encoded %q", got)
	}
}

// FuzzSanitize: whatever the input, the output is valid UTF-8 holding no
// character a terminal acts on (Text keeps only newline and tab), and clean
// input comes back unchanged.
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b]52;c;ZXZpbA==\x07\x1b[2J\rX", "a\xffb", "\u009b\u202e", "Ⱥ\n\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, keep := range []bool{false, true} {
			out := escape(s, keep)
			if !utf8.ValidString(out) {
				t.Fatalf("escape(%q, %v) = %q: not UTF-8", s, keep, out)
			}
			for i, r := range out {
				if unsafeRune(r, keep) && !crlf(out, i, keep) {
					t.Fatalf("escape(%q, %v) = %q keeps %U", s, keep, out, r)
				}
			}
			if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return unsafeRune(r, keep) || r == '\r' }) && out != s {
				t.Fatalf("escape(%q, %v) changed clean text to %q", s, keep, out)
			}
		}
	})
}
