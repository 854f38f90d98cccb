package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-convo/git-convo/pkg/claude"
	"github.com/git-convo/git-convo/pkg/cursor"
	"github.com/git-convo/git-convo/pkg/gitx"
	"github.com/git-convo/git-convo/pkg/ingest"
	"github.com/git-convo/git-convo/pkg/spool"
	"github.com/git-convo/git-convo/pkg/store"
	"github.com/git-convo/git-convo/pkg/term"
)

// maxPayload bounds what capture reads from stdin: a hook payload is small,
// and a runaway writer must not exhaust memory inside Cursor's hook.
const maxPayload = 64 << 20

func captureCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "capture",
		Usage:     "record one Cursor agent hook event (JSON on stdin); Cursor runs this",
		UsageText: "git convo capture [--event <name>] [--agent claude] < payload.json",
		Description: `Reads one Cursor hook payload from standard input and records the conversation:
its workspace roots and model, the user's prompts, the files it edited, the
agent's final responses and a git commit the agent ran in its terminal
(afterShellExecution). On "stop" it also reads the conversation's title and
summary from Cursor's state.vscdb (read-only) and re-links recent commits.

It always exits 0 and prints Cursor's reply ({} or {"continue":true}), so a
problem in git-convo can never block the agent. Problems go to stderr as one
line and to the log that "git convo doctor" shows.

With --agent claude it reads Claude Code's hook payloads instead (prompts, the lines
Edit, Write, MultiEdit and NotebookEdit added, a git commit run through Bash, and the
session's transcript at Stop and SessionEnd). It prints nothing on stdout, which Claude
Code would add to the model's context, and always exits 0.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "event", Usage: "the hook event, overriding the payload's hook_event_name"},
			&cli.StringFlag{Name: "agent", Value: "cursor", Usage: "which agent's hooks called this: cursor, or claude (Claude Code's settings.json: silent on stdout)"},
		},
		Action: func(c *cli.Context) error {
			if c.String("agent") == claude.Name {
				runAgentCapture(c.Context, env, claudeSource(env), c.String("event"))
				return nil
			}
			runCapture(c.Context, env, c.String("event"), c.String("agent"))
			drainAfterReply(c.Context, env)
			return nil
		},
	}
}

// runCapture never fails: Cursor must always get its reply.
func runCapture(ctx context.Context, env *Env, eventFlag, agent string) {
	event := eventFlag
	defer func() { fmt.Fprintln(env.Stdout, cursor.HookReply(event)) }()
	log := env.log()
	data, a, ok := parseHookPayload(env, log, cursorSource(env), eventFlag)
	if !ok {
		return
	}
	event = a.Event
	if a.ConversationID == "" {
		captureFailed(env, log, "%s payload has no conversation_id; nothing recorded", orUnknown(event))
		return
	}
	atMs := env.Now().UnixMilli()
	s, err := env.openStoreWith(ctx, store.Options{BusyTimeout: hookBusyTimeout})
	if err != nil {
		keep(env, data, event, agent, atMs, err)
		return
	}
	defer s.Close()
	drainSpool(ctx, env, s)
	w := env.writer(ctx, s)
	if err := w.RecordCursor(ctx, a, atMs); err != nil {
		keep(env, data, event, agent, atMs, err)
		return
	}
	if a.EndsTurn {
		// Enrich now, and again shortly in the background: Cursor may not
		// have flushed the conversation's last rows when stop fires.
		if err := w.EnrichCursorAndRelink(ctx, a.ConversationID); err != nil {
			log.Printf("capture", "enriching %s: %v (will retry)", a.ConversationID, err)
		}
		if env.Getenv("GIT_CONVO_SYNC") != "1" {
			if err := spawnDetached(env.Executable, []string{"enrich", "--delay=10s", a.ConversationID}); err != nil {
				log.Printf("capture", "starting the background enrichment: %v", err)
			}
		}
	}
}

// drainAfterReply records the commits the git hooks queued once Cursor has
// its reply: in a detached process, so the agent never waits for it
// (GIT_CONVO_SYNC=1: here and now).
func drainAfterReply(ctx context.Context, env *Env) {
	if !env.queuePending() {
		return
	}
	if env.Getenv("GIT_CONVO_SYNC") == "1" {
		drainQueue(ctx, env, nil, backgroundDrainWait)
		return
	}
	if err := spawnDetached(env.Executable, []string{"record", "--hook=drain"}); err != nil {
		env.log().Printf("capture", "starting the queued commits' recorder: %v", err)
	}
}

// hookBusyTimeout bounds how long a hook waits for links.sqlite: Cursor gives
// a hook a few seconds; past this the event is spooled, not lost.
const hookBusyTimeout = 2 * time.Second

// spoolEntry keeps a hook's work that the database could not take.
func spoolEntry(env *Env, e ingest.Spooled, cause error) error {
	dbPath, err := env.dbPath()
	if err == nil {
		b, _ := json.Marshal(e)
		err = spool.Put(spool.Dir(dbPath), b, env.Now())
	}
	if err != nil {
		return fmt.Errorf("links database unavailable (%v) and the spool too (%v)", cause, err)
	}
	return fmt.Errorf("links database unavailable (%v): kept in the spool for the next hook", cause)
}

// keep spools an event that could not be recorded, so it is not lost.
func keep(env *Env, payload []byte, event, agent string, atMs int64, cause error) {
	msg := fmt.Sprintf("links database unavailable (%v): the %s event is kept in the spool and recorded by the next hook that can write", cause, orUnknown(event))
	dbPath, err := env.dbPath()
	if err == nil {
		b, _ := json.Marshal(ingest.Spooled{Event: event, Agent: agent, AtMs: atMs, Payload: json.RawMessage(payload)})
		err = spool.Put(spool.Dir(dbPath), b, env.Now())
	}
	if err != nil {
		msg = fmt.Sprintf("links database unavailable (%v) and the spool too (%v): the %s event is lost", cause, err, orUnknown(event))
	}
	fmt.Fprintf(env.Stderr, "git-convo capture: %s\n", term.Line(msg))
	env.log().Printf("capture", "%s", msg)
}

// drainSpool records the events spooled while the database was unavailable,
// oldest first, each at the time it arrived.
func drainSpool(ctx context.Context, env *Env, s *store.Store) {
	dbPath, err := env.dbPath()
	if err != nil {
		return
	}
	w := env.writer(ctx, s)
	res, err := spool.Drain(spool.Dir(dbPath), 500, func(b []byte) error {
		var e ingest.Spooled
		if json.Unmarshal(b, &e) != nil {
			return errors.New("not a spooled event") // set aside, never blocking the spool
		}
		return w.Replay(ctx, e, func(repo *gitx.Repo) *ingest.Recorder { return recorderFor(ctx, env, repo, s) })
	}, store.IsTransient)
	for _, why := range res.SetAside {
		env.log().Printf("capture", "spooled event set aside, it cannot be replayed: %s (git convo doctor --replay-spool retries it)", why)
	}
	if res.Replayed > 0 || err != nil {
		env.log().Printf("capture", "replayed %d spooled events (%v)", res.Replayed, err)
	}
}

func orUnknown(event string) string {
	if event == "" {
		return "an unnamed"
	}
	return event
}
