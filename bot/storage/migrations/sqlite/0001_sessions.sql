-- Game sessions of the Discord bot: one live session per channel, its events, and meta.
-- Times are unix seconds.

-- One row per session (lobby, game in progress, or ended). `id` is the game id users
-- see and the buttons carry; `version` counts accepted changes, so a click made on an
-- older state is recognised.
CREATE TABLE sessions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    kind        TEXT NOT NULL,            -- the game: 'pickomino'
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,         -- a thread is a channel of its own
    status      TEXT NOT NULL,            -- 'lobby', 'playing', 'over'
    version     INTEGER NOT NULL,
    state       TEXT NOT NULL,            -- JSON: seats, options, the game, the turn clock
    message_id  INTEGER,                  -- the live message, once posted
    deadline    REAL,                     -- next turn-timer instant (ping or expiry), if any
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
-- One live (not over) session per channel.
CREATE UNIQUE INDEX sessions_live_channel ON sessions (channel_id) WHERE status != 'over';
-- Start-up: the timers to arm again.
CREATE INDEX sessions_deadlines ON sessions (deadline) WHERE deadline IS NOT NULL;

-- Every game event, in order, as the engine's event_to_dict gives it.
CREATE TABLE session_events (
    session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,         -- 1, 2, ... within the session
    version     INTEGER NOT NULL,         -- the session version that committed it
    data        TEXT NOT NULL,            -- JSON object with a "type" key
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;

-- Small key-value facts about the bot itself, e.g. the hash of the last synced command tree.
CREATE TABLE meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
) WITHOUT ROWID;
