// Package jsonobj is a JSON object that keeps its keys' order, so that tools
// merging into another program's settings file (Cursor's hooks.json, Claude
// Code's settings.json) neither reorder nor drop what others wrote; and such
// a file, read and written back only when it changes (file.go).
package jsonobj

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// Object is an ordered JSON object; values stay raw.
type Object struct {
	keys []string
	vals map[string]json.RawMessage
}

// New returns an empty object.
func New() *Object { return &Object{vals: map[string]json.RawMessage{}} }

// Parse reads one JSON object; anything else, or trailing data, is an error.
func Parse(b []byte) (*Object, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("the top level is not a JSON object")
	}
	o := New()
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if _, dup := o.vals[key]; !dup {
			o.keys = append(o.keys, key)
		}
		o.vals[key] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON object")
	}
	return o, nil
}

// Keys returns the keys in order.
func (o *Object) Keys() []string { return append([]string(nil), o.keys...) }

// Get returns a key's raw value.
func (o *Object) Get(key string) (json.RawMessage, bool) {
	v, ok := o.vals[key]
	return v, ok
}

// Set replaces a key's value in place, or appends the key.
func (o *Object) Set(key string, v json.RawMessage) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

// SetFirst sets a key, putting it first when it is new.
func (o *Object) SetFirst(key string, v json.RawMessage) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append([]string{key}, o.keys...)
	}
	o.vals[key] = v
}

// Del removes a key.
func (o *Object) Del(key string) {
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// Len is the number of keys.
func (o *Object) Len() int { return len(o.keys) }

// OnlyKeys reports whether o has no key but the given ones.
func (o *Object) OnlyKeys(keys ...string) bool {
	for _, k := range o.keys {
		found := false
		for _, want := range keys {
			found = found || k == want
		}
		if !found {
			return false
		}
	}
	return true
}

// Marshal returns the object as compact JSON, keys in order.
func (o *Object) Marshal() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(o.vals[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}

// Indent returns the object indented by two spaces, with a final newline,
// the way editors and settings files usually hold JSON.
func (o *Object) Indent() []byte {
	var out bytes.Buffer
	if err := json.Indent(&out, o.Marshal(), "", "  "); err != nil {
		return append(o.Marshal(), '\n') // raw values came from a parser: unreachable
	}
	out.WriteByte('\n')
	return out.Bytes()
}

// SameJSON reports whether a and b hold the same JSON value, whatever the
// formatting and key order.
func SameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}
