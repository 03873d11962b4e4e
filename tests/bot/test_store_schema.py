"""The schema is written once (bot/store/migrations.py): each backend, migrated from empty
by its own migrations, holds the same tables, columns, keys, indexes and checks; and no
migration a database has run is edited.

Each database is read from its own catalog (SQLite's pragmas and stored SQL, PostgreSQL's
pg_catalog and information_schema) into one shape, where the spellings that differ by
design are made alike: a type by what it holds, ``min`` for ``LEAST``, a default without
its cast, and PostgreSQL's name of the row id at an index's end, which every SQLite index
holds unnamed.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from bot.store import Stores
from bot.store.migrations import POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS

# A type by what it holds, as each backend names it; any other type stays unlike all.
SQLITE_TYPES = {"INTEGER": "integer", "REAL": "real", "TEXT": "text"}
POSTGRES_TYPES = {
    "bigint": "integer",
    "integer": "integer",
    "double precision": "real",
    "boolean": "integer",  # SQLite keeps 0 and 1
    "text": "text",
}
SPELLED_ALIKE = {"least": "min", "greatest": "max"}
POSTGRES_ONLY = {"schema_version"}  # its version; SQLite's is PRAGMA user_version


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    not_null: bool
    default: str | None
    identity: bool  # an id of its own for each new row, never reused


@dataclass(frozen=True)
class Index:
    keys: tuple[str, ...]
    unique: bool
    where: str | None  # a partial index's condition


@dataclass(frozen=True)
class Table:
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...]
    unique: frozenset[tuple[str, ...]]  # UNIQUE constraints
    checks: frozenset[tuple[str, frozenset[str]]]  # (its column, the values it names)
    foreign_keys: frozenset[tuple[tuple[str, ...], str, tuple[str, ...]]]
    indexes: dict[str, Index]  # the indexes created by name


# -- alike ------------------------------------------------------------------------------


def expression(sql: str) -> str:
    """An expression as both backends would spell it: no casts, no grouping parentheses
    (PostgreSQL adds them; a call keeps its own), lower case but quoted text, single
    spaces."""
    sql = "".join(
        part if part.startswith("'") else part.lower() for part in re.split("('[^']*')", sql)
    )
    sql = re.sub(r"::[a-z]+( precision)?", "", sql)
    sql = re.sub(r"\b(least|greatest)\(", lambda m: SPELLED_ALIKE[m[1]] + "(", sql)
    kept, calls = [], []
    for char in sql:
        if char == "(":
            after = kept[-1] if kept else ""
            calls.append(after.isalnum() or after == "_")  # a function's name just before
            char = char if calls[-1] else " "
        elif char == ")":
            char = char if calls.pop() else " "
        kept.append(char)
    return " ".join("".join(kept).split())


def default(sql: str | None) -> str | None:
    return None if sql is None else expression(sql)


def literals(sql: str) -> frozenset[str]:
    return frozenset(re.findall(r"'([^']*)'", sql))


def split_top(sql: str) -> list[str]:
    """``sql`` split at the commas outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(sql):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(sql[start:i].strip())
            start = i + 1
    return [*parts, sql[start:].strip()]


def parenthesised(sql: str, start: int) -> tuple[str, int]:
    """The text inside the parentheses that open at or after ``start``, and where they end."""
    opening = sql.index("(", start)
    depth = 0
    for i in range(opening, len(sql)):
        depth += {"(": 1, ")": -1}.get(sql[i], 0)
        if depth == 0:
            return sql[opening + 1 : i], i + 1
    raise ValueError(f"unbalanced: {sql}")


# -- SQLite -----------------------------------------------------------------------------


def sqlite_schema(path: Path) -> dict[str, Table]:
    con = sqlite3.connect(path)
    try:
        tables = con.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite_%'"
        ).fetchall()
        return {name: _sqlite_table(con, name, sql) for name, sql in tables}
    finally:
        con.close()


def _sqlite_table(con: sqlite3.Connection, table: str, sql: str) -> Table:
    sql = re.sub(r"--[^\n]*", "", sql)
    info = con.execute(f"PRAGMA table_info({table})").fetchall()
    primary_key = tuple(row[1] for row in sorted(info, key=lambda row: row[5]) if row[5])
    columns = tuple(
        Column(
            name, SQLITE_TYPES.get(type_, f"{type_}?"), bool(not_null or pk), default(value),
            re.search(rf"\b{name}\s+INTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b", sql, re.I)
            is not None,
        )
        for _, name, type_, not_null, value, pk in info
    )
    unique, indexes = set(), {}
    for _, name, is_unique, origin, _ in con.execute(f"PRAGMA index_list({table})"):
        if origin == "u":
            keys = con.execute(f"PRAGMA index_info({name})").fetchall()
            unique.add(tuple(row[2] for row in keys))
        elif origin == "c":
            [index_sql] = con.execute(
                "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", (name,)
            ).fetchone()
            on = re.search(rf"\bON\s+{table}\b", index_sql, re.I)
            assert on is not None, index_sql
            keys_sql, end = parenthesised(index_sql, on.end())
            where = re.match(r"\s*WHERE\s+(.*)", index_sql[end:], re.I | re.S)
            indexes[name] = Index(
                tuple(expression(key) for key in split_top(keys_sql)), bool(is_unique),
                expression(where[1]) if where else None,
            )
    checks = set()
    for part in split_top(parenthesised(sql, 0)[0]):
        check = re.search(r"\bCHECK\s*\(", part, re.I)
        if check:
            first = part.split()[0].upper()
            column = "" if first in ("CHECK", "CONSTRAINT") else part.split()[0]
            checks.add((column, literals(parenthesised(part, check.start())[0])))
    foreign_keys: dict[int, tuple[list[str], str, list[str]]] = {}
    for key_id, _, other, mine, theirs, *_ in con.execute(f"PRAGMA foreign_key_list({table})"):
        entry = foreign_keys.setdefault(key_id, ([], other, []))
        entry[0].append(mine)
        entry[2].append(theirs)
    return Table(
        columns, primary_key, frozenset(unique), frozenset(checks),
        frozenset((tuple(a), other, tuple(b)) for a, other, b in foreign_keys.values()),
        indexes,
    )


# -- PostgreSQL -------------------------------------------------------------------------

COLUMNS = """
SELECT table_name, column_name, data_type, is_nullable = 'NO', column_default,
       is_identity = 'YES'
FROM information_schema.columns WHERE table_schema = current_schema()
ORDER BY table_name, ordinal_position
"""
CONSTRAINTS = """
SELECT c.conrelid::regclass::text, c.contype::text, pg_get_constraintdef(c.oid),
       ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY AS k(n, i)
             JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i),
       c.confrelid::regclass::text,
       ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY AS k(n, i)
             JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i)
FROM pg_constraint c WHERE c.connamespace = current_schema()::regnamespace
"""
INDEXES = """
SELECT t.relname::text, x.relname::text, i.indisunique, pg_get_expr(i.indpred, i.indrelid),
       ARRAY(SELECT pg_get_indexdef(i.indexrelid, k, true)
             FROM generate_series(1, i.indnkeyatts) AS k ORDER BY k)
FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_class x ON x.oid = i.indexrelid
WHERE t.relnamespace = current_schema()::regnamespace
  AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
"""


async def postgres_schema(url: str) -> dict[str, Table]:
    conn = await asyncpg.connect(url)
    try:
        columns, constraints, indexes = (
            await conn.fetch(COLUMNS), await conn.fetch(CONSTRAINTS), await conn.fetch(INDEXES)
        )
    finally:
        await conn.close()
    names = {row[0] for row in columns} - POSTGRES_ONLY
    schema = {}
    for table in names:
        mine = [row for row in constraints if row[0] == table]
        [primary_key] = [tuple(row[3]) for row in mine if row[1] == "p"] or [()]
        by_name = {}
        for table_name, name, unique, where, keys in indexes:
            if table_name == table:
                keys = [expression(key) for key in keys]
                if len(primary_key) == 1 and keys[-1] == primary_key[0] and not unique:
                    keys.pop()  # the row id, at the end of every SQLite index unnamed
                by_name[name] = Index(
                    tuple(keys), unique, None if where is None else expression(where)
                )
        schema[table] = Table(
            tuple(
                Column(name, POSTGRES_TYPES.get(type_, f"{type_}?"), not_null, default(value),
                       identity)
                for table_name, name, type_, not_null, value, identity in columns
                if table_name == table
            ),
            primary_key,
            frozenset(tuple(row[3]) for row in mine if row[1] == "u"),
            frozenset(
                (row[3][0] if len(row[3]) == 1 else "", literals(row[2]))
                for row in mine if row[1] == "c"
            ),
            frozenset((tuple(row[3]), row[4], tuple(row[5])) for row in mine if row[1] == "f"),
            by_name,
        )
    return schema


# -- the tests --------------------------------------------------------------------------


async def built_from_empty(target: Path | str) -> None:
    store = await Stores.open(target)
    await store.close()


async def test_both_backends_build_the_same_schema_from_empty(
    tmp_path: Path, pg_url: str
) -> None:
    await built_from_empty(tmp_path / "fresh.db")
    await built_from_empty(pg_url)
    sqlite = sqlite_schema(tmp_path / "fresh.db")
    postgres = await postgres_schema(pg_url)
    # What is compared is there to compare: the readers see tables, keys and indexes.
    assert {"games", "results", "challenges", "player_settings"} <= set(sqlite)
    assert sqlite["challenges"].indexes["challenges_open_pair"].where is not None
    assert sqlite["results"].checks and sqlite["games"].unique
    assert sorted(sqlite) == sorted(postgres)
    for table in sqlite:
        assert sqlite[table] == postgres[table], table


async def test_postgresql_keeps_every_discord_id_in_64_bits(pg_url: str) -> None:
    await built_from_empty(pg_url)
    conn = await asyncpg.connect(pg_url)
    try:
        columns = await conn.fetch(COLUMNS)
    finally:
        await conn.close()
    ids = [(row[0], row[1], row[2]) for row in columns if re.fullmatch(r"(.+_)?id", row[1])]
    assert len(ids) > 10
    assert [column for column in ids if column[2] != "bigint"] == []


# A digest of each migration's SQL, comments and spacing aside: databases in the field
# have run these, so none is edited; a change to the schema is a new migration at the
# end, and its digest is added here.
SQLITE_RUN = (
    "2c084e58e8ed", "314506182029", "4b3acb57a37e", "3c4ef721931a", "543e2806366c",
    "9e95a88e73a2", "a8645cc3a7fe", "088e6151525a", "ef06eef76e83", "f9bb8d4057cd",
    "fdefd0b91011", "809b7f16a584", "01a7e8b7e2ac", "357957aaec76", "800d46ad1788",
)
POSTGRES_RUN = (
    "24d7570ecf8a", "9e95a88e73a2", "9a4ba3e18e21", "1193eb556309", "ef06eef76e83",
    "f9bb8d4057cd", "e3b675109f33", "516ac98d8ff6", "2392f6760873", "0603308f4bc2",
    "c8035b6994d9",
)


def digest(sql: str) -> str:
    return hashlib.sha256(" ".join(re.sub(r"--[^\n]*", "", sql).split()).encode()).hexdigest()[:12]


def test_no_migration_a_database_has_run_is_edited() -> None:
    assert [digest(sql) for sql in SQLITE_MIGRATIONS] == list(SQLITE_RUN)
    assert [digest(sql) for sql in POSTGRES_MIGRATIONS] == list(POSTGRES_RUN)
