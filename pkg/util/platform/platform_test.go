package platform

import "testing"

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestJoin(t *testing.T) {
	tests := []struct {
		goos string
		elem []string
		want string
	}{
		{"linux", []string{"/h", ".local", "share"}, "/h/.local/share"},
		{"darwin", []string{"/Users/a/", "Library", "Application Support"}, "/Users/a/Library/Application Support"},
		{"windows", []string{`C:\Users\a\AppData\Roaming`, "git-convo", "links.sqlite"}, `C:\Users\a\AppData\Roaming\git-convo\links.sqlite`},
		{"windows", []string{"C:/Users/a/", `AppData\Roaming`}, `C:\Users\a\AppData\Roaming`},
		{"windows", []string{`\\server\share\home`, "git-convo"}, `\\server\share\home\git-convo`},
		{"windows", []string{`C:\x\..\y`, "z"}, `C:\y\z`},
	}
	for _, tt := range tests {
		if got := Join(tt.goos, tt.elem...); got != tt.want {
			t.Errorf("Join(%s, %q) = %q, want %q", tt.goos, tt.elem, got, tt.want)
		}
	}
}

func TestIsAbs(t *testing.T) {
	tests := []struct {
		goos, p string
		want    bool
	}{
		{"linux", "/x", true},
		{"linux", "x/y", false},
		{"linux", `C:\x`, false},
		{"windows", `C:\x`, true},
		{"windows", "c:/x", true},
		{"windows", `\\srv\share`, true},
		{"windows", "C:x", false},
		{"windows", `x\y`, false},
		{"windows", "/x", false},
	}
	for _, tt := range tests {
		if got := IsAbs(tt.goos, tt.p); got != tt.want {
			t.Errorf("IsAbs(%s, %q) = %v, want %v", tt.goos, tt.p, got, tt.want)
		}
	}
}

func TestUserDirs(t *testing.T) {
	win := map[string]string{"APPDATA": `C:\Users\a\AppData\Roaming`, "LOCALAPPDATA": `C:\Users\a\AppData\Local`, "USERPROFILE": `C:\Users\a`}
	winNoAppData := map[string]string{"USERPROFILE": `C:\Users\a`}
	mac := map[string]string{"HOME": "/Users/a", "XDG_DATA_HOME": "/ignored", "XDG_CONFIG_HOME": "/ignored"}
	linux := map[string]string{"HOME": "/h"}
	xdg := map[string]string{"HOME": "/h", "XDG_DATA_HOME": "/d", "XDG_CONFIG_HOME": "/c", "XDG_CACHE_HOME": "/k"}
	relXDG := map[string]string{"HOME": "/h", "XDG_DATA_HOME": "d", "XDG_CONFIG_HOME": "c", "XDG_CACHE_HOME": "k"}
	fns := map[string]func(string, func(string) string) (string, bool){"data": DataDir, "config": ConfigDir, "cache": CacheDir}
	tests := []struct {
		fn, goos string
		env      map[string]string
		want     string // "" means no directory can be told
	}{
		{"data", "windows", win, `C:\Users\a\AppData\Roaming`},
		{"config", "windows", win, `C:\Users\a\AppData\Roaming`},
		{"cache", "windows", win, `C:\Users\a\AppData\Local`},
		{"data", "windows", winNoAppData, `C:\Users\a\AppData\Roaming`},
		{"cache", "windows", winNoAppData, `C:\Users\a\AppData\Local`},
		{"data", "windows", map[string]string{"APPDATA": "relative", "USERPROFILE": `D:\u`}, `D:\u\AppData\Roaming`},
		{"data", "windows", map[string]string{}, ""},
		{"data", "darwin", mac, "/Users/a/Library/Application Support"},
		{"config", "darwin", mac, "/Users/a/Library/Application Support"},
		{"cache", "darwin", mac, "/Users/a/Library/Caches"},
		{"data", "darwin", map[string]string{"USERPROFILE": "/u"}, ""},
		{"data", "linux", linux, "/h/.local/share"},
		{"config", "linux", linux, "/h/.config"},
		{"cache", "linux", linux, "/h/.cache"},
		{"data", "linux", xdg, "/d"},
		{"config", "linux", xdg, "/c"},
		{"cache", "linux", xdg, "/k"},
		{"data", "linux", relXDG, "/h/.local/share"},
		{"config", "linux", relXDG, "/h/.config"},
		{"cache", "linux", relXDG, "/h/.cache"},
		{"data", "linux", map[string]string{}, ""},
	}
	for _, tt := range tests {
		got, ok := fns[tt.fn](tt.goos, env(tt.env))
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("%s dir on %s with %v = %q, %v; want %q", tt.fn, tt.goos, tt.env, got, ok, tt.want)
		}
	}
}

func TestHomeAndExeName(t *testing.T) {
	if got := Home("windows", env(map[string]string{"USERPROFILE": `C:\Users\a`})); got != `C:\Users\a` {
		t.Errorf("windows home from USERPROFILE = %q", got)
	}
	if got := Home("linux", env(map[string]string{"USERPROFILE": "/u"})); got != "" {
		t.Errorf("linux home from USERPROFILE = %q, want none", got)
	}
	if got := Home("windows", env(map[string]string{"HOME": "/c/Users/a", "USERPROFILE": `C:\Users\a`})); got != "/c/Users/a" {
		t.Errorf("HOME wins: %q", got)
	}
	for _, tt := range []struct{ goos, in, want string }{
		{"windows", "git-convo-mcp", "git-convo-mcp.exe"},
		{"windows", "git-convo.EXE", "git-convo.EXE"},
		{"linux", "git-convo-mcp", "git-convo-mcp"},
		{"darwin", "git-convo-mcp", "git-convo-mcp"},
	} {
		if got := ExeName(tt.goos, tt.in); got != tt.want {
			t.Errorf("ExeName(%s, %s) = %q, want %q", tt.goos, tt.in, got, tt.want)
		}
	}
}

func TestShellPath(t *testing.T) {
	for _, tt := range []struct{ goos, in, want string }{
		{"windows", `C:\Users\a b\bin\git-convo.exe`, "C:/Users/a b/bin/git-convo.exe"},
		{"windows", "C:/x/git-convo.exe", "C:/x/git-convo.exe"},
		{"linux", `/odd\name/git-convo`, `/odd\name/git-convo`},
	} {
		if got := ShellPath(tt.goos, tt.in); got != tt.want {
			t.Errorf("ShellPath(%s, %q) = %q, want %q", tt.goos, tt.in, got, tt.want)
		}
	}
}
