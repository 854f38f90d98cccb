// Package platform knows where each operating system keeps a user's files and
// how it spells paths. Every function takes the OS name (runtime.GOOS in
// production) and the environment, so the macOS and Windows rules are tested
// on Linux like the Linux ones. What needs the OS itself (system calls) lives
// in build-tagged files of the packages that make them.
package platform

import (
	"path"
	"strings"
)

// Join joins path elements with goos's separator, whatever the host's: on
// Windows C:\Users\a and AppData\Roaming give C:\Users\a\AppData\Roaming.
func Join(goos string, elem ...string) string {
	if goos != "windows" {
		return path.Join(elem...)
	}
	unc := len(elem) > 0 && (strings.HasPrefix(elem[0], `\\`) || strings.HasPrefix(elem[0], "//"))
	slashed := make([]string, len(elem))
	for i, e := range elem {
		slashed[i] = strings.ReplaceAll(e, `\`, "/")
	}
	p := strings.ReplaceAll(path.Join(slashed...), "/", `\`)
	if unc { // path.Join would fold \\server\share into \server\share
		p = `\` + p
	}
	return p
}

// IsAbs reports whether p is absolute on goos: /x on Unix; C:\x, C:/x or
// \\server\share on Windows.
func IsAbs(goos, p string) bool {
	if goos != "windows" {
		return strings.HasPrefix(p, "/")
	}
	if strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//") {
		return true
	}
	return len(p) >= 3 && isLetter(p[0]) && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

func isLetter(b byte) bool { return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') }

// Home is the user's home directory: HOME, or on Windows USERPROFILE (HOME is
// set in Git for Windows' shell but not for programs an IDE starts).
func Home(goos string, getenv func(string) string) string {
	if h := getenv("HOME"); h != "" {
		return h
	}
	if goos == "windows" {
		return getenv("USERPROFILE")
	}
	return ""
}

// userDir is the base of a per-user directory: envVar when it holds an
// absolute path, else the platform's default under the home directory.
func userDir(goos string, getenv func(string) string, envVar string, fallback ...string) (string, bool) {
	if d := getenv(envVar); d != "" && IsAbs(goos, d) {
		return d, true
	}
	home := Home(goos, getenv)
	if home == "" {
		return "", false
	}
	return Join(goos, append([]string{home}, fallback...)...), true
}

// DataDir is where an application keeps a user's data: %APPDATA% (roaming) on
// Windows, ~/Library/Application Support on macOS, $XDG_DATA_HOME or
// ~/.local/share elsewhere. ok is false when no home directory is known.
func DataDir(goos string, getenv func(string) string) (dir string, ok bool) {
	switch goos {
	case "windows":
		return userDir(goos, getenv, "APPDATA", "AppData", "Roaming")
	case "darwin":
		return userDir(goos, getenv, "", "Library", "Application Support")
	}
	return userDir(goos, getenv, "XDG_DATA_HOME", ".local", "share")
}

// ConfigDir is where Electron applications such as Cursor keep a user's
// settings and state: %APPDATA% on Windows, ~/Library/Application Support on
// macOS, $XDG_CONFIG_HOME or ~/.config elsewhere.
func ConfigDir(goos string, getenv func(string) string) (dir string, ok bool) {
	if goos == "windows" || goos == "darwin" {
		return DataDir(goos, getenv)
	}
	return userDir(goos, getenv, "XDG_CONFIG_HOME", ".config")
}

// CacheDir is where files that can be rebuilt go: %LOCALAPPDATA% on Windows,
// ~/Library/Caches on macOS, $XDG_CACHE_HOME or ~/.cache elsewhere.
func CacheDir(goos string, getenv func(string) string) (dir string, ok bool) {
	switch goos {
	case "windows":
		return userDir(goos, getenv, "LOCALAPPDATA", "AppData", "Local")
	case "darwin":
		return userDir(goos, getenv, "", "Library", "Caches")
	}
	return userDir(goos, getenv, "XDG_CACHE_HOME", ".cache")
}

// ExeName is the file name of the program name on goos (git-convo-mcp.exe on
// Windows).
func ExeName(goos, name string) string {
	if goos == "windows" && !strings.HasSuffix(strings.ToLower(name), ".exe") {
		return name + ".exe"
	}
	return name
}

// ShellPath spells p for a POSIX shell script on goos: Git for Windows' sh
// runs the hooks, and C:/x/git-convo.exe works there and in every Windows
// API, while backslashes are escapes to a shell.
func ShellPath(goos, p string) string {
	if goos == "windows" {
		return strings.ReplaceAll(p, `\`, "/")
	}
	return p
}
