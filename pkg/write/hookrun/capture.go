package hookrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/git-convo/git-convo/pkg/agents/source"
	"github.com/git-convo/git-convo/pkg/write/ingest"
)

// maxPayload bounds what capture reads from stdin: a hook payload is small,
// and a runaway writer must not exhaust memory inside the agent's hook.
const maxPayload = 64 << 20

// memoryLimit is the soft memory limit capture runs under: the GC then
// collects a huge payload's transient copies (raw JSON, decoded fields,
// SQLite's bound values) early, so the peak stays near what the payload's
// size requires.
const memoryLimit = 128 << 20

// Capture records one hook event of src, read from stdin, or spools it when
// it falls inside the agent's turn (see capture); event is the
// name the hook command gave (capture --event), if any. It then replies on
// stdout as src's hooks expect (source.HookReplier; a payload of another
// program's gets the neutral {}), and once the agent has its reply starts
// recording the commits the git hooks queued. It never fails.
func (o Options) Capture(ctx context.Context, src source.Source, event string, stdin io.Reader, stdout io.Writer) {
	src, a := o.capture(ctx, src, event, stdin)
	if r, ok := src.(source.HookReplier); ok {
		fmt.Fprintln(stdout, r.HookReply(a.Event))
	} else if a.Foreign {
		// Cursor runs Claude Code's hook files too: its own hooks record
		// the event; this one gets the reply Cursor's hooks get.
		fmt.Fprintln(stdout, "{}")
	}
	o.drainAfterReply(ctx)
}

// capture records or spools the event and returns the source that sent it
// (another agent's, when src's hook received that agent's payload) and what
// it read (only the event's name when the payload could not be read).
func (o Options) capture(ctx context.Context, src source.Source, event string, stdin io.Reader) (source.Source, source.Activity) {
	data, err := readPayload(stdin)
	if err != nil {
		o.failed("%v", err)
		return src, source.Activity{Event: event}
	}
	src, a, err := ingest.ParseAs(o.Agents, o.Getenv, src, data, event)
	if err != nil {
		o.failed("%v (nothing recorded; already recorded data is untouched)", err)
		return src, source.Activity{Event: event}
	}
	atMs := o.Now().UnixMilli()
	if a.Unknown != "" {
		// Never dropped in silence: the log says whose hooks sent it, and
		// the spool keeps it (set aside at the next drain, where doctor
		// counts it, and --replay-spool retries it).
		o.Log.Printf("capture", "%s hook: %s; kept in the spool", src.Name(), a.Unknown)
		if err := o.spoolEvent(data, a, src.Name(), atMs); err != nil {
			o.Log.Printf("capture", "keeping it failed: %v", err)
		}
		return src, a
	}
	if a.Foreign {
		return src, a
	}
	if a.ConversationID == "" {
		o.failed("%s %s payload has no conversation id; nothing recorded", src.Name(), orUnknown(a.Event))
		return src, a
	}
	// Files a tool is about to write, whose text its payloads will not
	// give: kept now, diffed when it has written them (at its PostToolUse,
	// or at the turn's end when it wrote them after that).
	o.keepBefore(a)
	a = o.diffAfter(a)
	a = o.diffLate(a)
	// The edit's lines are located in the file now, while it is as the
	// edit left it (one read a file); carrying them to a commit waits for
	// the recording.
	a.Spans = ingest.LocateWrites(a)
	// An event inside a turn (an edit, a prompt, a tool step) goes to the
	// spool: no SQLite in the agent's hook. The end of the turn, the next
	// commit's recording or any read replays it first. An event ending the
	// turn is recorded now, to be read back; an agent's own commit too, to
	// link it at once. GIT_CONVO_SYNC=1: everything now.
	if !a.EndsTurn && a.Commit == nil && !o.sync() {
		if err := o.spoolEvent(data, a, src.Name(), atMs); err == nil {
			return src, a
		}
		// No spool (a full disk, a read-only directory): record it now.
	}
	s, err := o.open(ctx, busyTimeout)
	if err != nil {
		o.keep(data, a, src.Name(), atMs, err)
		return src, a
	}
	defer s.Close()
	o.DrainSpool(ctx, s, busyTimeout) // the turn's events, before the one that ends it
	w := o.Writer(ctx, s)
	if err := w.Record(ctx, src, a, atMs); err != nil {
		o.keep(data, a, src.Name(), atMs, err)
		return src, a
	}
	if a.EndsTurn {
		if err := w.EnrichTurn(ctx, src, a); err != nil && !errors.Is(err, source.ErrNoStore) {
			o.Log.Printf("capture", "reading %s conversation %s: %v", src.Name(), a.ConversationID, err)
		}
		// An agent that may still be writing the conversation: read it
		// again shortly (GIT_CONVO_SYNC=1: this read is the only one).
		if lw, ok := src.(source.LateWriter); ok && !o.sync() {
			o.spawn("the background enrichment", "enrich", "--delay="+lw.ReadAgainAfter().String(), a.ConversationID)
		}
	}
	return src, a
}

// readPayload reads one hook payload: at most maxPayload bytes, and a clear
// "too large" past that (not a JSON error at the cut).
func readPayload(stdin io.Reader) ([]byte, error) {
	debug.SetMemoryLimit(memoryLimit)
	data, err := io.ReadAll(io.LimitReader(stdin, maxPayload+1))
	if err != nil {
		return nil, fmt.Errorf("reading stdin: %v", err)
	}
	if len(data) > maxPayload {
		return nil, fmt.Errorf("the payload is too large (over %d MiB); nothing recorded, already recorded data is untouched", maxPayload>>20)
	}
	return data, nil
}

func orUnknown(event string) string {
	if event == "" {
		return "an unnamed"
	}
	return event
}
