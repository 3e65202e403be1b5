-- PostgreSQL twin of sqlite/0003_history_by_game.sql (same tables; ids and times BIGINT,
-- PostgreSQL's JSON functions for the copy).
-- History for every game: each table and every aggregate's key gains the game kind, and
-- Pickomino's own columns become a generic score plus per-figure counters.
-- Every stored result so far is a Pickomino game: the rows are copied over as such.
--   worms              -> score
--   tiles (the stack)  -> end_state JSON {"tiles": [...]}
--   grill_takes, steals, stolen_from, failures, turns
--                      -> details JSON {"tiles", "steals", "stolen_from", "busts", "turns"}
--                         and their totals per person in player_figures
--   player_tiles       -> player_items (the favourite tile)
-- Aggregates are still maintained by save_result (bot.storage.results), never scanned.

CREATE TABLE history_games (
    game_id     BIGINT PRIMARY KEY,  -- the session id, unique over every game kind
    game        TEXT NOT NULL,        -- the game kind, e.g. 'pickomino'
    guild_id    BIGINT NOT NULL,
    channel_id  BIGINT NOT NULL,
    started_at  BIGINT NOT NULL,
    ended_at    BIGINT NOT NULL,
    abandoned   INTEGER NOT NULL,
    has_bots    INTEGER NOT NULL,
    turns       INTEGER NOT NULL,
    options     TEXT NOT NULL         -- JSON: the game's rule options
);
INSERT INTO history_games
SELECT game_id, 'pickomino', guild_id, channel_id, started_at, ended_at, abandoned,
    has_bots, turns, rules
FROM game_results;

CREATE TABLE history_players (
    game_id    BIGINT NOT NULL,
    seat       INTEGER NOT NULL,
    game       TEXT NOT NULL,
    guild_id   BIGINT NOT NULL,
    ended_at   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    name       TEXT NOT NULL,
    is_bot     INTEGER NOT NULL,
    left_game  INTEGER NOT NULL,
    score      INTEGER NOT NULL,
    rank       INTEGER,
    won        INTEGER NOT NULL,
    details    TEXT NOT NULL,         -- JSON {figure: count}: the game's counters
    end_state  TEXT NOT NULL,         -- JSON: the game's view of the final position
    PRIMARY KEY (game_id, seat)
);
INSERT INTO history_players
SELECT game_id, seat, 'pickomino', guild_id, ended_at, user_id, name, is_bot, left_game,
    worms, rank, won,
    json_build_object('tiles', grill_takes, 'steals', steals, 'stolen_from', stolen_from,
        'busts', failures, 'turns', turns)::text,
    json_build_object('tiles', ('[' || replace(tiles, ' ', ',') || ']')::json)::text
FROM player_results;

CREATE TABLE history_guilds (
    game      TEXT NOT NULL,
    guild_id  BIGINT NOT NULL,
    games     INTEGER NOT NULL,
    PRIMARY KEY (game, guild_id)
);
INSERT INTO history_guilds SELECT 'pickomino', guild_id, games FROM guild_totals;

CREATE TABLE history_totals (
    game            TEXT NOT NULL,
    guild_id        BIGINT NOT NULL,
    user_id         BIGINT NOT NULL,
    name            TEXT NOT NULL,
    stored_games    INTEGER NOT NULL,
    games           INTEGER NOT NULL,
    wins            INTEGER NOT NULL,
    score           INTEGER NOT NULL,
    best_score      INTEGER NOT NULL,
    current_streak  INTEGER NOT NULL,
    longest_streak  INTEGER NOT NULL,
    PRIMARY KEY (game, guild_id, user_id)
);
INSERT INTO history_totals
SELECT 'pickomino', guild_id, user_id, name, stored_games, games, wins, worms, best_worms,
    current_streak, longest_streak
FROM player_totals;

-- A person's figures over their finished games: the sum and the most in one game.
CREATE TABLE history_figures (
    game      TEXT NOT NULL,
    guild_id  BIGINT NOT NULL,
    user_id   BIGINT NOT NULL,
    figure    TEXT NOT NULL,
    total     INTEGER NOT NULL,
    best      INTEGER NOT NULL,
    PRIMARY KEY (game, guild_id, user_id, figure)
);
INSERT INTO history_figures
SELECT 'pickomino', p.guild_id, p.user_id, f.key, sum(f.value::integer), max(f.value::integer)
FROM history_players AS p JOIN history_games AS g USING (game_id),
    json_each_text(p.details::json) AS f
WHERE p.is_bot = 0 AND g.abandoned = 0
GROUP BY p.guild_id, p.user_id, f.key;

CREATE TABLE history_days (
    game      TEXT NOT NULL,
    guild_id  BIGINT NOT NULL,
    day       INTEGER NOT NULL,
    user_id   BIGINT NOT NULL,
    games     INTEGER NOT NULL,
    wins      INTEGER NOT NULL,
    score     INTEGER NOT NULL,
    PRIMARY KEY (game, guild_id, day, user_id)
);
INSERT INTO history_days
SELECT 'pickomino', guild_id, day, user_id, games, wins, worms FROM player_days;

-- What a person took most, per item: the favourite (Pickomino: tiles by number).
CREATE TABLE history_items (
    game      TEXT NOT NULL,
    guild_id  BIGINT NOT NULL,
    user_id   BIGINT NOT NULL,
    item      INTEGER NOT NULL,
    taken     INTEGER NOT NULL,
    PRIMARY KEY (game, guild_id, user_id, item)
);
INSERT INTO history_items SELECT 'pickomino', guild_id, user_id, tile, taken FROM player_tiles;

CREATE TABLE history_windows (
    game       TEXT NOT NULL,
    guild_id   BIGINT NOT NULL,
    period     TEXT NOT NULL,
    first_day  INTEGER NOT NULL,
    PRIMARY KEY (game, guild_id, period)
);
INSERT INTO history_windows
SELECT 'pickomino', guild_id, period, first_day FROM period_windows;

CREATE TABLE history_periods (
    game      TEXT NOT NULL,
    guild_id  BIGINT NOT NULL,
    period    TEXT NOT NULL,
    user_id   BIGINT NOT NULL,
    games     INTEGER NOT NULL,
    wins      INTEGER NOT NULL,
    score     INTEGER NOT NULL,
    PRIMARY KEY (game, guild_id, period, user_id)
);
INSERT INTO history_periods
SELECT 'pickomino', guild_id, period, user_id, games, wins, worms FROM period_totals;

-- The story table keeps its shape (its rows are each game's own JSON lines).
DROP TABLE game_results;
DROP TABLE player_results;
DROP TABLE guild_totals;
DROP TABLE player_totals;
DROP TABLE player_days;
DROP TABLE player_tiles;
DROP TABLE period_windows;
DROP TABLE period_totals;

-- /<game> score history: a server's games of one kind, newest first, keyset-paged.
CREATE INDEX history_games_by_guild
    ON history_games (game, guild_id, ended_at DESC, game_id DESC);
-- One person's games of one kind: a single index range.
CREATE INDEX history_players_by_player
    ON history_players (game, guild_id, user_id, ended_at DESC, game_id DESC);
