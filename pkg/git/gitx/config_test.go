package gitx

import (
	"context"
	"reflect"
	"testing"
)

func TestConfigRegexp(t *testing.T) {
	r := newTestRepo(t)
	// Written by hand for what git config cannot set: a repeated key and
	// a key without a value (a boolean true, as git reads it).
	r.write(".git/config", "[core]\n\trepositoryformatversion = 0\n[convo]\n\twindow = 7\n\tthreshold = 0.1\n"+
		"\tthreshold = 0.3\n\tnote = \"two\\nlines\"\n\tflag\n[other]\n\tkey = x\n")
	ctx := context.Background()
	for _, tc := range []struct {
		re   string
		want map[string]string
	}{
		{`^convo\.`, map[string]string{"convo.window": "7", "convo.threshold": "0.3", "convo.note": "two\nlines", "convo.flag": "true"}},
		{`^nothing\.`, map[string]string{}},
	} {
		got, err := ConfigRegexp(ctx, r.dir, tc.re)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q, %v; want %q", tc.re, got, err, tc.want)
		}
	}
	r.write(".git/config", "[broken\n")
	if _, err := ConfigRegexp(ctx, r.dir, `^convo\.`); err == nil {
		t.Error("a broken config file must be an error, not an empty map")
	}
}

func TestConfigTyped(t *testing.T) {
	r := newTestRepo(t)
	r.write(".git/config", "[core]\n\trepositoryformatversion = 0\n[convo]\n\ton = yes\n\toff = 0\n\tbare\n"+
		"\tsize = 2k\n\tbad = maybe\n\tname = some value\n")
	repo := r.open()
	ctx := context.Background()
	for _, tc := range []struct {
		key       string
		str       string
		strOK     bool
		b, bOK    bool
		n         int64
		nOK, bErr bool
		nErr      bool
	}{
		{key: "convo.on", str: "yes", strOK: true, b: true, bOK: true, nErr: true},
		{key: "convo.off", str: "0", strOK: true, b: false, bOK: true, n: 0, nOK: true},
		{key: "convo.bare", str: "", strOK: true, b: true, bOK: true, nErr: true},
		{key: "convo.size", str: "2k", strOK: true, b: true, bOK: true, n: 2048, nOK: true}, // git: a non-zero number is true
		{key: "convo.bad", str: "maybe", strOK: true, bErr: true, nErr: true},
		{key: "convo.name", str: "some value", strOK: true, bErr: true, nErr: true},
		{key: "convo.missing"},
	} {
		t.Run(tc.key, func(t *testing.T) {
			s, ok, err := repo.Config(ctx, tc.key)
			if s != tc.str || ok != tc.strOK || err != nil {
				t.Errorf("Config = %q, %v, %v", s, ok, err)
			}
			b, ok, err := repo.ConfigBool(ctx, tc.key)
			if (err != nil) != tc.bErr || !tc.bErr && (b != tc.b || ok != tc.bOK) {
				t.Errorf("ConfigBool = %v, %v, %v", b, ok, err)
			}
			n, ok, err := repo.ConfigInt(ctx, tc.key)
			if (err != nil) != tc.nErr || !tc.nErr && (n != tc.n || ok != tc.nOK) {
				t.Errorf("ConfigInt = %v, %v, %v", n, ok, err)
			}
		})
	}
}

func TestColorBoolAndPager(t *testing.T) {
	t.Setenv("TERM", "xterm") // whatever terminal runs the tests: TERM=dumb turns color off, as git does
	r := newTestRepo(t)
	repo := r.open()
	ctx := context.Background()
	for _, tc := range []struct {
		name      string
		config    [][2]string
		tty, want bool
	}{
		{"default auto, terminal", nil, true, true},
		{"default auto, pipe", nil, false, false},
		{"color.ui=never", [][2]string{{"color.ui", "never"}}, true, false},
		{"color.convo=always beats color.ui", [][2]string{{"color.ui", "never"}, {"color.convo", "always"}}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.write(".git/config", "[core]\n\trepositoryformatversion = 0\n")
			for _, kv := range tc.config {
				r.git("config", kv[0], kv[1])
			}
			if on, ok := repo.ColorBool(ctx, "color.convo", tc.tty); !ok || on != tc.want {
				t.Errorf("on=%v ok=%v, want %v", on, ok, tc.want)
			}
		})
	}
	r.git("config", "core.pager", "less -R")
	if p, err := repo.Pager(ctx); err != nil || p != "less -R" {
		t.Errorf("core.pager: %q, %v", p, err)
	}
	t.Setenv("GIT_PAGER", "cat")
	if p, err := repo.Pager(ctx); err != nil || p != "cat" {
		t.Errorf("GIT_PAGER: %q, %v", p, err)
	}
}
