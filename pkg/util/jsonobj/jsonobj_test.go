package jsonobj

import (
	"encoding/json"
	"testing"
)

func TestParseKeepsOrderAndValues(t *testing.T) {
	tests := []struct {
		in, out string
	}{
		{`{}`, `{}`},
		{`{"z":1,"a":{"y":[1,2],"b":null},"m":"s"}`, `{"z":1,"a":{"y":[1,2],"b":null},"m":"s"}`},
		{` { "b" : true , "a" : 1.50 } `, `{"b":true,"a":1.50}`},
		{`{"a":1,"a":2}`, `{"a":2}`}, // a duplicate key: the last value, the first position
	}
	for _, tt := range tests {
		o, err := Parse([]byte(tt.in))
		if err != nil {
			t.Fatalf("%s: %v", tt.in, err)
		}
		if got := string(o.Marshal()); got != tt.out {
			t.Errorf("%s → %s, want %s", tt.in, got, tt.out)
		}
	}
	for _, bad := range []string{``, `[]`, `"x"`, `{"a":1} {}`, `{"a":}`, `{"a":1`} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestEdit(t *testing.T) {
	o, _ := Parse([]byte(`{"b":1,"c":2}`))
	o.Set("b", json.RawMessage(`3`))
	o.Set("d", json.RawMessage(`4`))
	o.SetFirst("a", json.RawMessage(`0`))
	o.Del("c")
	o.Del("missing")
	if got := string(o.Marshal()); got != `{"a":0,"b":3,"d":4}` {
		t.Errorf("got %s", got)
	}
	if v, ok := o.Get("d"); !ok || string(v) != "4" || o.Len() != 3 {
		t.Errorf("Get/Len: %s %v %d", v, ok, o.Len())
	}
	if !o.OnlyKeys("a", "b", "d", "e") || o.OnlyKeys("a", "b") {
		t.Error("OnlyKeys")
	}
	if got := string(o.Indent()); got != "{\n  \"a\": 0,\n  \"b\": 3,\n  \"d\": 4\n}\n" {
		t.Errorf("Indent: %q", got)
	}
}

func TestSameJSON(t *testing.T) {
	if !SameJSON([]byte(`{"a":1,"b":[1]}`), []byte("{\n\t\"b\": [1],\n\t\"a\": 1\n}")) {
		t.Error("formatting and key order must not matter")
	}
	if SameJSON([]byte(`{"a":1}`), []byte(`{"a":2}`)) || SameJSON([]byte(`{`), []byte(`{`)) {
		t.Error("different or invalid JSON reported the same")
	}
}
