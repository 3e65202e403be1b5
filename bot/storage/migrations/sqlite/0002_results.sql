-- Game results, per-player results, and the aggregates the score commands read.
-- Self-contained (no foreign keys into the sessions tables): results outlive sessions.
-- Times are unix seconds. Aggregates are maintained by bot.storage.results.save_result
-- in the same transaction as the result, so no command scans the games.

-- One row per finished or abandoned game.
CREATE TABLE game_results (
    game_id     INTEGER PRIMARY KEY,  -- the session id, shown to users as the game id
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    started_at  INTEGER NOT NULL,
    ended_at    INTEGER NOT NULL,
    abandoned   INTEGER NOT NULL,     -- 0 or 1
    has_bots    INTEGER NOT NULL,     -- 0 or 1: a computer player sat in the game
    turns       INTEGER NOT NULL,
    rules       TEXT NOT NULL         -- JSON, Rules.to_dict()
);
-- /pickomino score history: a server's games, newest first, keyset-paged.
CREATE INDEX game_results_by_guild ON game_results (guild_id, ended_at DESC, game_id DESC);

-- One row per seat. guild_id and ended_at are copied from the game so that one
-- player's history is a single index range.
CREATE TABLE player_results (
    game_id      INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,
    ended_at     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    name         TEXT NOT NULL,       -- display name at game time: shown after they leave
    is_bot       INTEGER NOT NULL,
    left_game    INTEGER NOT NULL,    -- left before the end
    worms        INTEGER NOT NULL,
    tiles        TEXT NOT NULL,       -- the final stack, bottom first, space-separated
    rank         INTEGER,             -- NULL: left, or no standings (abandoned in the lobby)
    won          INTEGER NOT NULL,
    grill_takes  INTEGER NOT NULL,
    steals       INTEGER NOT NULL,
    stolen_from  INTEGER NOT NULL,
    failures     INTEGER NOT NULL,
    turns        INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX player_results_by_player
    ON player_results (guild_id, user_id, ended_at DESC, game_id DESC);

-- Each game's turn outcomes for /pickomino score game, JSON [[seat, outcome, tile, other]].
CREATE TABLE game_stories (
    game_id  INTEGER PRIMARY KEY,
    turns    TEXT NOT NULL
);

-- Every stored game of a server, abandoned ones too: history's page count.
CREATE TABLE guild_totals (
    guild_id  INTEGER PRIMARY KEY,
    games     INTEGER NOT NULL
) WITHOUT ROWID;

-- Per person and server (never computer players). `stored_games` counts every game of
-- their history, abandoned ones too; the rest counts finished games only.
CREATE TABLE player_totals (
    guild_id        INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    name            TEXT NOT NULL,    -- the latest display name seen in a game
    stored_games    INTEGER NOT NULL,
    games           INTEGER NOT NULL,
    wins            INTEGER NOT NULL,
    worms           INTEGER NOT NULL,
    best_worms      INTEGER NOT NULL,
    grill_takes     INTEGER NOT NULL,
    steals          INTEGER NOT NULL,
    stolen_from     INTEGER NOT NULL,
    failures        INTEGER NOT NULL,
    turns           INTEGER NOT NULL,
    current_streak  INTEGER NOT NULL,
    longest_streak  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

-- Finished games per person, server and UTC day: the 7- and 30-day leaderboards read a
-- day range of this table (the key order makes that range one contiguous scan).
CREATE TABLE player_days (
    guild_id  INTEGER NOT NULL,
    day       INTEGER NOT NULL,       -- unix seconds // 86400
    user_id   INTEGER NOT NULL,
    games     INTEGER NOT NULL,
    wins      INTEGER NOT NULL,
    worms     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, day, user_id)
) WITHOUT ROWID;

-- Tiles a person took or stole, per server: their favourite tile.
CREATE TABLE player_tiles (
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    tile      INTEGER NOT NULL,
    taken     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, tile)
) WITHOUT ROWID;

-- The 7- and 30-day totals per person, kept whole so a period leaderboard reads one
-- row per person instead of summing player_days: save_result adds each finished game,
-- and a read rolls the window forward, subtracting the days that fell out of it
-- (bot.storage.results._roll_window). Built on first use.
CREATE TABLE period_windows (
    guild_id   INTEGER NOT NULL,
    period     TEXT NOT NULL,         -- '7d' or '30d'
    first_day  INTEGER NOT NULL,      -- the oldest UTC day period_totals include
    PRIMARY KEY (guild_id, period)
) WITHOUT ROWID;

CREATE TABLE period_totals (
    guild_id  INTEGER NOT NULL,
    period    TEXT NOT NULL,
    user_id   INTEGER NOT NULL,
    games     INTEGER NOT NULL,
    wins      INTEGER NOT NULL,
    worms     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, period, user_id)
) WITHOUT ROWID;
