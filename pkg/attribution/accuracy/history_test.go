package accuracy

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os/exec"
	"strings"
	"time"
)

// people are the authors of the background history.
var people = []string{"Grace Hopper <grace@example.com>", "Ken Thompson <ken@example.com>", "Barbara Liskov <barbara@example.com>"}

// goFunc is a function in the shape most Go code has: its name line is its
// only unique line; braces, `return nil`, `return err` and error checks repeat
// across the whole repository.
func goFunc(name string, variant int) []string {
	switch variant % 3 {
	case 0:
		return []string{
			"func " + name + "(x int) error {",
			"\tif x < 0 {",
			"\t\treturn fmt.Errorf(\"" + name + ": %d\", x)",
			"\t}",
			"\treturn nil",
			"}",
		}
	case 1:
		return []string{
			"func (s *Server) " + name + "(ctx context.Context) error {",
			"\tif err := s.check(ctx); err != nil {",
			"\t\treturn err",
			"\t}",
			"\ts.mu.Lock()",
			"\tdefer s.mu.Unlock()",
			"\treturn nil",
			"}",
		}
	default:
		return []string{
			"func " + name + "(items []string) []string {",
			"\tvar out []string",
			"\tfor _, it := range items {",
			"\t\tif it == \"\" {",
			"\t\t\tcontinue",
			"\t\t}",
			"\t\tout = append(out, it)",
			"\t}",
			"\treturn out",
			"}",
		}
	}
}

// block is a function with the blank line that separates it from the one
// above: what a person or an agent adds to a Go file.
func block(name string, variant int) []string {
	return append([]string{""}, goFunc(name, variant)...)
}

func fileHeader(pkg string) []string {
	return []string{"package " + pkg, "", "import (", "\t\"context\"", "\t\"fmt\"", ")"}
}

// funcEnds are the indexes of the lines that close a top-level function
// ("}" followed by a blank line or the end): where a whole function can be
// inserted without splitting another.
func funcEnds(ls []string) []int {
	var out []int
	for i, l := range ls {
		if l == "}" && (i+1 == len(ls) || ls[i+1] == "") {
			out = append(out, i)
		}
	}
	return out
}

// history is the generated background: every commit a person's, dated
// months before any conversation. files is the tree at its tip.
type history struct {
	files map[string][]string
}

// genHistory writes n commits over nfiles Go files (seeded: the same sizes
// give the same history) as a git fast-import stream to out.
func genHistory(n, nfiles int, end time.Time, out io.Writer) (*history, error) {
	rng := rand.New(rand.NewPCG(22, uint64(n)))
	h := &history{files: map[string][]string{}}
	s := bufio.NewWriterSize(out, 1<<20)
	var paths []string
	for i := range nfiles {
		p := fmt.Sprintf("pkg%02d/file%02d.go", i%10, i)
		paths = append(paths, p)
	}
	start := end.Add(-time.Duration(n) * 3 * time.Hour)
	fn := 0
	for c := 1; c <= n; c++ {
		var changed []string
		var msg string
		if c == 1 {
			for _, p := range paths {
				pkg := strings.TrimSuffix(strings.Split(p, "/")[0], "/")
				fn++
				h.files[p] = append(fileHeader(pkg), block(fmt.Sprintf("setup%d", fn), fn)...)
			}
			changed, msg = paths, "bg: initial import"
		} else {
			p := paths[rng.IntN(len(paths))]
			ls := h.files[p]
			switch op := rng.IntN(10); {
			case op < 6:
				fn++
				name := fmt.Sprintf("helper%d", fn)
				ends := funcEnds(ls)
				at := ends[rng.IntN(len(ends))] + 1
				ls = append(ls[:at:at], append(block(name, fn), ls[at:]...)...)
				msg = fmt.Sprintf("bg: %s: add %s", p, name)
				if len(ls) > 400 {
					// A big file loses its oldest function in the same
					// commit: files stay real-sized at any history length.
					ends = funcEnds(ls)
					ls = append(ls[:ends[0]+1:ends[0]+1], ls[ends[1]+1:]...)
					msg += " (replaces an old one)"
				}
			default:
				// A person's small edit of a body line.
				for {
					i := rng.IntN(len(ls))
					if strings.HasPrefix(ls[i], "\t") && !strings.HasPrefix(ls[i], "\t\"") {
						ls = append([]string{}, ls...)
						ls[i] += fmt.Sprintf(" // rev %d", c)
						break
					}
				}
				msg = fmt.Sprintf("bg: %s: tweak (%d)", p, c)
			}
			h.files[p] = ls
			changed = []string{p}
		}
		who := people[c%len(people)]
		when := start.Add(time.Duration(c) * 3 * time.Hour).Unix()
		fmt.Fprintf(s, "commit refs/heads/main\nmark :%d\nauthor %s %d +0000\ncommitter %s %d +0000\ndata %d\n%s\n", c, who, when, who, when, len(msg), msg)
		if c > 1 {
			fmt.Fprintf(s, "from :%d\n", c-1)
		}
		for _, p := range changed {
			body := strings.Join(h.files[p], "\n") + "\n"
			fmt.Fprintf(s, "M 100644 inline %s\ndata %d\n%s\n", p, len(body), body)
		}
	}
	s.WriteString("done\n")
	return h, s.Flush()
}

// importHistory generates the history straight into git fast-import (a
// pipe: a big history is never held whole) in a new bare repository.
func importHistory(u *user, bare string, n, nfiles int, end time.Time) (*history, error) {
	u.git("", "init", "-q", "--bare", bare)
	cmd := exec.Command("git", "fast-import", "--quiet", "--done")
	var errb bytes.Buffer
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = bare, u.env, &errb, &errb
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	h, genErr := genHistory(n, nfiles, end, in)
	in.Close()
	if err := cmd.Wait(); err != nil || genErr != nil {
		return nil, fmt.Errorf("git fast-import: %v %v\n%s", err, genErr, errb.String())
	}
	return h, nil
}
