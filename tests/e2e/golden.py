"""The golden record of a scripted Discord session (``test_golden.py``): every message the
bot posts or edits, written as readable text, step by step, and compared with the recording
in ``golden/``.

What is recorded is what a player sees of each message: its channel, whether it is for one
player alone (ephemeral) or silent, whom it notifies, its text and embeds, its attachments'
names and alt text (never the pictures' bytes), and its controls (buttons with their emoji,
style and state; menus with their placeholder and options), each control's custom_id too,
since a board's buttons must keep working after a restart. The ids Discord makes up are
written as names (``<@alice>``, ``#games``, ``M3``): they are new every run, and nothing
else is normalised, so that any change of wording shows as a difference.

The run is made the same every time by the bot's inputs, not by the record: the clock is
the test's (a fixed step per step), random deals come from a seeded generator, and the
solver searches a budget of positions instead of seconds (``deterministic_solver``), in a
thread of this process. After each step the session waits until the bot has nothing left
to do (``Session.settle``): answers, follow-ups, collapsed boards, challenge updates and the
solver's "no win is possible" amendments all land in the step that caused them.
"""

from __future__ import annotations

import asyncio
import difflib
import os
import random
import re
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from .fake_discord import (
    EPHEMERAL,
    LOADING,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
    FakeDiscord,
    FakeMessage,
    MessageState,
    Reply,
    walk_components,
)

GOLDEN = Path(__file__).parent / "golden"
UPDATE = "GOLDEN_UPDATE"  # set to 1 to write the recording anew instead of comparing

# The solver decides by positions searched, never by seconds: a search cut short by a
# busy machine would otherwise hint otherwise, or miss a proof. About what the compiled
# solver searches in the seconds the bot gives it, halved (a thread here shares the GIL).
POSITIONS_PER_S = 150_000
DEALS_SEED = 44  # the random deals of /new without a deal

STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium"}


class StepClock:
    """The bot's clock (Unix seconds): still, until the session moves it on."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def skip(self, seconds: float) -> None:
        self.now += seconds


def deterministic_solver(monkeypatch: pytest.MonkeyPatch) -> ThreadPoolExecutor:
    """The bot's solver made to answer the same on every run: in a thread of this process
    (so that it can be patched), on budgets of positions, with nothing remembered from
    searches before this test, no rest between verdict checks (so that a step's verdict
    comes within it), and no pool of winnable deals filled in the background (the test
    fills it); random deals from a seeded generator."""
    from bot.core import Core
    from bot.flows import deals as deals_flow
    from bot.flows import verdicts as solver_flow
    from bot.workers import solver as solver_worker
    from engine.solver import hint, hints, sampled, solve
    from engine.solver.lines import PLANS

    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="golden-solver")
    opened = Core.open.__func__  # type: ignore[attr-defined]

    async def open_core(cls: type[Core], /, database: Path | str, **options: Any) -> Core:
        options.setdefault("solver", solver_worker.SolverWorker(executor))
        options.setdefault("deals", random.Random(DEALS_SEED))
        options.setdefault("pace", solver_flow.Pace(rest=no_rest))
        core: Core = await opened(cls, database, **options)
        return core

    def positions(budget_s: float) -> int:
        return max(1_000, int(budget_s * POSITIONS_PER_S))

    def hint_by_positions(game: Any, *, budget_s: float = 1.0, **_: Any) -> Any:
        return hint(game, positions=positions(budget_s))

    def solve_by_positions(game: Any, *, budget_s: float = 2.0, **_: Any) -> Any:
        return solve(game, positions=positions(budget_s))

    async def no_pool_keeping(*_: Any, **__: Any) -> None:
        await asyncio.Event().wait()

    async def no_rest(_seconds: float) -> None:
        await asyncio.sleep(0)

    monkeypatch.setattr(Core, "open", classmethod(open_core))
    monkeypatch.setattr(solver_worker, "hint", hint_by_positions)
    monkeypatch.setattr(solver_worker, "solve", solve_by_positions)
    monkeypatch.setattr(deals_flow.Deals, "keep_pool_filled", no_pool_keeping)
    for memory in (PLANS, sampled.SAMPLES, sampled.UNDER_WAY, hints.PROVEN_LOST):
        memory.clear()
    return executor


# -- the record ---------------------------------------------------------------------------


class Names:
    """Discord's ids as names: players, servers, channels, the bot, and each message by its
    place in the session (M1, M2, ...)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.ids: dict[int, str] = {fake.bot_user.id: "bot"}
        for name, user in fake.users.items():
            self.ids[user.id] = name
        for guild in (fake.guild, fake.other_guild, fake.stranger_guild):
            self.ids[guild.id] = f"guild:{guild.name}"
            for channel in guild.channels:
                self.ids[channel.id] = f"#{channel.name}"
        self.messages: dict[int, str] = {}

    def message(self, message_id: int) -> str:
        if message_id not in self.messages:
            self.messages[message_id] = f"M{len(self.messages) + 1}"
        return self.messages[message_id]

    def channel(self, message: FakeMessage) -> str:
        channel = message.channel
        if channel.id in self.ids:
            where = self.ids[channel.id]
            guild = self.fake.guild_of(channel)
            return where if guild is self.fake.guild else f"{where} in {guild.name if guild else '?'}"
        for user_id, dm in self.fake.dm_channels.items():
            if dm.id == channel.id:
                return f"DM of {self.ids.get(user_id, '?')}"
        return "another channel"

    def text(self, text: str) -> str:
        """``text`` with every id the fake made written as its name."""

        def named(match: re.Match[str]) -> str:
            number = int(match.group(0))
            if number in self.ids:
                return self.ids[number]
            if number in self.messages:
                return self.messages[number]
            return match.group(0)

        return re.sub(r"\d{15,}", named, text)


def _lines(label: str, text: str) -> Iterator[str]:
    yield f"  {label}:"
    for line in text.split("\n"):
        yield f"    | {line}"


def describe(state: MessageState, names: Names) -> Iterator[str]:
    """A message as a player sees it, line by line."""
    t = names.text
    if state.content:
        yield from _lines("text", t(state.content))
    for embed in state.embeds:
        yield "  embed:"
        for key in ("title", "description"):
            if embed.get(key):
                yield from (f"  {line}" for line in _lines(key, t(str(embed[key]))))
        for field in embed.get("fields") or ():
            yield f"    field {t(str(field.get('name')))!r}: {t(str(field.get('value')))!r}"
        for key in ("footer", "author"):
            if (embed.get(key) or {}).get("text" if key == "footer" else "name"):
                yield f"    {key}: {t(str(embed[key].get('text') or embed[key].get('name')))}"
        for key in ("image", "thumbnail"):
            if embed.get(key):
                yield f"    {key}: {embed[key].get('url', '')}"
    for attachment in state.attachments:
        yield f"  file: {t(attachment.filename)} ({attachment.content_type})"
        if attachment.description is not None:
            yield from (f"  {line}" for line in _lines("alt text", t(attachment.description)))
    for row in state.components:
        yield "  row:"
        for component in walk_components(row.get("components") or ()):
            raw = component.raw
            state_words = " (disabled)" if component.disabled else ""
            if component.is_button:
                emoji = (raw.get("emoji") or {}).get("name")
                face = f"{emoji} {component.label}" if emoji else f"{component.label}"
                style = STYLES.get(component.style or 0, str(component.style))
                yield f"    [{face}] {style}{state_words} · {t(component.custom_id or '')}"
            else:
                yield (f"    menu {component.placeholder!r}{state_words} · "
                       f"{t(component.custom_id or '')}")
                for option in component.options:
                    default = " (default)" if option.get("default") else ""
                    yield f"      {option['value']!r}: {t(option['label'])}{default}"


class Session:
    """A scripted session: each ``step`` is one thing a player does; what it made the bot
    post or edit is recorded under its title, once the bot has settled."""

    def __init__(self, fake: FakeDiscord, bot: Any, clock: StepClock, *,
                 step_s: float = 40.0) -> None:
        self.fake = fake
        self.bot = bot
        self.clock = clock
        self.step_s = step_s  # the clock moves this far before each step: past every cooldown
        self.names = Names(fake)
        self.blocks: list[str] = []
        self._seen: dict[int, int] = {}  # message id -> its versions looked at
        self._recorded: dict[int, MessageState] = {}

    async def step(self, title: str, action: Callable[[], Awaitable[Any]], *,
                   record: bool = True, wait_s: float | None = None) -> Any:
        """Do ``action`` (a player's command or press) after moving the clock on by
        ``wait_s`` (default: the session's step), let the bot settle, and record what
        changed. ``record=False``: a step that only leads to what is recorded (its
        messages are still followed)."""
        self.clock.skip(self.step_s if wait_s is None else wait_s)
        result = await action()
        await self.settle()
        changed = self._changes()
        if record:
            lines = [f"=== {title}"]
            if isinstance(result, Reply) and result.kind == "autocomplete":
                lines.append("  choices:")
                lines += [f"    {c['value']!r}: {self.names.text(c['name'])}" for c in result.choices]
            for line in changed:
                lines.append(line)
            if len(lines) == 1:
                lines.append("  (nothing changed)")
            self.blocks.append("\n".join(lines))
        return result

    def _changes(self) -> list[str]:
        """Every version of every message posted or edited since the last step, in the
        order the messages were posted; a version showing what the one before showed, or
        still "thinking…", is passed over (a deferral comes or not, by the machine's load)."""
        out: list[str] = []
        for message_id, message in self.fake.messages.items():
            versions = len(message.history)
            before = self._seen.get(message_id, 0)
            self._seen[message_id] = versions
            for state in message.history[before:versions]:
                previous = self._recorded.get(message_id)
                if state.flags & LOADING or (previous is not None and _same(previous, state)):
                    continue
                if state.deleted:
                    if previous is not None:
                        out.append(f"--- {self.names.message(message_id)} deleted")
                    continue  # else a "thinking…" taken back: never seen with anything in it
                self._recorded[message_id] = state
                label = self.names.message(message_id)
                out.append(self._heading(label, message, state, new=previous is None))
                out += describe(state, self.names)
        return out

    def _heading(self, label: str, message: FakeMessage, state: MessageState, *,
                 new: bool) -> str:
        words = ["posted" if new else "edited", label, "in", self.names.channel(message)]
        inter = message.interaction
        if new and inter is not None:
            words += ["for", inter.user.name]
        flags = []
        if state.flags & EPHEMERAL:
            flags.append("ephemeral")
        if state.flags & SUPPRESS_NOTIFICATIONS:
            flags.append("silent")
        if state.flags & SUPPRESS_EMBEDS:
            flags.append("no embeds")
        # Discord notifies when a message is posted (its edits here allow no mentions)
        notified = sorted(self.names.ids.get(u, str(u)) for u in message.notified) if new else []
        if notified:
            flags.append("notifies " + ", ".join(notified))
        return "--- " + " ".join(words) + (f" ({', '.join(flags)})" if flags else "")

    async def settle(self, *, timeout: float = 30.0) -> None:
        """Wait until the bot is done with everything the step set off: no interaction
        being answered, no edit waiting or under way, no verdict check waiting or running,
        and the fake heard nothing new for a few looks in a row."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        quiet, last = 0, None
        while quiet < 3:
            if loop.time() > deadline:
                raise AssertionError(f"the bot did not settle within {timeout} s: {self._busy()}")
            await asyncio.sleep(0.01)
            heard = (len(self.fake.requests), len(self.fake.interactions),
                     sum(len(m.history) for m in self.fake.messages.values()))
            if self._busy() or heard != last:
                quiet = 0
            else:
                quiet += 1
            last = heard

    def _busy(self) -> list[str]:
        busy = [t.get_name() for t in asyncio.all_tasks()
                if not t.done() and t.get_name().startswith(BUSY_TASKS)]
        verdicts = self.bot.core.verdicts
        if verdicts.waiting or _checking(verdicts):
            busy.append("verdict check")
        tidy = self.bot.tidy  # its queues: no public count of edits waiting or under way
        if tidy._hooked or tidy._hooking or tidy._waiting:
            busy.append("tidy edits")
        if any(not i.answered for i in self.fake.interactions.values()):
            busy.append("an interaction unanswered")
        return busy

    def record(self) -> str:
        return "\n\n".join(self.blocks) + "\n"


# Tasks that answer an interaction: discord.py's command tree, its dynamic items (buttons
# and menus) and views, and the bot's own events.
BUSY_TASKS = ("CommandTree-invoker", "discord-ui-", "discord.py: on_interaction")


def _checking(verdicts: Any) -> bool:
    """Whether a verdict check is being worked on (``Session.settle``'s own flag)."""
    return bool(getattr(verdicts, "golden_checking", 0))


def watch_verdict_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Count the verdict checks under way (from the queue to the amendment), so that
    ``settle`` waits for them: a check popped from the queue is nowhere else to be seen."""
    from bot.flows import verdicts as solver_flow

    original = solver_flow.Verdicts.run_waiting_checks

    async def counted(self: Any) -> None:
        self.golden_checking = getattr(self, "golden_checking", 0) + 1
        try:
            await original(self)
        finally:
            self.golden_checking -= 1

    monkeypatch.setattr(solver_flow.Verdicts, "run_waiting_checks", counted)


def _same(a: MessageState, b: MessageState) -> bool:
    return (a.content, a.flags, a.embeds, a.components,
            [(x.filename, x.description) for x in a.attachments]) == (
        b.content, b.flags, b.embeds, b.components,
        [(x.filename, x.description) for x in b.attachments])


def compare(name: str, record: str) -> None:
    """The record against ``golden/<name>``: equal, or a unified diff. With
    ``GOLDEN_UPDATE=1`` the file is written anew instead."""
    path = GOLDEN / name
    if os.environ.get(UPDATE) == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_text(record, encoding="utf-8")
        return
    if not path.exists():
        raise AssertionError(f"{path} is missing: record it with {UPDATE}=1")
    expected = path.read_text(encoding="utf-8")
    if record != expected:
        diff = "".join(difflib.unified_diff(
            expected.splitlines(keepends=True), record.splitlines(keepends=True),
            fromfile=f"golden/{name}", tofile="this run"))
        raise AssertionError(
            f"what the session shows differs from golden/{name} "
            f"(if the change is meant, record it again with {UPDATE}=1):\n{diff}")
