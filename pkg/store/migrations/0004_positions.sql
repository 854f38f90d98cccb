-- Version 4: line evidence by position (docs/linking.md).

-- What a capture located of one event's edits to one file: the file as it
-- was on disk right after the edit, as one 8-byte line hash a line (never
-- its text), and the lines the edit wrote there ("3-9,12-12", 1-based).
-- A commit's recording carries the ranges to the committed file by a line
-- diff. Pruned with edit_lines; removed with the conversation.
CREATE TABLE edit_spans (
    id             INTEGER PRIMARY KEY,
    conversationId TEXT NOT NULL,
    generationId   TEXT NOT NULL DEFAULT '',
    repoKey        TEXT NOT NULL,
    pathKey        TEXT NOT NULL,
    atMs           INTEGER NOT NULL,
    snapshot       BLOB NOT NULL,
    ranges         TEXT NOT NULL
);
CREATE INDEX edit_spans_lookup ON edit_spans(repoKey, pathKey, atMs);
CREATE INDEX edit_spans_conversation ON edit_spans(conversationId);
CREATE INDEX edit_spans_age ON edit_spans(atMs);

-- An edit line whose edit was located (positioned = 1) is evidence by
-- position only: its text never matches another line of that file.
ALTER TABLE edit_lines ADD COLUMN positioned INTEGER NOT NULL DEFAULT 0;

-- How a commit line's writer is known: 'position' (a carried range covers
-- it) or 'text' (its text matched a written line: the weaker evidence,
-- which every row recorded before version 4 is).
ALTER TABLE commit_lines ADD COLUMN evidence TEXT NOT NULL DEFAULT 'text';

-- When the commit was made, to the millisecond, when known (its loose
-- object's time, if it falls in the commit's own second): it orders the
-- commit against a conversation's first event within one second.
ALTER TABLE commits ADD COLUMN madeMs INTEGER NOT NULL DEFAULT 0;

-- A commit line that counts (0: a blank line, whose writer is kept for
-- blame by position but that no count includes).
ALTER TABLE commit_lines ADD COLUMN counted INTEGER NOT NULL DEFAULT 1;

-- How many of a link's written lines are known by position (the others by
-- text match; every link written before version 4 has 0: text).
ALTER TABLE links ADD COLUMN positionLines INTEGER NOT NULL DEFAULT 0;
