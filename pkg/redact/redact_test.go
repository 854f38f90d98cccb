package redact

import (
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	tests := []struct {
		name, in   string
		gone, kept []string
	}{
		{"aws access key", "use AKIAIOSFODNN7EXAMPLE for s3", []string{"AKIAIOSFODNN7EXAMPLE"}, []string{"use", "for s3"}},
		{"aws secret (entropy)", "secret is wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY ok", []string{"wJalrXUtnFEMI"}, []string{"ok"}},
		{"github classic", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 here", []string{"ghp_abc"}, []string{"here"}},
		{"github fine-grained", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", []string{"github_pat_"}, nil},
		{"gitlab", "glpat-xxxxxxxxxxxxxxxxxxxx1", []string{"glpat-"}, nil},
		{"slack", "xoxb-1234567890-abcdefghij and https://hooks.slack.com/services/T000/B000/XXXX", []string{"xoxb-", "hooks.slack.com"}, []string{"and"}},
		{"openai", "OPENAI sk-proj-abcdefghijklmnopqrstuvwx", []string{"sk-proj-"}, []string{"OPENAI"}},
		{"anthropic", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz", []string{"sk-ant-"}, nil},
		{"private key", "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----\ndone", []string{"BEGIN", "MIIEow", "abc"}, []string{"done"}},
		{"unterminated private key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA", []string{"b3Blbn"}, nil},
		{"jwt", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", []string{"eyJ"}, []string{"Bearer"}},
		{"password in url", "clone https://ada:hunter2@example.com/repo.git", []string{"hunter2"}, []string{"https://ada:", "@example.com/repo.git"}},
		{"assignment", `set password="correct horse" and api_key: abc`, []string{"correct horse", "abc"}, []string{"password=", "api_key:"}},
		{"random 40", "value Zq8vN3pL0xR7tY2wK9mB4cF6hJ1sD5gA8eU3iO0z end", []string{"Zq8vN3"}, []string{"value", "end"}},
		{"hex secret", "deadbeef0123456789abcdef0123456789abcdef", []string{"deadbeef"}, nil},
		{"ordinary prose", "Add rate limiting to the API and update tests for getUserAccountSettingsHandler", nil, []string{"Add rate limiting to the API and update tests for getUserAccountSettingsHandler"}},
		{"paths and ids", "pkg/cli/conversations_test.go 3f1c9a52-7d0e-4b8e-9a61-2c5d8e4f7a10 v1.2.3", nil, []string{"pkg/cli/conversations_test.go", "3f1c9a52-7d0e-4b8e-9a61-2c5d8e4f7a10", "v1.2.3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Text(tt.in)
			for _, g := range tt.gone {
				if strings.Contains(got, g) {
					t.Errorf("Text(%q) = %q: still holds %q", tt.in, got, g)
				}
			}
			for _, k := range tt.kept {
				if !strings.Contains(got, k) {
					t.Errorf("Text(%q) = %q: lost %q", tt.in, got, k)
				}
			}
			if len(tt.gone) > 0 && !strings.Contains(got, Mark) {
				t.Errorf("Text(%q) = %q: no %s mark", tt.in, got, Mark)
			}
			if again := Text(got); again != got {
				t.Errorf("not idempotent: %q then %q", got, again)
			}
		})
	}
}

func TestPaths(t *testing.T) {
	tests := []struct{ in, root, home, want string }{
		{"edited /work/repo/src/a.go", "/work/repo", "/home/ada", "edited src/a.go"},
		{"see /home/ada/notes.txt", "/work/repo", "/home/ada", "see ~/notes.txt"},
		{"see /home/bob/x and /Users/eve/y and C:\\Users\\joe\\z", "", "", "see ~/x and ~/y and ~\\z"},
		{"plain words", "/r", "/h", "plain words"},
	}
	for _, tt := range tests {
		if got := Paths(tt.in, tt.root, tt.home); got != tt.want {
			t.Errorf("Paths(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzText(f *testing.F) {
	f.Add("AKIAIOSFODNN7EXAMPLE https://u:p@h/ -----BEGIN PRIVATE KEY-----")
	f.Add("password = x; token: 'y'")
	f.Fuzz(func(t *testing.T, s string) {
		got := Text(s)
		if Text(got) != got {
			t.Fatalf("not idempotent on %q: %q", s, got)
		}
		for _, r := range rules() {
			if r.keep == 0 && r.re.MatchString(got) {
				t.Fatalf("%s survives in %q (from %q)", r.name, got, s)
			}
		}
	})
}
