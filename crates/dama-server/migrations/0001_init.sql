-- Games and their event logs. A game's state is its start position plus its events replayed in
-- order; the event sequence number is the version clients see.
CREATE TABLE games (
    id          TEXT PRIMARY KEY,
    created_ms  INTEGER NOT NULL,
    variant     TEXT NOT NULL,
    start_fen   TEXT NOT NULL,
    settings    TEXT NOT NULL,          -- JSON: mode, level, time control, invite, rematch_of
    status      TEXT NOT NULL,          -- waiting | active | finished | cancelled
    result      TEXT,                   -- "1-0", "0-1", "1/2-1/2" once finished
    updated_ms  INTEGER NOT NULL
);
CREATE INDEX games_status ON games (status, created_ms);

CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq     INTEGER NOT NULL,           -- 1, 2, 3, ...
    at_ms   INTEGER NOT NULL,
    body    TEXT NOT NULL,              -- JSON of the stored event
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
