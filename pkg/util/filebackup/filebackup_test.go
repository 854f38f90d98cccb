package filebackup

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSaveRestore(t *testing.T) {
	tests := []struct {
		name     string
		existing []byte // nil: the file did not exist
		edit     bool   // someone changes the file after the install
		want     string
		wantFile string // "" : the file is gone
	}{
		{"restored byte for byte", []byte("{ \"a\" : 1 }\n"), false, "restored (byte for byte)", "{ \"a\" : 1 }\n"},
		{"created by the install: removed", nil, false, "removed (git-convo had created the file)", ""},
		{"changed since: left to the caller", []byte("{}"), true, "", "edited"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, keep := t.TempDir(), t.TempDir()
			path := filepath.Join(dir, "hooks.json")
			if tt.existing != nil {
				os.WriteFile(path, tt.existing, 0o644)
			}
			written := []byte("{\"a\": 1, \"ours\": true}\n")
			if err := Save(keep, "cursor-hooks", path, tt.existing, written); err != nil {
				t.Fatal(err)
			}
			// A second install over its own output keeps the first original.
			if err := Save(keep, "cursor-hooks", path, written, written); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(path, written, 0o644)
			if tt.edit {
				os.WriteFile(path, []byte("edited"), 0o644)
			}
			cur, _ := os.ReadFile(path)
			got, err := Restore(keep, "cursor-hooks", path, cur)
			if err != nil || got != tt.want {
				t.Fatalf("Restore = %q, %v; want %q", got, err, tt.want)
			}
			b, err := os.ReadFile(path)
			if (tt.wantFile == "") != os.IsNotExist(err) || (tt.wantFile != "" && string(b) != tt.wantFile) {
				t.Errorf("file after Restore: %q %v", b, err)
			}
			if _, ok := Load(keep, "cursor-hooks", path); ok {
				t.Error("the copy was not dropped")
			}
		})
	}
}
