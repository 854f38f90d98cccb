package source

import "testing"

func TestShellCommit(t *testing.T) {
	tests := []struct {
		name, command, output, want string
	}{
		{"commit", `git commit -m "x"`, "[main 3ecb434] x\n 1 file changed, 1 insertion(+)\n", "3ecb434"},
		{"terminal CRLF", "git add -A && git commit -m x", "warning: LF will be replaced\r\n[main 3ecb434] x\r\n 1 file changed\r\n", "3ecb434"},
		{"root commit, branch with slash", "git -C sub commit -am x", "[feat/a-b (root-commit) 0123abcd] x", "0123abcd"},
		{"detached HEAD", "git commit --amend --no-edit", "[detached HEAD 89abcdef] x", "89abcdef"},
		{"after options", "git -c user.name=A --no-pager commit -m x", "[main 0123abc] x", "0123abc"},
		{"nothing to commit", "git commit -m x", "On branch main\nnothing to commit, working tree clean\n", ""},
		{"hook refused", "git commit -m x", "pre-commit: lint failed\n", ""},
		{"not a commit command", "git log --oneline", "[main 3ecb434] x", ""},
		{"commit in a word", `echo "git commitment"`, "[main 3ecb434] x", ""},
		{"terminal escapes", "git commit -m x", "\x1b]633;C\x07\x1b[0m[main 3ecb434] x\r\n\x1b]633;D;0\x1b\\", "3ecb434"},
		{"summary not at line start", "git commit -m x", "see [main 3ecb434] x", ""},
	}
	for _, tt := range tests {
		if got := ShellCommit(tt.command, tt.output); got != tt.want {
			t.Errorf("%s: ShellCommit = %q, want %q", tt.name, got, tt.want)
		}
	}
}
