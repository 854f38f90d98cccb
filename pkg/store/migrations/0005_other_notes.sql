-- Version 5: an index of other tools' notes (docs/interop.md): what each
-- note on refs/notes/ai, refs/notes/remotes/<remote>/ai and
-- refs/notes/agent-trace says, so that log reads no note. Kept per
-- repository and ref, brought up to date from the notes that changed
-- since the tip it reflects; nothing here is more than a cache of the
-- notes themselves.

-- The notes commit each ref's index reflects, and the reader's version
-- that wrote it (another version rebuilds it).
CREATE TABLE other_notes_tips (
    repoKey TEXT NOT NULL,
    ref     TEXT NOT NULL,
    tip     TEXT NOT NULL,
    version INTEGER NOT NULL,
    PRIMARY KEY (repoKey, ref)
) WITHOUT ROWID;

-- Each writer a commit's note names: its claim and the lines it claims,
-- with its files ("\n"-joined, in order; no path holds a control character).
CREATE TABLE other_note_writers (
    repoKey     TEXT NOT NULL,
    ref         TEXT NOT NULL,
    commitHash  TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    source      TEXT NOT NULL,
    fromText    TEXT NOT NULL,
    evidence    TEXT NOT NULL,
    rank        INTEGER NOT NULL,
    attribution TEXT NOT NULL,
    tool        TEXT NOT NULL,
    model       TEXT NOT NULL,
    session     TEXT NOT NULL,
    person      TEXT NOT NULL,
    lines       INTEGER NOT NULL,
    files       TEXT NOT NULL,
    PRIMARY KEY (repoKey, commitHash, ref, seq)
) WITHOUT ROWID;

-- The notes (or records) every read skips, and why (as the reads log them).
CREATE TABLE other_note_skips (
    repoKey    TEXT NOT NULL,
    ref        TEXT NOT NULL,
    commitHash TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    reason     TEXT NOT NULL,
    PRIMARY KEY (repoKey, commitHash, ref, seq)
) WITHOUT ROWID;
