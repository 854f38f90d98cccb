package store

import "testing"

func TestDefaultPath(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		goos string
		want string
	}{
		{"override", map[string]string{"GIT_CONVO_DB": "/x/l.db", "CURSOR_LINKS_DB_PATH": "/y"}, "linux", "/x/l.db"},
		{"seed override", map[string]string{"CURSOR_LINKS_DB_PATH": "/y/l.db", "HOME": "/h"}, "linux", "/y/l.db"},
		{"xdg", map[string]string{"XDG_DATA_HOME": "/d", "HOME": "/h"}, "linux", "/d/git-convo/links.sqlite"},
		{"relative xdg ignored", map[string]string{"XDG_DATA_HOME": "rel", "HOME": "/h"}, "linux", "/h/.local/share/git-convo/links.sqlite"},
		{"mac", map[string]string{"HOME": "/Users/a"}, "darwin", "/Users/a/Library/Application Support/git-convo/links.sqlite"},
		{"windows", map[string]string{"APPDATA": `C:\Users\a\AppData\Roaming`}, "windows", `C:\Users\a\AppData\Roaming\git-convo\links.sqlite`},
		{"windows without APPDATA", map[string]string{"USERPROFILE": `C:\Users\a`}, "windows", `C:\Users\a\AppData\Roaming\git-convo\links.sqlite`},
		{"windows with nothing", map[string]string{}, "windows", ""},
		{"nothing", map[string]string{}, "linux", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DefaultPath(func(k string) string { return tt.env[k] }, tt.goos)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("want an error, got %q", got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestContextDir(t *testing.T) {
	tests := []struct {
		goos string
		env  map[string]string
		want string
	}{
		{"linux", map[string]string{"HOME": "/h"}, "/h/.cache/git-convo/context/conversations"},
		{"linux", map[string]string{"HOME": "/h", "XDG_CACHE_HOME": "/c"}, "/c/git-convo/context/conversations"},
		{"darwin", map[string]string{"HOME": "/Users/a"}, "/Users/a/Library/Caches/git-convo/context/conversations"},
		{"windows", map[string]string{"LOCALAPPDATA": `C:\Users\a\AppData\Local`}, `C:\Users\a\AppData\Local\git-convo\context\conversations`},
		{"windows", map[string]string{"USERPROFILE": `C:\Users\a`}, `C:\Users\a\AppData\Local\git-convo\context\conversations`},
		{"linux", map[string]string{}, ""},
	}
	for _, tt := range tests {
		got, err := contextDirFor(func(k string) string { return tt.env[k] }, tt.goos)
		if (tt.want == "") != (err != nil) || got != tt.want {
			t.Errorf("%s %v: %q, %v; want %q", tt.goos, tt.env, got, err, tt.want)
		}
	}
}
