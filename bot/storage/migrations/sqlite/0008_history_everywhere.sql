-- A person's own card and history outside a server cover every community (server, or
-- chat without one) they played in: their games of one kind in one index range, and
-- their totals rows (one a community) found without a scan of everyone's.
CREATE INDEX history_players_everywhere
    ON history_players (game, user_id, ended_at DESC, game_id DESC);
CREATE INDEX history_totals_everywhere ON history_totals (game, user_id);
