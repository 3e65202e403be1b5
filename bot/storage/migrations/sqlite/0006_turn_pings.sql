-- The turn ping in each channel (bot.ui.pings): kept here, not only in memory, so a ping
-- posted before a restart is still deleted when its turn ends, or at start-up if the
-- turn ended while the bot was down. At most one a channel.
CREATE TABLE turn_pings (
    channel_id  INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,         -- a sharded process cleans up only its guilds
    session_id  INTEGER NOT NULL,
    turn        TEXT NOT NULL,            -- the turn it belongs to: '<session>:<turn key>'
    message_id  INTEGER NOT NULL,
    created_at  INTEGER NOT NULL
);
