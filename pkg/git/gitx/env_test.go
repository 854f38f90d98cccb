package gitx

import "testing"

func TestGetenv(t *testing.T) {
	get := Getenv([]string{"A=1", "B=x=y", "A=2", "EMPTY=", "NOEQUALS"})
	for k, want := range map[string]string{"A": "2", "B": "x=y", "EMPTY": "", "NOEQUALS": "", "MISSING": ""} {
		if got := get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	t.Setenv("GIT_CONVO_GETENV_TEST", "p")
	if Getenv(nil)("GIT_CONVO_GETENV_TEST") != "p" {
		t.Error("nil environ is not the process's")
	}
	if Getenv([]string{})("GIT_CONVO_GETENV_TEST") != "" {
		t.Error("an empty environ reads the process's")
	}
}
