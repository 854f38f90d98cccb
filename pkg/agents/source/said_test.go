package source

import "testing"

func TestSaid(t *testing.T) {
	var s Said
	for _, step := range []struct {
		prompt bool
		say    string
		want   string
	}{
		{say: "  I will add x.  ", want: "I will add x."},
		{say: "\n \t", want: "I will add x."}, // blank text changes nothing
		{say: "Now y.", want: "Now y."},
		{prompt: true, want: ""}, // a new turn: the last turn's words are not before its edits
		{say: "z", want: "z"},
	} {
		if step.prompt {
			s.Prompt()
		}
		s.Say(step.say)
		if s.Last() != step.want {
			t.Errorf("after %+v: %q, want %q", step, s.Last(), step.want)
		}
	}
}
