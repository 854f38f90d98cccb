package gitai

import (
	"reflect"
	"strings"
	"testing"
)

// sameAsJSON fails t unless scanMeta's answer on src is encoding/json's:
// where the scanner takes src, encoding/json takes it too, into the same
// Metadata. It reports whether the scanner took it.
func sameAsJSON(t *testing.T, src string) bool {
	t.Helper()
	var fast Metadata
	if !scanMeta(src, &fast) {
		return false
	}
	var slow Metadata
	if err := decodeMetaJSON([]byte(src), &slow); err != nil {
		t.Fatalf("the scanner takes what encoding/json refuses (%v):\n%q", err, src)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("the scanner reads\n%#v\nencoding/json\n%#v\nof %q", fast, slow, src)
	}
	return true
}

// metaOf is a note's metadata section (after its --- line).
func metaOf(b []byte) (string, bool) {
	_, js, ok := strings.Cut("\n"+string(b), "\n---\n")
	return js, ok
}

// TestScanMetaRealNotes: every real note's metadata is read by hand
// (the scanner is not a path never taken), as encoding/json reads it.
func TestScanMetaRealNotes(t *testing.T) {
	for name, b := range fixtureNotes(t) {
		js, ok := metaOf(b)
		if !ok {
			t.Fatalf("%s: no --- line", name)
		}
		if !sameAsJSON(t, js) {
			t.Errorf("%s: the scanner leaves a real note to encoding/json", name)
		}
	}
}

// TestScanMeta: what the scanner takes it reads as encoding/json does;
// what it does not understand it leaves to encoding/json.
func TestScanMeta(t *testing.T) {
	const sess = `"sessions":{"s_00112233445566":{"agent_id":{"tool":"claude","id":"x","model":"M"}}}`
	cases := []struct {
		name, src string
		takes     bool
	}{
		{"the test note", meta, true},
		{"white space around", " \r\n\t" + meta + "\n\n", true},
		{"empty maps", `{"schema_version":"authorship/3.0.0","prompts":{},"sessions":{},"humans":{}}`, true},
		{"no maps", `{}`, true},
		{"unknown fields of every kind", `{"prompts":{},"x":[1,-2.5e+3,true,false,null,"\u00e9\n",{"a":[[]]},[]],"y":{},"z":0}`, true},
		{"non-ASCII kept string", `{"prompts":{},` + strings.Replace(sess, `"M"`, `"modèle"`, 1) + `}`, true},
		{"negative and zero integers", `{"prompts":{"0123456789abcdef":{"total_additions":-0,"total_deletions":0,"accepted_lines":-12}}}`, true},
		{"an escape in a kept string", `{"prompts":{},` + strings.Replace(sess, `"M"`, `"\u001b[31m"`, 1) + `}`, false},
		{"an escaped quote in a kept string", `{"base_commit_sha":"a\"b","prompts":{}}`, false},
		{"an escape in a key", `{"schema\u005fversion":"authorship/3.0.0","prompts":{}}`, false},
		{"a field name in other case", `{"Schema_Version":"authorship/3.0.0","prompts":{}}`, false},
		{"a non-ASCII field name", `{"ſchema_version":"authorship/3.0.0","prompts":{}}`, false},
		{"a duplicate field", `{"base_commit_sha":"a","base_commit_sha":"b","prompts":{}}`, false},
		{"a duplicate map", `{"prompts":{},"prompts":{}}`, false},
		{"a duplicate key", `{"prompts":{},"humans":{"h_1":{"author":"a"},"h_1":{"author":"b"}}}`, false},
		{"null", `{"prompts":null}`, false},
		{"null in a session", `{"prompts":{},"sessions":{"s_1":null}}`, false},
		{"a fraction for an integer", `{"prompts":{"0123456789abcdef":{"total_additions":1.0}}}`, false},
		{"an exponent for an integer", `{"prompts":{"0123456789abcdef":{"total_additions":1e2}}}`, false},
		{"a huge integer", `{"prompts":{"0123456789abcdef":{"total_additions":1234567890123456789012}}}`, false},
		{"a string for an integer", `{"prompts":{"0123456789abcdef":{"total_additions":"1"}}}`, false},
		{"a number for a string", `{"base_commit_sha":1,"prompts":{}}`, false},
		{"a second value", meta + `{}`, false},
		{"a trailing comma", `{"prompts":{},}`, false},
		{"a leading zero", `{"prompts":{},"x":01}`, false},
		{"a bad escape in a skipped string", `{"prompts":{},"x":"\q"}`, false},
		{"a control character", "{\"prompts\":{},\"x\":\"a\tb\"}", false},
		{"invalid UTF-8 in a kept string", "{\"base_commit_sha\":\"\xff\",\"prompts\":{}}", false},
		{"cut short", meta[:len(meta)-1], false},
		{"deep", `{"prompts":{},"x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, false},
		{"not an object", `[]`, false},
		{"empty", ``, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := sameAsJSON(t, c.src); got != c.takes {
				t.Errorf("scanner takes it: %v, want %v", got, c.takes)
			}
		})
	}
}

// FuzzScanMeta holds the scanner to encoding/json on every input: what
// it takes, encoding/json takes, and reads the same.
func FuzzScanMeta(f *testing.F) {
	f.Add(meta)
	f.Add(`{"prompts":{"0123456789abcdef":{"total_additions":-3,"messages_url":"u","x":[1,{"a":null}]}},"Humans":{}}`)
	f.Add(`{"prompts":{},"sessions":{"s_1":{"agent_id":{"tool":"t","id":"i","model":"m","x":"\u0041"},"human_author":"h"}}}`)
	for _, b := range fixtureNotesIfAny() {
		if js, ok := metaOf(b); ok {
			f.Add(js)
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		sameAsJSON(t, src)
	})
}
