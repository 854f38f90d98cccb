-- Version 2: line-level attribution. Lines the agent wrote (from hook
-- payloads), and which of a commit's added lines they account for.

-- Every countable line an edit introduced, normalised and hashed; text is
-- kept (cut at 200 characters) to show a person. Bounded: at most 50,000
-- lines per conversation, and lines older than 60 days are pruned when a
-- commit is recorded (see docs/data-model.md).
CREATE TABLE edit_lines (
    conversationId TEXT NOT NULL,
    generationId   TEXT NOT NULL DEFAULT '',
    repoKey        TEXT NOT NULL,
    pathKey        TEXT NOT NULL,
    lineHash       INTEGER NOT NULL,
    text           TEXT NOT NULL,
    atMs           INTEGER NOT NULL,
    PRIMARY KEY (conversationId, repoKey, pathKey, lineHash, generationId)
) WITHOUT ROWID;
CREATE INDEX edit_lines_lookup ON edit_lines(repoKey, lineHash);
CREATE INDEX edit_lines_age ON edit_lines(atMs);

-- A commit's added lines that a conversation wrote (line numbers in the
-- commit's version of the file).
CREATE TABLE commit_lines (
    commitHash     TEXT NOT NULL,
    path           TEXT NOT NULL,
    line           INTEGER NOT NULL,
    conversationId TEXT NOT NULL,
    generationId   TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (commitHash, path, line)
) WITHOUT ROWID;

ALTER TABLE commit_files ADD COLUMN addedLines INTEGER NOT NULL DEFAULT 0;
ALTER TABLE commit_files ADD COLUMN agentLines INTEGER NOT NULL DEFAULT 0;
ALTER TABLE commits ADD COLUMN linesRecorded INTEGER NOT NULL DEFAULT 0;
ALTER TABLE links ADD COLUMN writtenLines INTEGER NOT NULL DEFAULT 0;
ALTER TABLE links ADD COLUMN addedLines INTEGER NOT NULL DEFAULT 0;
