package source

import (
	"encoding/json"
	"testing"
)

func TestCaptureEntry(t *testing.T) {
	for entry, want := range map[string]bool{
		`{"command":"/usr/local/bin/git-convo capture --event stop","timeout":5}`:      true,
		`{"type":"command","command":"'/Users/a b/git-convo' capture --agent claude"}`: true,
		`{"command":"git convo capture --event stop"}`:                                 true,
		`{"command":"git-convo doctor"}`:                                               false,
		`{"command":"other-tool capture"}`:                                             false,
		`{"command":7}`:                                                                false,
		`["git-convo capture"]`:                                                        false,
		`not json`:                                                                     false,
	} {
		c, ok := CaptureEntry(json.RawMessage(entry))
		if ok != want {
			t.Errorf("CaptureEntry(%s) = %q, %v; want %v", entry, c, ok, want)
		}
	}
	if c, _ := CaptureEntry(json.RawMessage(`{"command":"git-convo capture --agent claude"}`)); c != "git-convo capture --agent claude" {
		t.Errorf("command %q", c)
	}
}
