-- Version 1: the seed's three tables (column names kept so tools written against
-- that schema keep working) plus indexed side tables so no query scans JSON.

CREATE TABLE conversations (
    conversationId  TEXT PRIMARY KEY,
    workspaceRoot   TEXT,
    projectName     TEXT,
    title           TEXT,
    summary         TEXT,
    aiSummary       TEXT,
    relevantFiles   TEXT NOT NULL DEFAULT '[]',
    attachedFolders TEXT NOT NULL DEFAULT '[]',
    capturedFiles   TEXT NOT NULL DEFAULT '[]',
    searchableText  TEXT,
    createdAt       TEXT,
    updatedAt       TEXT,
    lastHookEvent   TEXT,
    -- git-convo additions
    agent           TEXT NOT NULL DEFAULT 'cursor',
    model           TEXT,
    status          TEXT,
    mode            TEXT,
    firstPrompt     TEXT,
    lastResponse    TEXT,
    transcriptPath  TEXT,
    firstSeenMs     INTEGER NOT NULL DEFAULT 0,
    lastHookMs      INTEGER NOT NULL DEFAULT 0,
    cursorUpdatedMs INTEGER NOT NULL DEFAULT 0,
    -- activityMs = max(lastHookMs, cursorUpdatedMs); kept as a column so the
    -- linker's window query is one index range.
    activityMs      INTEGER NOT NULL DEFAULT 0,
    enrichedMs      INTEGER NOT NULL DEFAULT 0,
    enrichError     TEXT
);
CREATE INDEX conversations_activity ON conversations(activityMs);

-- Workspace roots a conversation was seen with (multi-root workspaces feed several repos).
CREATE TABLE conversation_roots (
    conversationId TEXT NOT NULL,
    root           TEXT NOT NULL,
    PRIMARY KEY (conversationId, root)
) WITHOUT ROWID;
CREATE INDEX conversation_roots_root ON conversation_roots(root);

-- Files a conversation edited or looked at. repoKey is the git common dir of the
-- repository that holds the file ('' when the file is in no repository: kept,
-- never matched); path is relative to that repository's top level; pathKey is
-- path as compared (case-folded on case-insensitive file systems).
CREATE TABLE conversation_files (
    conversationId TEXT NOT NULL,
    repoKey        TEXT NOT NULL,
    path           TEXT NOT NULL,
    pathKey        TEXT NOT NULL,
    source         TEXT NOT NULL, -- hook | tool | cursor-edit | cursor-context | attachment
    firstMs        INTEGER NOT NULL,
    lastMs         INTEGER NOT NULL,
    PRIMARY KEY (conversationId, repoKey, pathKey, source)
) WITHOUT ROWID;
CREATE INDEX conversation_files_lookup ON conversation_files(repoKey, pathKey);

CREATE TABLE prompts (
    id             INTEGER PRIMARY KEY,
    conversationId TEXT NOT NULL,
    generationId   TEXT NOT NULL DEFAULT '',
    text           TEXT NOT NULL,
    atMs           INTEGER NOT NULL,
    UNIQUE (conversationId, generationId, text)
);

CREATE TABLE responses (
    id             INTEGER PRIMARY KEY,
    conversationId TEXT NOT NULL,
    generationId   TEXT NOT NULL DEFAULT '',
    text           TEXT NOT NULL,
    atMs           INTEGER NOT NULL,
    UNIQUE (conversationId, generationId, text)
);

CREATE TABLE commits (
    commitHash   TEXT PRIMARY KEY,
    repoPath     TEXT,
    branch       TEXT,
    author       TEXT,
    message      TEXT,
    committedAt  TEXT,
    changedFiles TEXT NOT NULL DEFAULT '[]',
    createdAt    TEXT,
    -- git-convo additions
    repoKey      TEXT NOT NULL DEFAULT '',
    committedMs  INTEGER NOT NULL DEFAULT 0,
    parentCount  INTEGER NOT NULL DEFAULT 1,
    rewrittenTo  TEXT
);
CREATE INDEX commits_repo_time ON commits(repoKey, committedMs);

CREATE TABLE commit_files (
    commitHash TEXT NOT NULL,
    path       TEXT NOT NULL,
    pathKey    TEXT NOT NULL,
    PRIMARY KEY (commitHash, pathKey)
) WITHOUT ROWID;
CREATE INDEX commit_files_path ON commit_files(pathKey);

CREATE TABLE links (
    id             INTEGER PRIMARY KEY, -- rowid alias: ids are assigned in order, without AUTOINCREMENT's extra write
    conversationId TEXT NOT NULL,
    commitHash     TEXT NOT NULL,
    matchedFiles   TEXT NOT NULL DEFAULT '[]',
    confidence     REAL NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    status         TEXT NOT NULL CHECK (status IN ('auto', 'manual')),
    createdAt      TEXT NOT NULL,
    -- git-convo additions
    reason         TEXT NOT NULL DEFAULT '',
    source         TEXT NOT NULL DEFAULT 'hook', -- hook | relink | import | manual | rewrite
    updatedAt      TEXT,
    UNIQUE (conversationId, commitHash)
);
CREATE INDEX links_commit ON links(commitHash);

-- Small key/value facts about the store itself (last capture, last record, ...).
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
