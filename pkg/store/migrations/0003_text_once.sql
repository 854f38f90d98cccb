-- Version 3: a prompt or a response is stored once. Version 1 made the
-- text part of a UNIQUE key, so SQLite kept a second whole copy of every
-- prompt in that key's index (a 50 MB prompt took 100 MB, plus its copies
-- in firstPrompt and searchableText, now bounded). A repeated event is
-- still recorded once: the insert skips a text the conversation already
-- has, inside the write transaction (store.RecordActivity).
CREATE TABLE prompts_v3 (
    id             INTEGER PRIMARY KEY,
    conversationId TEXT NOT NULL,
    generationId   TEXT NOT NULL DEFAULT '',
    text           TEXT NOT NULL,
    atMs           INTEGER NOT NULL
);
INSERT INTO prompts_v3 (id, conversationId, generationId, text, atMs)
    SELECT id, conversationId, generationId, text, atMs FROM prompts;
DROP TABLE prompts;
ALTER TABLE prompts_v3 RENAME TO prompts;
CREATE INDEX prompts_conversation ON prompts(conversationId, generationId);

CREATE TABLE responses_v3 (
    id             INTEGER PRIMARY KEY,
    conversationId TEXT NOT NULL,
    generationId   TEXT NOT NULL DEFAULT '',
    text           TEXT NOT NULL,
    atMs           INTEGER NOT NULL
);
INSERT INTO responses_v3 (id, conversationId, generationId, text, atMs)
    SELECT id, conversationId, generationId, text, atMs FROM responses;
DROP TABLE responses;
ALTER TABLE responses_v3 RENAME TO responses;
CREATE INDEX responses_conversation ON responses(conversationId, generationId);
