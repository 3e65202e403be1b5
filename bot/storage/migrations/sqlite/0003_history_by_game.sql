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
    game_id     INTEGER PRIMARY KEY,  -- the session id, unique over every game kind
    game        TEXT NOT NULL,        -- the game kind, e.g. 'pickomino'
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    started_at  INTEGER NOT NULL,
    ended_at    INTEGER NOT NULL,
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
    game_id    INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    game       TEXT NOT NULL,
    guild_id   INTEGER NOT NULL,
    ended_at   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    name       TEXT NOT NULL,
    is_bot     INTEGER NOT NULL,
    left_game  INTEGER NOT NULL,
    score      INTEGER NOT NULL,
    rank       INTEGER,
    won        INTEGER NOT NULL,
    details    TEXT NOT NULL,         -- JSON {figure: count}: the game's counters
    end_state  TEXT NOT NULL,         -- JSON: the game's view of the final position
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
INSERT INTO history_players
SELECT game_id, seat, 'pickomino', guild_id, ended_at, user_id, name, is_bot, left_game,
    worms, rank, won,
    json_object('tiles', grill_takes, 'steals', steals, 'stolen_from', stolen_from,
        'busts', failures, 'turns', turns),
    json_object('tiles', json('[' || replace(tiles, ' ', ',') || ']'))
FROM player_results;

CREATE TABLE history_guilds (
    game      TEXT NOT NULL,
    guild_id  INTEGER NOT NULL,
    games     INTEGER NOT NULL,
    PRIMARY KEY (game, guild_id)
) WITHOUT ROWID;
INSERT INTO history_guilds SELECT 'pickomino', guild_id, games FROM guild_totals;

CREATE TABLE history_totals (
    game            TEXT NOT NULL,
    guild_id        INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    name            TEXT NOT NULL,
    stored_games    INTEGER NOT NULL,
    games           INTEGER NOT NULL,
    wins            INTEGER NOT NULL,
    score           INTEGER NOT NULL,
    best_score      INTEGER NOT NULL,
    current_streak  INTEGER NOT NULL,
    longest_streak  INTEGER NOT NULL,
    PRIMARY KEY (game, guild_id, user_id)
) WITHOUT ROWID;
INSERT INTO history_totals
SELECT 'pickomino', guild_id, user_id, name, stored_games, games, wins, worms, best_worms,
    current_streak, longest_streak
FROM player_totals;

-- A person's figures over their finished games: the sum and the most in one game.
CREATE TABLE history_figures (
    game      TEXT NOT NULL,
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    figure    TEXT NOT NULL,
    total     INTEGER NOT NULL,
    best      INTEGER NOT NULL,
    PRIMARY KEY (game, guild_id, user_id, figure)
) WITHOUT ROWID;
INSERT INTO history_figures
SELECT 'pickomino', p.guild_id, p.user_id, f.key, sum(f.value), max(f.value)
FROM history_players AS p JOIN history_games AS g USING (game_id), json_each(p.details) AS f
WHERE NOT p.is_bot AND NOT g.abandoned
GROUP BY p.guild_id, p.user_id, f.key;

CREATE TABLE history_days (
    game      TEXT NOT NULL,
    guild_id  INTEGER NOT NULL,
    day       INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    games     INTEGER NOT NULL,
    wins      INTEGER NOT NULL,
    score     INTEGER NOT NULL,
    PRIMARY KEY (game, guild_id, day, user_id)
) WITHOUT ROWID;
INSERT INTO history_days
SELECT 'pickomino', guild_id, day, user_id, games, wins, worms FROM player_days;

-- What a person took most, per item: the favourite (Pickomino: tiles by number).
CREATE TABLE history_items (
    game      TEXT NOT NULL,
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    item      INTEGER NOT NULL,
    taken     INTEGER NOT NULL,
    PRIMARY KEY (game, guild_id, user_id, item)
) WITHOUT ROWID;
INSERT INTO history_items SELECT 'pickomino', guild_id, user_id, tile, taken FROM player_tiles;

CREATE TABLE history_windows (
    game       TEXT NOT NULL,
    guild_id   INTEGER NOT NULL,
    period     TEXT NOT NULL,
    first_day  INTEGER NOT NULL,
    PRIMARY KEY (game, guild_id, period)
) WITHOUT ROWID;
INSERT INTO history_windows
SELECT 'pickomino', guild_id, period, first_day FROM period_windows;

CREATE TABLE history_periods (
    game      TEXT NOT NULL,
    guild_id  INTEGER NOT NULL,
    period    TEXT NOT NULL,
    user_id   INTEGER NOT NULL,
    games     INTEGER NOT NULL,
    wins      INTEGER NOT NULL,
    score     INTEGER NOT NULL,
    PRIMARY KEY (game, guild_id, period, user_id)
) WITHOUT ROWID;
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
