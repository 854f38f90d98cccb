// Package prototypetest is for tests: it writes a links.sqlite as the Node
// prototype of seed 000 (cursor-chat-history-mcp) did, with its exact
// schema, user_version 0 and sample rows in its formats (ISO timestamps,
// JSON file lists).
package prototypetest

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	_ "github.com/mattn/go-sqlite3" // the SQLite driver

	"github.com/git-convo/git-convo/pkg/util/sqliteuri"
)

// DDL is the prototype's schema: seed 000's three tables, their
// constraints and indexes, as its createTables ran it.
const DDL = `
CREATE TABLE IF NOT EXISTS conversations (
  conversationId TEXT PRIMARY KEY,
  workspaceRoot TEXT NOT NULL,
  projectName TEXT NOT NULL,
  title TEXT,
  summary TEXT,
  aiSummary TEXT,
  relevantFiles TEXT NOT NULL DEFAULT '[]',
  attachedFolders TEXT NOT NULL DEFAULT '[]',
  capturedFiles TEXT NOT NULL DEFAULT '[]',
  searchableText TEXT,
  createdAt TEXT NOT NULL,
  updatedAt TEXT NOT NULL,
  lastHookEvent TEXT
);

CREATE TABLE IF NOT EXISTS commits (
  commitHash TEXT PRIMARY KEY,
  repoPath TEXT NOT NULL,
  branch TEXT NOT NULL,
  author TEXT NOT NULL,
  message TEXT NOT NULL,
  committedAt TEXT NOT NULL,
  changedFiles TEXT NOT NULL DEFAULT '[]',
  createdAt TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS links (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  conversationId TEXT NOT NULL,
  commitHash TEXT NOT NULL,
  matchedFiles TEXT NOT NULL DEFAULT '[]',
  confidence REAL NOT NULL,
  status TEXT NOT NULL CHECK(status IN ('auto', 'manual')),
  createdAt TEXT NOT NULL,
  FOREIGN KEY (conversationId) REFERENCES conversations(conversationId),
  FOREIGN KEY (commitHash) REFERENCES commits(commitHash),
  UNIQUE(conversationId, commitHash)
);

CREATE INDEX IF NOT EXISTS idx_conversations_workspace ON conversations(workspaceRoot);
CREATE INDEX IF NOT EXISTS idx_conversations_project ON conversations(projectName);
CREATE INDEX IF NOT EXISTS idx_commits_repo ON commits(repoPath);
CREATE INDEX IF NOT EXISTS idx_commits_date ON commits(committedAt);
CREATE INDEX IF NOT EXISTS idx_links_conversation ON links(conversationId);
CREATE INDEX IF NOT EXISTS idx_links_commit ON links(commitHash);
`

// Conversation, Commit and Link are rows as the prototype stored them.
type Conversation struct {
	ID, WorkspaceRoot, ProjectName, Title, AISummary, SearchableText, LastHookEvent string
	RelevantFiles, CapturedFiles                                                    []string
	CreatedAt, UpdatedAt                                                            time.Time
}

type Commit struct {
	Hash, RepoPath, Branch, Author, Message string
	CommittedAt                             time.Time
	ChangedFiles                            []string
}

type Link struct {
	ConversationID, CommitHash string
	MatchedFiles               []string
	Confidence                 float64
	Status                     string
}

// Rows is a prototype database's content.
type Rows struct {
	Conversations []Conversation
	Commits       []Commit
	Links         []Link
}

// Sample is seed 000's example: a conversation "Add JWT authentication"
// whose afterFileEdit hooks captured two files of repo, the commit hash
// that changed them, auto-linked at 0.92, and a second conversation linked
// to it by hand (manual, 1.0) that the prototype never saw a hook for.
func Sample(repo, hash string, at time.Time) Rows {
	return Rows{
		Conversations: []Conversation{{
			ID: "3f1c9a52-7d0e-4b8e-9a61-2c5d8e4f7a10", WorkspaceRoot: repo, ProjectName: filepath.Base(repo),
			Title: "Add JWT authentication", AISummary: "Implemented token-based auth with refresh tokens.",
			SearchableText: "Add JWT authentication Implemented token-based auth with refresh tokens. implement JWT for the API",
			RelevantFiles:  []string{"src/auth.ts"}, CapturedFiles: []string{"src/auth.ts", "src/middleware.ts"},
			CreatedAt: at.Add(-2 * time.Hour), UpdatedAt: at.Add(-10 * time.Minute), LastHookEvent: "stop",
		}, {
			ID: "conv-123", WorkspaceRoot: repo, ProjectName: filepath.Base(repo), Title: "Review the auth flow",
			RelevantFiles: []string{}, CapturedFiles: []string{},
			CreatedAt: at.Add(-26 * time.Hour), UpdatedAt: at.Add(-25 * time.Hour), LastHookEvent: "afterFileEdit",
		}},
		Commits: []Commit{{Hash: hash, RepoPath: repo, Branch: "main", Author: "Ada Tester <ada@example.com>",
			Message: "auth: add JWT", CommittedAt: at, ChangedFiles: []string{"src/auth.ts", "src/middleware.ts"}}},
		Links: []Link{
			{ConversationID: "3f1c9a52-7d0e-4b8e-9a61-2c5d8e4f7a10", CommitHash: hash, MatchedFiles: []string{"src/auth.ts", "src/middleware.ts"}, Confidence: 0.92, Status: "auto"},
			{ConversationID: "conv-123", CommitHash: hash, MatchedFiles: []string{}, Confidence: 1, Status: "manual"},
		},
	}
}

func iso(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") } // JavaScript's toISOString

func list(ss []string) string {
	if ss == nil {
		ss = []string{}
	}
	b, _ := json.Marshal(ss)
	return string(b)
}

// Write creates the prototype's database at path (user_version 0, as the
// prototype left it) with rows.
func Write(path string, r Rows) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	db, err := sql.Open("sqlite3", sqliteuri.File(path, nil))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(DDL); err != nil {
		return err
	}
	created := iso(time.Now())
	for _, c := range r.Conversations {
		if _, err := db.Exec(`INSERT INTO conversations (conversationId, workspaceRoot, projectName, title, summary, aiSummary,
  relevantFiles, attachedFolders, capturedFiles, searchableText, createdAt, updatedAt, lastHookEvent)
  VALUES (?, ?, ?, ?, NULL, NULLIF(?, ''), ?, '[]', ?, NULLIF(?, ''), ?, ?, NULLIF(?, ''))`,
			c.ID, c.WorkspaceRoot, c.ProjectName, c.Title, c.AISummary, list(c.RelevantFiles), list(c.CapturedFiles),
			c.SearchableText, iso(c.CreatedAt), iso(c.UpdatedAt), c.LastHookEvent); err != nil {
			return err
		}
	}
	for _, c := range r.Commits {
		if _, err := db.Exec(`INSERT INTO commits (commitHash, repoPath, branch, author, message, committedAt, changedFiles, createdAt)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, c.Hash, c.RepoPath, c.Branch, c.Author, c.Message,
			c.CommittedAt.Format(time.RFC3339), list(c.ChangedFiles), created); err != nil {
			return err
		}
	}
	for _, l := range r.Links {
		if _, err := db.Exec(`INSERT INTO links (conversationId, commitHash, matchedFiles, confidence, status, createdAt)
  VALUES (?, ?, ?, ?, ?, ?)`, l.ConversationID, l.CommitHash, list(l.MatchedFiles), l.Confidence, l.Status, created); err != nil {
			return err
		}
	}
	return nil
}
