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

-- Per commit with a note on ref: the writers the note names, each with its
-- claim, lines and files, as pkg/share/interop encodes them (one text: a
-- read of 1,000 commits scans 1,000 values, not 14,000), and the notes or
-- records every read skips, with why (a JSON array, '' for none).
CREATE TABLE other_notes (
    repoKey    TEXT NOT NULL,
    commitHash TEXT NOT NULL,
    ref        TEXT NOT NULL,
    writers    TEXT NOT NULL,
    skips      TEXT NOT NULL,
    PRIMARY KEY (repoKey, commitHash, ref)
) WITHOUT ROWID;
