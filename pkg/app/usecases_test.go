package app

import (
	"context"
	"strings"
	"testing"

	"github.com/git-convo/git-convo/pkg/git/gitx"
)

// TestTraceStatusForget: on a real repository and links.sqlite, a manual
// link gives HEAD a trace record; share status counts the notes share on
// wrote; no squash was recognised, so there is no derived link; the spool
// holds nothing to replay; forgetting the conversation deletes its local
// link, and the trace then comes from the note alone (forget is local).
func TestTraceStatusForget(t *testing.T) {
	a, repo, head := testRepo(t)
	ctx := context.Background()
	dir := repo.TopLevel
	s, err := a.OpenStore(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const conv = "0f0e0d0c-1111-4222-8333-444455556666"
	if _, err := a.Link(ctx, s, LinkRequest{Repo: repo, Hash: head, Conversation: conv, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	tr, err := a.Trace(ctx, dir, nil, false)
	if err != nil || tr.Commits != 1 || len(tr.Records) != 1 || tr.Records[0].Hash != head {
		t.Fatalf("Trace of HEAD: %+v %v", tr, err)
	}
	if b, err := tr.Records[0].GitAI(); err != nil || len(b) == 0 {
		t.Errorf("as a git-ai log: %q %v", b, err)
	}
	st, err := a.ShareStatus(ctx, dir)
	if err != nil || st.On || st.Notes != 0 {
		t.Fatalf("status with sharing off: %+v %v", st, err)
	}
	if _, err := a.ShareOn(ctx, dir, ShareOnRequest{}); err != nil {
		t.Fatal(err)
	}
	if st, err = a.ShareStatus(ctx, dir); err != nil || !st.On || st.Notes != 1 || st.Remote != "origin" {
		t.Errorf("status after share on: %+v %v", st, err)
	}
	if h, err := a.SharingHealth(ctx, dir, repo); err != nil || !h.On || h.Notes != 1 || !h.NoRemote {
		t.Errorf("health with no origin: %+v %v", h, err)
	}
	if d, err := a.DerivedLinks(ctx, dir); err != nil || len(d.Links) != 0 || !d.Shared {
		t.Errorf("derived links: %+v %v", d, err)
	}
	if sp, err := a.Spool(); err != nil || sp.Pending != 0 || sp.Aside != 0 {
		t.Errorf("the spool: %+v %v", sp, err)
	}
	if r, err := a.ReplaySpool(ctx); err != nil || r != (Replayed{}) {
		t.Errorf("replaying an empty spool: %+v %v", r, err)
	}
	f, err := a.ForgetConversation(ctx, s, conv)
	if err != nil || f.Links != 1 {
		t.Fatalf("ForgetConversation: %+v %v", f, err)
	}
	if linked, _ := s.ConversationsForCommits(ctx, []string{head}); len(linked[head]) != 0 {
		t.Errorf("a link survived forget: %v", linked)
	}
	if tr, err := a.Trace(ctx, dir, []string{"HEAD"}, false); err != nil || tr.Commits != 1 || len(tr.Records) != 1 {
		t.Errorf("Trace after forget, from the shared note: %+v %v", tr, err)
	}
}

// TestSessionCommits: git-ai's commits of a conversation's session, less
// those the local database links and those shared notes link: what
// conversations counts and list_conversation_commits lists.
func TestSessionCommits(t *testing.T) {
	a, repo, head := testRepo(t)
	ctx := context.Background()
	s, err := a.OpenStore(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const conv = "0f0e0d0c-1111-4222-8333-444455556666"
	if _, err := a.Link(ctx, s, LinkRequest{Repo: repo, Hash: head, Conversation: conv, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	sessions := Sessions{{"claude", conv}: {head, "b2", "c3"}}
	shared := []LinkedConversation{{Link: Link{CommitHash: "b2"}}}
	for _, tc := range []struct {
		name, agent string
		sessions    Sessions
		want        string
	}{
		{"local and shared left out", "claude", sessions, "c3"},
		{"another agent's session", "codex", sessions, ""},
		{"no sessions", "claude", nil, ""},
	} {
		got := strings.Join(a.SessionCommits(ctx, s, tc.sessions, shared, tc.agent, conv), " ")
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestReader: a read's session on a real repository, after a link: the
// commit's links (show), the conversations' list, the links of a log
// batch, and no other tool's writer without their refs (a trailer naming
// no agent is none).
func TestReader(t *testing.T) {
	a, repo, head := testRepo(t)
	ctx := context.Background()
	s, err := a.OpenStore(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	const conv = "0f0e0d0c-1111-4222-8333-444455556666"
	if _, err := a.Link(ctx, s, LinkRequest{Repo: repo, Hash: head, Conversation: conv, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	t.Chdir(repo.TopLevel)
	r := a.OpenReader(ctx, repo, ".", ReaderOptions{InlineNotes: true})
	defer r.Close()
	linked, err := r.CommitLinks(ctx, []string{head})
	if err != nil || len(linked[head]) != 1 || linked[head][0].ConversationID != conv {
		t.Fatalf("CommitLinks: %+v %v", linked, err)
	}
	// A link to a conversation this machine never recorded: no row to list.
	if list, err := r.Conversations(ctx, ConversationFilter{}); err != nil || len(list) != 0 {
		t.Errorf("Conversations: %+v %v", list, err)
	}
	ls := r.Log(ctx, LogSessionOptions{InlineNotes: true})
	if refs, _ := ls.Notes(); len(refs) != 0 {
		t.Errorf("notes refs to print with no note: %v", refs)
	}
	batch := []gitx.Commit{{Hash: head, Subject: "a", Body: "Co-authored-by: nobody"}}
	if linked, err := ls.Links(ctx, batch, []string{head}, false); err != nil || len(linked[head]) != 1 {
		t.Errorf("log's links: %+v %v", linked, err)
	}
	if others := ls.Others(ctx, batch, []string{head}); len(others) != 0 || batch[0].Body != "" {
		t.Errorf("log's other tools: %+v, body %q kept", others, batch[0].Body)
	}
}
