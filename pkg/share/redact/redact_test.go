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
			if len(tt.gone) > 0 && !strings.Contains(got, MarkPrefix+": ") {
				t.Errorf("Text(%q) = %q: no mark", tt.in, got)
			}
			if again := Text(got); again != got {
				t.Errorf("not idempotent: %q then %q", got, again)
			}
		})
	}
}

// Each mark names its kind; text holding old marks ("[redacted]", notes
// written before kinds) is left as it is.
func TestMarkKinds(t *testing.T) {
	tests := []struct{ in, want string }{
		{"token ghp_abcdefghijklmnopqrstuvwxyz0123456789 here", "token [redacted: github token] here"},
		{"DB_PASSWORD=hunterstaple ./run", "DB_PASSWORD=[redacted: secret] ./run"},
		{`{"password": "hunter2"}`, `{"password": "[redacted: secret]"}`},
		{"https://ada:p@ss/w0rd@example.com/x", "https://ada:[redacted: password in URL]@example.com/x"},
		{"arn:aws:bedrock:us-east-1:493817264055:inference-profile/x", "arn:aws:bedrock:us-east-1:[redacted: aws account id]:inference-profile/x"},
		{"mysql -u root -pSw0rdfish -P3306 shop", "mysql -u root -p[redacted: password] -P3306 shop"},
		{"the password is tr0ub4dor", "the password is [redacted: password]"},
		{"the password is stored in the vault", "the password is stored in the vault"},
		{"Authorization: Bearer opaque7token3", "Authorization: Bearer [redacted: bearer token]"},
		{"old note: password=[redacted] and [redacted] https://u:[redacted]@h", "old note: password=[redacted] and [redacted] https://u:[redacted]@h"},
		{"max_tokens=4096 token_count = 3 author: ada", "max_tokens=4096 token_count = 3 author: ada"},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

func TestPaths(t *testing.T) {
	tests := []struct{ in, root, home, want string }{
		{"edited /work/repo/src/a.go", "/work/repo", "/home/ada", "edited src/a.go"},
		{"see /home/ada/notes.txt", "/work/repo", "/home/ada", "see ~/notes.txt"},
		{"see /home/bob/x and /Users/eve/y and C:\\Users\\joe\\z", "", "", "see ~/x and ~/y and ~\\z"},
		{"plain words", "/r", "/h", "plain words"},
		{"open /Users/Grace Hopper/Projects/x.cob and /Users/eve", "", "", "open ~/Projects/x.cob and ~"},
		{`see C:\Users\Alan Turing\src\e.go`, "", "", `see ~\src\e.go`},
		{"read /root/.ssh/config, cd /root; ls /srv/root /rootfs", "", "", "read ~/.ssh/config, cd ~; ls /srv/root /rootfs"},
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
	f.Add("https://a:p@s/s@h/x DB_PASSWORD='x' mysql -pX; password is 1a /Users/A B/c /root/")
	f.Fuzz(func(t *testing.T, s string) {
		got := Text(s)
		if Text(got) != got {
			t.Fatalf("not idempotent on %q: %q", s, got)
		}
		for _, r := range rules() {
			if r.re.SubexpIndex("s") < 0 && r.re.MatchString(got) {
				t.Fatalf("%s survives in %q (from %q)", r.kind, got, s)
			}
		}
	})
}
