"""The schema, written once: every step from an empty database, each rendered for SQLite
and for PostgreSQL. A change is a new step at the end, never an edit of an old one: a
database in the field has run the old ones as they were.

A step names its types by what they hold and each backend spells them its way:

    {ID}        a row's own id, never reused (buttons carry it): SQLite's AUTOINCREMENT
                rowid, PostgreSQL's identity column
    {BIG}       a Discord id or a deal: INTEGER (SQLite's are 64-bit), BIGINT
    {REAL}      seconds and times: REAL, DOUBLE PRECISION
    {BOOL}      INTEGER 0/1 (SQLite has no booleans), BOOLEAN
    {LEAST} {GREATEST}   the lesser and greater of two values: min and max, which are
                aggregates only on PostgreSQL, LEAST and GREATEST, which SQLite lacks
    {THEN_ID}   the row's id at the end of an index: SQLite ends every index with the rowid
                (which ``id`` is) whether named or not; PostgreSQL names it
    {SECRET}    64 random hex digits, from each backend's strong random source

(``str.format_map`` fills them in: a brace the SQL itself needs is written twice.)

The two count versions differently, and both counts stay as databases in the field have
them. SQLite counts steps: its version n has run steps 1 to n (``PRAGMA user_version``).
PostgreSQL came with step 5: its version 1 is steps 1 to 5 run together, its version n
later is step n + 4 (the ``schema_version`` table). No migration library: it would keep
a version table of its own beside these two counts, for fifteen steps and eight words.
"""

from __future__ import annotations

SQLITE = {
    "ID": "INTEGER PRIMARY KEY AUTOINCREMENT",
    "BIG": "INTEGER",
    "REAL": "REAL",
    "BOOL": "INTEGER",
    "LEAST": "min",
    "GREATEST": "max",
    "THEN_ID": "",
    "SECRET": "lower(hex(randomblob(32)))",
}
POSTGRES = {
    "ID": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    "BIG": "BIGINT",
    "REAL": "DOUBLE PRECISION",
    "BOOL": "BOOLEAN",
    "LEAST": "LEAST",
    "GREATEST": "GREATEST",
    "THEN_ID": ", id",
    "SECRET": "replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')",
}
POSTGRES_FIRST = 5  # the step PostgreSQL's version 1 ends at

STEPS: tuple[str, ...] = (
    # 1: the current game of each player.
    """
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE games (
        id {ID},
        user_id {BIG} NOT NULL UNIQUE,         -- one current game per player
        guild_id {BIG},                        -- server it was started in; NULL: DM, console
        game TEXT NOT NULL,
        deal {BIG} NOT NULL,
        state TEXT NOT NULL,                   -- engine Game.to_dict() as JSON, kept verbatim
        status TEXT NOT NULL DEFAULT 'playing',
        revision INTEGER NOT NULL DEFAULT 0,   -- +1 on every saved change
        started_at {REAL} NOT NULL,
        updated_at {REAL} NOT NULL
    );
    """,
    # 2: results (one row per finished game, written with the game's last change),
    #    and the counters a result needs.
    """
    ALTER TABLE games ADD COLUMN undos INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN seconds_played {REAL} NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN daily TEXT;
    ALTER TABLE games ADD COLUMN finished_at {REAL};
    CREATE TABLE results (
        id {ID},
        game_row {BIG} NOT NULL UNIQUE,        -- games.id: a game is counted once
        user_id {BIG} NOT NULL,
        guild_id {BIG},
        game TEXT NOT NULL,
        deal {BIG} NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('won', 'lost', 'resigned', 'abandoned')),
        moves INTEGER NOT NULL,
        undos INTEGER NOT NULL,
        hints INTEGER NOT NULL,
        redeals_used INTEGER NOT NULL,
        seconds_played {REAL} NOT NULL,
        finished_at {REAL} NOT NULL,
        daily TEXT                             -- the UTC day of a daily deal, else NULL
    );
    CREATE INDEX results_by_guild ON results (guild_id, game, finished_at);
    CREATE INDEX results_by_user ON results (user_id, game, finished_at);
    """,
    # 3: the daily deal. A player's first start of a game's daily deal on a UTC day is their
    #    one scored attempt; the row stays when a server's results are reset, so a reset
    #    hands out no second attempt. Daily boards read results by server and day.
    """
    CREATE TABLE daily_attempts (
        user_id {BIG} NOT NULL,
        game TEXT NOT NULL,
        day TEXT NOT NULL,                     -- UTC date, YYYY-MM-DD
        started_at {REAL} NOT NULL,
        PRIMARY KEY (user_id, game, day)
    );
    INSERT INTO daily_attempts (user_id, game, day, started_at)
        SELECT user_id, game, daily, started_at FROM games WHERE daily IS NOT NULL
        ON CONFLICT DO NOTHING;
    INSERT INTO daily_attempts (user_id, game, day, started_at)
        SELECT user_id, game, daily, finished_at FROM results WHERE daily IS NOT NULL
        ON CONFLICT DO NOTHING;
    CREATE INDEX results_by_daily ON results (guild_id, daily, game);
    """,
    # 4: deals the solver proved winnable, waiting to be handed out by `/new winnable`.
    """
    CREATE TABLE winnable_deals (
        game TEXT NOT NULL,
        deal {BIG} NOT NULL,
        found_at {REAL} NOT NULL,
        PRIMARY KEY (game, deal)
    );
    """,
    # 5: facts that must outlast the process — the revision the solver proved a game lost
    #    at, each player's settings, their last board in each channel — and server indexes
    #    that hold every column a leaderboard counts, so it never reads the table: by
    #    player (counted in order, no sort) and by game and time (a week of one game); and
    #    a player index that holds every column of a record, for the same reason.
    """
    ALTER TABLE games ADD COLUMN proven_lost_at INTEGER;  -- a revision; stale once it moves
    CREATE TABLE player_settings (
        user_id {BIG} PRIMARY KEY,
        private_boards {BOOL} NOT NULL,
        four_colour {BOOL} NOT NULL,
        auto_moves {BOOL} NOT NULL
    );
    CREATE TABLE board_messages (
        user_id {BIG} NOT NULL,
        channel_id {BIG} NOT NULL,
        message_id {BIG} NOT NULL,             -- the player's live board in that channel
        previous_id {BIG},                     -- the one it replaced
        PRIMARY KEY (user_id, channel_id)
    );
    DROP INDEX results_by_guild;
    CREATE INDEX results_by_guild
        ON results (guild_id, game, finished_at, user_id, outcome, hints);
    CREATE INDEX results_by_guild_player
        ON results (guild_id, user_id, game, finished_at, outcome, hints);
    DROP INDEX results_by_user;
    CREATE INDEX results_by_user ON results (user_id, guild_id, game, finished_at, outcome,
        hints, moves, seconds_played, daily{THEN_ID});
    """,
    # 6: board_messages.previous_id was never written.
    """
    ALTER TABLE board_messages DROP COLUMN previous_id;
    """,
    # 7: each player's last use of what has a cooldown, shared by every process.
    """
    CREATE TABLE cooldowns (
        user_id {BIG} NOT NULL,
        kind TEXT NOT NULL,                    -- hint, winnable, stats, ...
        used_at {REAL} NOT NULL,
        PRIMARY KEY (user_id, kind)
    );
    """,
    # 8: each day's daily deal, once chosen (proven winnable), the same for every process;
    #    challenges between members, and the games played for them; each player's last
    #    finished game in each place, for /replay.
    """
    CREATE TABLE daily_deals (
        game TEXT NOT NULL,
        day TEXT NOT NULL,                     -- UTC date, YYYY-MM-DD
        deal {BIG} NOT NULL,
        PRIMARY KEY (game, day)
    );
    CREATE TABLE challenges (
        id {ID},
        guild_id {BIG} NOT NULL,
        channel_id {BIG},                      -- where its message is, once posted
        message_id {BIG},
        challenger_id {BIG} NOT NULL,          -- 0: a player who asked to be forgotten
        challenged_id {BIG} NOT NULL,
        game TEXT NOT NULL,
        deal {BIG},                            -- chosen when accepted
        status TEXT NOT NULL,                  -- open, declined, accepted, over
        created_at {REAL} NOT NULL,
        accepted_at {REAL},
        challenger_outcome TEXT,               -- won, lost, resigned, abandoned
        challenger_moves INTEGER,
        challenger_seconds {REAL},
        challenged_outcome TEXT,
        challenged_moves INTEGER,
        challenged_seconds {REAL}
    );
    CREATE INDEX challenges_open ON challenges (status, created_at);
    ALTER TABLE games ADD COLUMN challenge_id {BIG};
    ALTER TABLE results ADD COLUMN challenge_id {BIG};
    CREATE TABLE replays (
        user_id {BIG} NOT NULL,
        place {BIG} NOT NULL,                  -- the server's id; 0 outside servers
        state TEXT NOT NULL,                   -- the finished game, as games.state
        outcome TEXT NOT NULL,
        hints INTEGER NOT NULL,
        finished_at {REAL} NOT NULL,
        PRIMARY KEY (user_id, place)
    );
    """,
    # 9: the language a challenge's message was posted in: every later update of it is
    #    worded in that language, whichever process makes it.
    """
    ALTER TABLE challenges ADD COLUMN language TEXT NOT NULL DEFAULT 'en-US';
    """,
    # 10: each side's hints in its challenge game: a win without hints beats one with them.
    """
    ALTER TABLE challenges ADD COLUMN challenger_hints INTEGER;
    ALTER TABLE challenges ADD COLUMN challenged_hints INTEGER;
    """,
    # 11: one challenge waiting for an answer per pair of members, whichever challenged
    #     whom (the older of any two waiting now end as unanswered); and each member's
    #     challenges waiting for an answer, counted by the index beside it.
    """
    UPDATE challenges SET status = 'expired'
        WHERE status = 'open' AND challenger_id <> 0 AND challenged_id <> 0
        AND id NOT IN (
            SELECT max(id) FROM challenges
            WHERE status = 'open' AND challenger_id <> 0 AND challenged_id <> 0
            GROUP BY {LEAST}(challenger_id, challenged_id), {GREATEST}(challenger_id, challenged_id)
        );
    CREATE UNIQUE INDEX challenges_open_pair ON challenges
        ({LEAST}(challenger_id, challenged_id), {GREATEST}(challenger_id, challenged_id))
        WHERE status = 'open' AND challenger_id <> 0 AND challenged_id <> 0;
    CREATE INDEX challenges_by_challenger ON challenges (challenger_id, status, created_at);
    """,
    # 12: the daily deal's secret, made once here and read by every process on this
    #     database: each day's candidates are keyed by it, so the code alone tells nobody
    #     tomorrow's deal. A day's deal kept before, and not yet played, was chosen without
    #     it (tomorrow's, found ahead): it is chosen again.
    """
    INSERT INTO meta (key, value) VALUES ('daily_secret', {SECRET})
        ON CONFLICT (key) DO NOTHING;
    DELETE FROM daily_deals WHERE NOT EXISTS (
        SELECT 1 FROM daily_attempts
        WHERE daily_attempts.game = daily_deals.game AND daily_attempts.day = daily_deals.day
    );
    """,
    # 13: whether a finished game had Trefoil's draw house rule on (NULL: finished before
    #     this was kept): a house rule never plays a scored game, and a result says so.
    """
    ALTER TABLE results ADD COLUMN draw {BOOL};
    """,
    # 14: who is at each Activity's table now: a row per page connected to it, in any
    #     process, kept fresh by that process (a row not kept is gone: its process is).
    """
    CREATE TABLE seats (
        seat TEXT PRIMARY KEY,                 -- the page's socket's own id
        tab {BIG} NOT NULL,                    -- the table's key: its instance, hashed
        instance TEXT NOT NULL,                -- Discord's instanceId, or a dev table's name
        user_id {BIG} NOT NULL,
        name TEXT NOT NULL,
        avatar TEXT,                           -- Discord's avatar hash; NULL: none
        sat_at {REAL} NOT NULL,
        seen_at {REAL} NOT NULL
    );
    CREATE INDEX seats_by_table ON seats (tab, sat_at);
    CREATE INDEX seats_by_seen ON seats (seen_at);
    CREATE INDEX seats_by_user ON seats (user_id);
    """,
    # 15: races at an Activity's table: one under way at a table at a time (counting down,
    #     or running), who joined it and how each racer's game of it ended; and the race a
    #     game is played for.
    """
    CREATE TABLE races (
        id {ID},
        tab {BIG} NOT NULL,                    -- the table's key (seats.tab)
        instance TEXT NOT NULL,
        guild_id {BIG},                        -- the server the Activity is in; NULL: none
        channel_id {BIG},                      -- where its result is posted; NULL: nowhere
        game TEXT NOT NULL,
        deal {BIG},                            -- chosen as it begins
        status TEXT NOT NULL,                  -- counting, running, over
        started_by {BIG} NOT NULL,
        created_at {REAL} NOT NULL,
        starts_at {REAL} NOT NULL,             -- the countdown's end
        begun_at {REAL},
        ends_at {REAL},                        -- the limit: unfinished by then, not finished
        ended_at {REAL},                       -- when it was over
        language TEXT NOT NULL,                -- the locale its posted result is worded in
        posted {BOOL} NOT NULL                 -- its result was posted (once)
    );
    CREATE UNIQUE INDEX races_under_way ON races (tab) WHERE status <> 'over';
    CREATE INDEX races_by_table ON races (tab{THEN_ID});
    CREATE TABLE racers (
        race_id {BIG} NOT NULL,
        user_id {BIG} NOT NULL,
        name TEXT NOT NULL,
        guild_id {BIG},                        -- the server their game counts in
        joined_at {REAL} NOT NULL,
        dealt {BOOL} NOT NULL,
        outcome TEXT,                          -- NULL: still racing (or did not finish)
        moves INTEGER,
        seconds {REAL},
        hints INTEGER,
        home INTEGER,                          -- cards home when it ended
        PRIMARY KEY (race_id, user_id)
    );
    CREATE INDEX racers_by_user ON racers (user_id);
    ALTER TABLE games ADD COLUMN race_id {BIG};
    """,
)


def _render(steps: tuple[str, ...], dialect: dict[str, str]) -> tuple[str, ...]:
    return tuple(step.format_map(dialect) for step in steps)


#: SQLite's migrations: version n has run the first n.
SQLITE_MIGRATIONS = _render(STEPS, SQLITE)
#: PostgreSQL's migrations: version n has run the first n.
POSTGRES_MIGRATIONS = (
    "".join(_render(STEPS[:POSTGRES_FIRST], POSTGRES)),
    *_render(STEPS[POSTGRES_FIRST:], POSTGRES),
)
