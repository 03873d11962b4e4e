"""Which language the records speak: what is posted for everyone in a server's channel (a
leaderboard, a daily board, a record, a challenge, a replay) in the server's language; what
the player alone reads (refusals, questions, a record across servers) in theirs; and a
challenge's message, in the language it was posted in until its end, whichever process
words it.

Two made-up languages, told apart at a glance: the player's wraps every sentence in ⟦ ⟧,
the server's in ⟪ ⟫. The core speaks the player's language around each call it answers,
as these tests do by hand."""

from __future__ import annotations

import gettext
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from babel import Locale

from bot.core import Core
from bot.flows.cooldowns import EVERY_S
from bot.flows.stats import EVERYWHERE
from bot.presenter import Posted
from bot.replies import Action, ChallengeAction, Member, Player
from bot.store import Stores
from bot.store.challenges import DAY_S
from bot.words import language
from bot.words.language import Words, install, speaking
from tests.said import shown

from .conftest import Clock, PositionPicture
from .daily_lines import NOV_22_DEAL
from .presenting import Recorder, answer
from .test_stats_flow import NOW, History

PLAYERS, SERVERS = "xx", "yy"  # the player's language, the server's
ALICE = Player(111, 900, language=PLAYERS, server_language=SERVERS)
BOB = Player(222, 900, language=PLAYERS, server_language=SERVERS)


class Wrapped(gettext.NullTranslations):
    """A catalog that translates every sentence by wrapping it, its {facts} kept."""

    def __init__(self, left: str, right: str) -> None:
        super().__init__()
        self.left, self.right = left, right

    def gettext(self, message: str) -> str:
        return f"{self.left}{message}{self.right}"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.gettext(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        # A card's rank letter is drawn on its face: one the font has.
        return message if context == "card rank" else self.gettext(message)


def players(text: str) -> bool:
    """Whether ``text`` is worded in the player's language and has nothing of the server's."""
    return "⟦" in text and "⟪" not in text


def servers(text: str) -> bool:
    return "⟪" in text and "⟦" not in text


@pytest.fixture(autouse=True)
def languages(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The two languages, for this test only; no cooldowns between its reads."""
    before = dict(language._installed)
    install(Words(PLAYERS, Wrapped("⟦", "⟧"), Locale.parse("en")))
    install(Words(SERVERS, Wrapped("⟪", "⟫"), Locale.parse("en")))
    for kind in ("stats", "leaderboard", "daily-board", "replay"):
        monkeypatch.setitem(EVERY_S, kind, 0.0)
    yield
    language._installed.clear()
    language._installed.update(before)
    language.words_for.cache_clear()


@pytest.fixture
def history(store: Stores, db_path: Path, clock: Clock) -> History:
    clock.now = NOW.timestamp()
    return History(db_path)


def test_the_made_up_languages_are_spoken() -> None:
    with speaking(PLAYERS):
        assert shown(language._("{count} won", count=3)) == "⟦3 won⟧"
    assert shown(language._("{count} won", count=3)) == "3 won", "English outside"


async def test_a_leaderboard_speaks_the_servers_language_and_a_refusal_the_players(
    core: Core, history: History
) -> None:
    history.add(ALICE.user_id, "won")
    history.add(BOB.user_id, "lost")
    with speaking(ALICE.language):  # as the core does around every call
        board = await answer(core.leaderboard, ALICE)
        refused = await answer(core.leaderboard, ALICE, period="decade")
    assert board.message is not None and not board.message.private
    lines = shown(board.message.text).splitlines()
    words = [line.removeprefix("-# ") for line in lines]  # Discord's small print: markup
    assert all(line.startswith("⟪") and line.endswith("⟫") for line in words), lines
    assert lines[-1].startswith("-# ⟪"), "the ranking's explanation is small print"
    assert servers(shown(board.text)) and f"<@{ALICE.user_id}>" in lines[1]
    assert refused.refused and players(shown(refused.text))
    assert "`week`, `month`, `all`" in shown(refused.text), "what a player types is not translated"


async def test_a_record_speaks_the_servers_language_in_a_server_and_the_players_across(
    core: Core, history: History
) -> None:
    history.add(ALICE.user_id, "won")
    alice = Member(ALICE.user_id, "Alice")
    with speaking(ALICE.language):
        here = await answer(core.stats, ALICE, alice)
        everywhere = await answer(core.stats, ALICE, alice, scope=EVERYWHERE)
        nobody = await answer(core.stats, BOB, Member(BOB.user_id, "Bob"))
    assert here.message is not None and not here.message.private
    assert servers(shown(here.text)) and servers(here.message.alt_text)
    assert everywhere.message is not None and everywhere.message.private
    assert players(shown(everywhere.text)) and players(everywhere.message.alt_text)
    assert nobody.message is not None and nobody.message.private and players(shown(nobody.text))


async def test_the_daily_board_speaks_the_servers_language(
    core: Core, history: History
) -> None:
    with speaking(ALICE.language):
        board = await answer(core.daily_board, ALICE, "trefoil")
        refused = await answer(core.daily_board, ALICE, "trefoil", "someday")
    assert board.message is not None and servers(shown(board.text))
    assert refused.refused and players(shown(refused.text)) and "`someday`" in shown(refused.text)


async def test_a_replay_in_the_channel_speaks_the_servers_language(
    core: Core, store: Stores
) -> None:
    with speaking(ALICE.language):
        refused = await answer(core.replay, ALICE)
        await answer(core.new_game, ALICE, "trefoil", 3)
        saved = await store.games.load(ALICE.user_id)
        assert saved is not None
        moved = await answer(core.act, ALICE, Action.MOVE, str(saved.game.legal_moves()[0]))
        replayed = await answer(core.replay, ALICE)
    assert refused.refused and players(shown(refused.text))
    assert not moved.refused and not replayed.refused, shown(replayed.text)
    assert replayed.message is not None and not replayed.message.private
    assert servers(shown(replayed.text)) and servers(replayed.message.alt_text)


@pytest.fixture
async def processes(
    db_path: Path, clock: Clock, picture: PositionPicture
) -> AsyncIterator[Callable[[], Awaitable[Core]]]:
    """Opens a core over the test's database as another process of the fleet would; every
    one is closed at the end, whatever the test found."""
    opened: list[Core] = []

    async def process() -> Core:
        opened.append(Core(await Stores.open(db_path), renderer=picture, clock=clock,
                           deals=random.Random(5)))
        return opened[-1]

    try:
        yield process
    finally:
        for core in opened:
            await core.close()


async def test_a_challenge_is_worded_to_its_end_in_the_language_it_was_posted_in(
    processes: Callable[[], Awaitable[Core]], clock: Clock
) -> None:
    first = await processes()
    assert await first.stores.meta.try_lead(lambda: None)
    await first.stores.pool.add("trefoil", NOV_22_DEAL, clock(), target=10)
    posting = Recorder(posted=Posted(5, 6))  # where the challenge's message went
    with speaking(ALICE.language):
        await first.challenge(ALICE, Member(BOB.user_id, "Bob", member=True), "trefoil",
                              presenter=posting)
    asked = posting.reply
    assert asked.message is not None and asked.message.challenge is not None
    assert servers(shown(asked.message.text))
    challenge_id = asked.message.challenge.challenge_id
    assert asked.message.challenge.language == SERVERS, "its buttons are labelled alike"
    await first.close()

    # Another process, where the server's language has changed meanwhile: Bob accepts.
    bob_now = Player(BOB.user_id, BOB.guild_id, language=PLAYERS, server_language="en-US")
    second = await processes()
    with speaking(bob_now.language):
        accepted = await answer(second.press_challenge, bob_now, challenge_id, ChallengeAction.ACCEPT)
    assert accepted.message is not None and servers(shown(accepted.message.text))
    assert f"deal {NOV_22_DEAL}" in shown(accepted.message.text)
    assert accepted.note is not None and players(shown(accepted.note)), "a note for Bob alone"
    await second.close()

    # The leader of a third process closes it a day later, speaking no one's language.
    clock.advance(DAY_S + 1)
    third = await processes()
    [update] = await third.challenges.close_due()
    assert (update.channel_id, update.message_id) == (5, 6)
    assert servers(shown(update.text)) and "⟪Neither won this one: no winner.⟫" in shown(update.text)


async def test_a_reply_to_a_press_on_a_challenge_is_the_players(core: Core) -> None:
    with speaking(BOB.language):
        asked = await answer(core.challenge, ALICE, Member(BOB.user_id, "Bob", member=True), "trefoil")
        assert asked.message is not None and asked.message.challenge is not None
        stranger = Player(333, 900, language=PLAYERS, server_language=SERVERS)
        refused = await answer(core.press_challenge, stranger, asked.message.challenge.challenge_id,
                                             ChallengeAction.ACCEPT)
    assert refused.refused and players(shown(refused.text))

