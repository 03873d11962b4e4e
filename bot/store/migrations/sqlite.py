"""SQLite's schema, step by step from an empty file: applied at open, each in its own
transaction, the version kept in ``PRAGMA user_version``. A change is a new entry at the
end, never an edit of an old one."""

MIGRATIONS: tuple[str, ...] = (
    # 1: the current game of each player.
    """
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: buttons carry it
        user_id INTEGER NOT NULL UNIQUE,       -- one current game per player
        guild_id INTEGER,                      -- server it was started in; NULL: DM, console
        game TEXT NOT NULL,
        deal INTEGER NOT NULL,
        state TEXT NOT NULL,                   -- engine Game.to_dict() as JSON
        status TEXT NOT NULL DEFAULT 'playing',
        revision INTEGER NOT NULL DEFAULT 0,   -- +1 on every saved change
        started_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    """,
    # 2: results (one row per finished game, written with the game's last change),
    #    and the counters a result needs.
    """
    ALTER TABLE games ADD COLUMN undos INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN seconds_played REAL NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN daily TEXT;
    ALTER TABLE games ADD COLUMN finished_at REAL;
    CREATE TABLE results (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_row INTEGER NOT NULL UNIQUE,      -- games.id: a game is counted once
        user_id INTEGER NOT NULL,
        guild_id INTEGER,
        game TEXT NOT NULL,
        deal INTEGER NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('won', 'lost', 'resigned', 'abandoned')),
        moves INTEGER NOT NULL,
        undos INTEGER NOT NULL,
        hints INTEGER NOT NULL,
        redeals_used INTEGER NOT NULL,
        seconds_played REAL NOT NULL,
        finished_at REAL NOT NULL,
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
        user_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        day TEXT NOT NULL,                     -- UTC date, YYYY-MM-DD
        started_at REAL NOT NULL,
        PRIMARY KEY (user_id, game, day)
    );
    INSERT OR IGNORE INTO daily_attempts (user_id, game, day, started_at)
        SELECT user_id, game, daily, started_at FROM games WHERE daily IS NOT NULL;
    INSERT OR IGNORE INTO daily_attempts (user_id, game, day, started_at)
        SELECT user_id, game, daily, finished_at FROM results WHERE daily IS NOT NULL;
    CREATE INDEX results_by_daily ON results (guild_id, daily, game);
    """,
    # 4: deals the solver proved winnable, waiting to be handed out by `/new winnable`.
    """
    CREATE TABLE winnable_deals (
        game TEXT NOT NULL,
        deal INTEGER NOT NULL,
        found_at REAL NOT NULL,
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
        user_id INTEGER PRIMARY KEY,
        private_boards INTEGER NOT NULL,
        four_colour INTEGER NOT NULL,
        auto_moves INTEGER NOT NULL
    );
    CREATE TABLE board_messages (
        user_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,           -- the player's live board in that channel
        previous_id INTEGER,                   -- the one it replaced
        PRIMARY KEY (user_id, channel_id)
    );
    DROP INDEX results_by_guild;
    CREATE INDEX results_by_guild
        ON results (guild_id, game, finished_at, user_id, outcome, hints);
    CREATE INDEX results_by_guild_player
        ON results (guild_id, user_id, game, finished_at, outcome, hints);
    DROP INDEX results_by_user;
    CREATE INDEX results_by_user ON results
        (user_id, guild_id, game, finished_at, outcome, hints, moves, seconds_played, daily);
    """,
    # 6: board_messages.previous_id was never written.
    """
    ALTER TABLE board_messages DROP COLUMN previous_id;
    """,
    # 7: each player's last use of what has a cooldown, shared by every process.
    """
    CREATE TABLE cooldowns (
        user_id INTEGER NOT NULL,
        kind TEXT NOT NULL,                    -- hint, winnable, stats, ...
        used_at REAL NOT NULL,
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
        deal INTEGER NOT NULL,
        PRIMARY KEY (game, day)
    );
    CREATE TABLE challenges (
        id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: buttons carry it
        guild_id INTEGER NOT NULL,
        channel_id INTEGER,                    -- where its message is, once posted
        message_id INTEGER,
        challenger_id INTEGER NOT NULL,        -- 0: a player who asked to be forgotten
        challenged_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        deal INTEGER,                          -- chosen when accepted
        status TEXT NOT NULL,                  -- open, declined, accepted, over
        created_at REAL NOT NULL,
        accepted_at REAL,
        challenger_outcome TEXT,               -- won, lost, resigned, abandoned
        challenger_moves INTEGER,
        challenger_seconds REAL,
        challenged_outcome TEXT,
        challenged_moves INTEGER,
        challenged_seconds REAL
    );
    CREATE INDEX challenges_open ON challenges (status, created_at);
    ALTER TABLE games ADD COLUMN challenge_id INTEGER;
    ALTER TABLE results ADD COLUMN challenge_id INTEGER;
    CREATE TABLE replays (
        user_id INTEGER NOT NULL,
        place INTEGER NOT NULL,                -- the server's id; 0 outside servers
        state TEXT NOT NULL,                   -- the finished game, as games.state
        outcome TEXT NOT NULL,
        hints INTEGER NOT NULL,
        finished_at REAL NOT NULL,
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
            GROUP BY min(challenger_id, challenged_id), max(challenger_id, challenged_id)
        );
    CREATE UNIQUE INDEX challenges_open_pair
        ON challenges (min(challenger_id, challenged_id), max(challenger_id, challenged_id))
        WHERE status = 'open' AND challenger_id <> 0 AND challenged_id <> 0;
    CREATE INDEX challenges_by_challenger ON challenges (challenger_id, status, created_at);
    """,
)
