package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
)

// Usage: upsert -api URL -repo owner/name -pr N -report FILE [-mode description|comment] [-where TEXT]
// The token is GITHUB_TOKEN (or GH_TOKEN). It prints one line saying what
// it did, or why it did nothing, and always exits 0.
func main() {
	api := flag.String("api", "https://api.github.com", "the REST API's base URL")
	repo := flag.String("repo", os.Getenv("GITHUB_REPOSITORY"), "owner/name")
	pr := flag.String("pr", "", "the pull request's number")
	report := flag.String("report", "", "the Markdown report's file")
	mode := flag.String("mode", "description", "description or comment")
	where := flag.String("where", "the full report is in the job summary", "where the full report is")
	flag.Parse()
	n, err := strconv.Atoi(*pr)
	if err != nil || *repo == "" || *report == "" {
		fmt.Println("git-convo: nothing written to the pull request: -pr, -repo and -report are needed")
		return
	}
	text, err := os.ReadFile(*report)
	if err != nil {
		fmt.Printf("git-convo: nothing written to the pull request: %v\n", err)
		return
	}
	token := os.Getenv("GITHUB_TOKEN")
	if token == "" {
		token = os.Getenv("GH_TOKEN")
	}
	c := &Client{API: *api, Token: token, Repo: *repo, Number: n}
	var changed bool
	if *mode == "comment" {
		changed, err = c.Comment(string(text), *where)
	} else {
		changed, err = c.Description(string(text), *where)
	}
	switch {
	case err != nil:
		fmt.Println("git-convo: " + Why(err))
	case changed:
		fmt.Printf("git-convo: the report is in the pull request's %s\n", *mode)
	default:
		fmt.Printf("git-convo: the pull request's %s already holds this report\n", *mode)
	}
}
