package notes

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/git-convo/git-convo/pkg/git/gitx"
	"github.com/git-convo/git-convo/pkg/share/trace"
	"github.com/git-convo/git-convo/pkg/store"
)

// fullNote is a real-shaped note: a commit that added 40 lines to each of
// three files, written by two conversations.
func fullNote(commit string) []byte {
	added := map[string][]gitx.AddedLine{}
	writers := map[string]map[int]string{}
	for f := range 3 {
		p := fmt.Sprintf("src/pkg/file%d.go", f)
		writers[p] = map[int]string{}
		for n := 1; n <= 40; n++ {
			added[p] = append(added[p], gitx.AddedLine{Line: n, Text: fmt.Sprintf("\tx%d := compute(%d) // \"q\" \\ {", n, n)})
			if n%3 != 0 {
				writers[p][n] = []string{"conv-a", "conv-b"}[n%2]
			}
		}
	}
	r := trace.Build(trace.Input{Commit: commit, Time: time.Unix(1700000000, 0), Writer: "a@x", Added: added, Writers: writers,
		Links: []trace.Link{{ID: "conv-a", Title: "Add {the} \"parser\"", Agent: "cursor", Model: "anthropic/claude", Confidence: 0.9, Status: "auto"},
			{ID: "conv-b", Title: "t b", Confidence: 0.4, Status: "manual", Reason: "by hand"}}})
	return Encode([]trace.Record{r})
}

// TestLinkedFromNoteAsRecords: the metadata-only reading of a note gives
// what Records and Linked give, for every shape of note.
func TestLinkedFromNoteAsRecords(t *testing.T) {
	h := strings.Repeat("c", 40)
	one := string(fullNote(h))
	other := string(Encode([]trace.Record{*record(h, "b@x", "c2")}))
	newer := strings.Replace(one, `"format":1`, `"format":99`, 1)
	for _, tc := range []struct {
		name, text string
		derived    []byte
	}{
		{"one record", one, nil},
		{"two writers", one + other, nil},
		{"two refs, the same note", one + one, nil},
		{"derived and a note", other, fullNote(h)},
		{"only derived", "", fullNote(h)},
		{"not JSON", "hello\n", nil},
		{"files null", `{"version":"0.1.0","files":null,"metadata":{"dev.git-convo":{"format":1,"conversations":{"x":{}}}}}`, nil},
		{"files not an array", `{"files":{},"metadata":{"dev.git-convo":{"format":1,"conversations":{"x":{}}}}}`, nil},
		{"no files", `{"metadata":{"dev.git-convo":{"format":1,"conversations":{"x":{}}}}}`, nil},
		{"no metadata", `{"files":[]}`, nil},
		{"other tools' metadata only", `{"files":[],"metadata":{"com.other":{"a":[1,{"b":"}"}]}}}`, nil},
		{"newer format", newer, nil},
		{"metadata not an object", `{"files":[],"metadata":{"dev.git-convo":"x"}}`, nil},
		{"no format, evidence first", `{"files":[],"metadata":{"dev.git-convo":{"evidence":[{"path":"a","hashes":["}"]}],"writer":"w","conversations":{"x":{"title":"T"}}}}}`, nil},
		{"newer format last", `{"files":[],"metadata":{"dev.git-convo":{"conversations":{"x":{"title":"T"}},"format":99}}}`, nil},
		{"cut short", one[:len(one)/2], nil},
		{"about another commit", strings.ReplaceAll(one, h, strings.Repeat("d", 40)), nil},
		{"about another commit, beside one about it", strings.ReplaceAll(one, h, strings.Repeat("d", 40)) + other, nil},
		{"keys spaced", `{ "files" : [ ] , "metadata" : { "dev.git-convo" : {"format":1,"conversations":{"x":{"title":"T","confidence":0.5}}} } }`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := []any(nil)
			if rec, ok := Combine(decodeClaims(h, joinLines(tc.derived, []byte(tc.text)))); ok {
				for _, lc := range Linked(h, rec) {
					want = append(want, lc)
				}
			}
			got := []any(nil)
			for _, lc := range linkedFromNote(h, tc.derived, tc.text) {
				got = append(got, lc)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestRawFields(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want map[string]string // nil: not an object
	}{
		{`{"a":1,"b":"x"}`, map[string]string{"a": "1", "b": `"x"`}},
		{`{"b":{"a":[1,"]"]},"a":"\"}"}`, map[string]string{"a": `"\"}"`, "b": `{"a":[1,"]"]}`}},
		{`{"a":"x\\\\","b":"\\\"}"}`, map[string]string{"a": `"x\\\\"`, "b": `"\\\"}"`}},
		{`{"a":"\\","b":[1]}`, map[string]string{"a": `"\\"`, "b": `[1]`}},
		{`{}`, map[string]string{}},
		{`{"a":1,"c":[],"a":2}`, map[string]string{"a": "2"}},
		{`{"a":[1,2}`, nil},
		{`{"a":"x`, nil},
		{`{"a" 1}`, nil},
		{`{"a":1 "b":2}`, nil},
		{`[1]`, nil},
		{``, nil},
		{`{"a":}`, nil},
	} {
		got := []string{"stale", "stale"}
		ok := rawFields(tc.in, got, "a", "b")
		if (tc.want == nil) != !ok {
			t.Errorf("%s: ok %v", tc.in, ok)
			continue
		}
		for i, k := range []string{"a", "b"} {
			if ok && got[i] != tc.want[k] {
				t.Errorf("%s: %s = %s, want %s", tc.in, k, got[i], tc.want[k])
			}
		}
	}
}

// BenchmarkLinkedFromNote1000 is what log spends on 1,000 commits' notes
// (compare BenchmarkDecodeLinked1000, the whole-record decoding).
func BenchmarkLinkedFromNote1000(b *testing.B) {
	var notes []string
	for i := range 1000 {
		notes = append(notes, string(fullNote(fmt.Sprintf("%040d", i))))
	}
	b.ResetTimer()
	for range b.N {
		for _, n := range notes {
			_ = linkedFromNote("c", nil, n)
		}
	}
}

// BenchmarkDecodeLinkedFull1000 is the same notes decoded whole.
func BenchmarkDecodeLinkedFull1000(b *testing.B) {
	var notes [][]byte
	for i := range 1000 {
		notes = append(notes, fullNote(fmt.Sprintf("%040d", i)))
	}
	b.ResetTimer()
	for range b.N {
		for _, n := range notes {
			r, _ := Combine(Decode(n))
			_ = Linked("c", r)
		}
	}
}

// metaCases are git-convo metadata shapes, plain and odd, for metaOf.
var metaCases = []string{
	`{"format":1,"conversations":{"a":{"agent":"cursor","title":"T","summary":"s","confidence":0.8,"status":"auto","reason":"r","matched_files":["x.go","y"],"first_prompt":"p","started_at":"2026-11-23T05:37:20Z","last_active_at":"2026-11-23T05:37:20Z","written_lines":3,"added_lines":4,"model":"m"}}}`,
	`{"format":1,"conversations":{"a":{"title":"esc \"q\" \\ \u00e9 \n"}}}`,
	`{"format":1,"conversations":{"a":{"title":"\ud800 lone, \ud83d\ude00 pair","summary":"\/"}}}`,
	`{"format":1,"conversations":{"a":{"title":"bad \x"}}}`,
	`{"format":1,"conversations":{"\u0061b":{"title":"escaped id"}}}`,
	`{"format":1,"conversations":{"a":{"Title":"case"}}}`,
	`{"format":1,"conversations":{"a":{"title":null,"confidence":null}}}`,
	`{"format":1,"conversations":{"a":{"unknown":[1,{"x":"}"}],"title":"T"}}}`,
	`{"format":1,"conversations":{"a":{"title":"one","title":"two"}},"conversations":{"b":{}}}`,
	`{"format":1,"conversations":{"a":{"written_lines":1.5}}}`,
	`{"format":1,"conversations":{"a":{"confidence":1e-1,"added_lines":-2}}}`,
	`{"format":1.0,"conversations":{"a":{}}}`,
	`{"format":1,"conversations":null}`,
	`{"format":1,"conversations":{"a":null}}`,
	`{"format":1,"conversations":{"a":{"matched_files":null}}}`,
	`{"format":1,"conversations":{"a":{"matched_files":[]}}}`,
	`{"format":1,"conversations":{"a":{"matched_files":[ ]}}}`,
	`{"format":1,"conversations":{"a":{"matched_files":[ "x" , "y\u00e9" ]}}}`,
	`{"format":1,"conversations":{"a":{"matched_files":["a\"b","c"]}}}`,
	`{"format":1,"conversations":{"a":{"matched_files":["a",1]}}}`,
	`{"format":1,"conversations":{"a":{"matched_files":["a",]}}}`,
	`{"format":1,"conversations":{"a":{"matched_files":["a" "b"]}}}`,
	`{"format":1,"conversations":{"a":{"matched_files":["a",null]}}}`,
	`{"format":1,"conversations":{"a":{"matched_files":["` + "\xff" + `"]}}}`,
	`{"format":1,"conversations":{"a":{"title":"` + "\xff" + `"}}}`,
	`{"format":1,"conversations":{"a":{"title":"tab` + "\t" + `"}}}`,
	`{"format":1,"conversations":[]}`,
	`{"conversations":{"a":{"title":"no format"}}}`,
	`{"format":1,"conversations":{"a":{"title":"T"}}`,
	`[]`,
	`"x"`,
	`{}`,
}

// TestMetaOfAsJSON: metaOf decodes every shape as json.Unmarshal into
// trace.Meta does (the zero Meta where json fails).
func TestMetaOfAsJSON(t *testing.T) {
	scanned := 0
	for _, raw := range metaCases {
		var want trace.Meta
		if json.Unmarshal([]byte(raw), &want) != nil {
			want = trace.Meta{}
		}
		if got := metaOf(raw); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", raw, got, want)
		}
		if _, ok := scanMeta(raw); ok && json.Valid([]byte(raw)) {
			scanned++
		}
	}
	if scanned < 3 {
		t.Errorf("only %d shapes took the scanner: it is not tested", scanned)
	}
}

func FuzzMetaOf(f *testing.F) {
	for _, raw := range metaCases {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var want trace.Meta
		if json.Unmarshal([]byte(raw), &want) != nil {
			want = trace.Meta{}
		}
		if got := metaOf(raw); !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %+v\nwant %+v", raw, got, want)
		}
	})
}

// linksMetaCases add to metaCases what git-convo's metadata carries beside
// format and conversations, and values the scanner must not take.
var linksMetaCases = append([]string{
	`{"evidence":[{"path":"a","hashes":["}"]}],"format":1,"writer":"w","conversations":{"x":{"title":"T"}}}`,
	`{"conversations":{"x":{"title":"T"}},"format":1,"conversations":{"y":{}}}`,
	`{"format":01,"conversations":{}}`,
	`{"format":+1}`,
	`{"format":1,"conversations":{"x":{"confidence":0x1p-2}}}`,
	`{"format":1,"conversations":{"x":{"confidence":.5}}}`,
	`{"format":1,"conversations":{"x` + "\x01" + `":{}}}`,
	`{"format":1,"conversations":{"x":{"title":"T"}},"evidence":[1,}`,
	`{"format":-0,"conversations":{"x":{"confidence":-0.5e+2,"written_lines":1E2,"added_lines":-1}}}`,
	`{"format":1,"conversations":{"x":{"confidence":1.}}}`,
	`{"format":1,"conversations":{"x":{"confidence":inf,"title":"T"}}}`,
	`{"format":1,"conversations":{"x":{"confidence":1e}}}`,
	`{"format":1,"conversations":{"x":{"written_lines":+2}}}`,
	`{"format":1,"conversations":{"x` + "\t" + `y":{}}}`,
	`{"format":1,"conversations":{"x":{"title":"T"} x}}`,
	`{"format":1,"conversations":{"x":{"title":"a` + "\x7f\xc3" + `"}}}`,
	`{"format":1,"conversations":{"x":{"title":"T"}`,
}, metaCases...)

// TestLinksMeta: reading format and conversations where they lie decodes
// as building the object of the two and decoding it.
func TestLinksMeta(t *testing.T) {
	for _, raw := range linksMetaCases {
		if got, want := linksMeta(raw), metaOf(metaForLinks(raw)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", raw, got, want)
		}
	}
}

func FuzzLinksMeta(f *testing.F) {
	for _, raw := range linksMetaCases {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if got, want := linksMeta(raw), metaOf(metaForLinks(raw)); !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %+v\nwant %+v", raw, got, want)
		}
	})
}

func TestJSONNumber(t *testing.T) {
	for v, want := range map[string]bool{
		"0": true, "-0": true, "12": true, "1.5": true, "-0.5e+2": true, "1E2": true, "1e-7": true,
		"": false, "-": false, "01": false, "+1": false, ".5": false, "1.": false, "1e": false,
		"1e+": false, "inf": false, "NaN": false, "0x10": false, "1_0": false, "1x": false, "--1": false,
	} {
		if got := jsonNumber(v); got != want {
			t.Errorf("jsonNumber(%q) = %v", v, got)
		}
		if want != json.Valid([]byte(v)) {
			t.Errorf("%q: the case disagrees with json.Valid", v)
		}
	}
}

// noteLine is a one-record note whose git-convo metadata is raw.
func noteLine(commit, raw string) string {
	return `{"version":"0.1.0","id":"i","vcs":{"type":"git","revision":"` + commit +
		`"},"files":[{"path":"a.go","conversations":[{"contributor":{"type":"ai"},"ranges":[{"start_line":1,"end_line":2,"content_hash":"h"}]}]}],"metadata":{"` +
		trace.MetaKey + `":` + raw + `}}`
}

// TestLinkedLine: a note's links read from its raw values are those of its
// decoded metadata, wherever linkedLine answers (and it answers for the
// usual shapes).
func TestLinkedLine(t *testing.T) {
	const commit = "1111111111111111111111111111111111111111"
	lines := []string{
		`{"files":[],"metadata":null}`,
		`{"files":[]}`,
		`{"files":{},"metadata":{}}`,
		`{"metadata":{"` + trace.MetaKey + `":{"format":1,"conversations":{"x":{}}}}}`,
		noteLine(commit, `{"format":99,"conversations":{"x":{"title":"future"}}}`),
		noteLine(commit, `{"format":1,"writer":"w","conversations":{"b":{"confidence":0.5},"a":{"confidence":0.5},"c":{"status":"manual"},"d":{"confidence":0.9,"shared_by":"s"}}}`),
		noteLine(commit, `{"format":1,"conversations":{"x":{"derived":"","reason":"old","status":"auto","written_lines":0,"rewritten_from":"f"}}}`),
		noteLine(commit, `{"format":1,"conversations":{"x":{"title":"A"},"y":{},"x":{"title":"B"}}}`),
	}
	many := `{"format":1,"conversations":{`
	for i := range maxLineConvs + 1 {
		if i > 0 {
			many += ","
		}
		many += fmt.Sprintf(`"c%02d":{"confidence":0.%d}`, i, i%10)
	}
	lines = append(lines, noteLine(commit, many+"}}"))
	for _, raw := range linksMetaCases {
		lines = append(lines, noteLine(commit, raw))
	}
	answered := 0 // with links
	for _, line := range lines {
		got, ok := linkedLine(commit, line)
		if !ok {
			continue
		}
		if len(got) > 0 {
			answered++
		}
		var want []store.LinkedConversation
		if m, ok := decodeMeta(line); ok {
			want = linkedMeta(commit, m)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", line, got, want)
		}
	}
	if answered < 12 {
		t.Errorf("linkedLine gave links for %d of %d notes: it is not tested", answered, len(lines))
	}
}

func FuzzLinkedLine(f *testing.F) {
	const commit = "1111111111111111111111111111111111111111"
	for _, raw := range linksMetaCases {
		f.Add(noteLine(commit, raw))
	}
	f.Fuzz(func(t *testing.T, line string) {
		got, ok := linkedLine(commit, line)
		if !ok {
			return
		}
		var want []store.LinkedConversation
		if m, ok := decodeMeta(line); ok {
			want = linkedMeta(commit, m)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %+v\nwant %+v", line, got, want)
		}
	})
}
