"""The catalogs: the template holds every message of the source as it is now, each shipped
language translates every message soundly, the contributors' tools do what the README
says, and every reply still fits Discord's limits when the words are 40% longer (the
pseudo-language ``en-XA``, tests/pseudo.py)."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog

from bot.core import Core
from bot.replies import Action, Member, MenuOption, Player, Reply
from bot.replies.text import Em, Strong, Text, fill
from bot.store import Stores
from bot.words.language import (
    LANGUAGES,
    Words,
    _,
    compile_catalog,
    language_of,
    n_,
    po_path,
    speaking,
    words_for,
)
from bot.workers.solver import SolverWorker
from engine import GAMES
from tests.pseudo import PSEUDO, pseudo_catalog, stretch, stretched_share
from tests.said import shown
from tools import catalog as catalogs
from tools.catalog import (
    TEMPLATE,
    body,
    catalog_problems,
    discord_rule,
    extract,
    init,
    kind_of,
    placeholders,
    plural_problems,
    problems,
    read,
    translated_languages,
    update,
)

from .conftest import Clock, PositionPicture
from .daily_lines import NOV_22, NOV_22_DEAL, NOV_22_WIN
from .discord_limits import choices_over_limits, over_limits
from .presenting import answer

# -- the template -------------------------------------------------------------------------


def test_the_template_holds_every_message_of_the_source_as_it_is_now() -> None:
    assert body(extract()) == body(read(TEMPLATE)), (
        "the source's messages changed: run `python -m tools.catalog extract`, then "
        "`python -m tools.catalog update`, and commit the catalogs"
    )


def test_both_forms_of_a_plural_message_carry_the_same_facts() -> None:
    """``{count}`` and every fact in both English forms: in French, Portuguese and others,
    the "singular" form is also said of 0, so it cannot leave out the number."""
    differ = [message.id for message in read(TEMPLATE) if message.pluralizable
              and placeholders(message.id[0]) != placeholders(message.id[1])]
    assert differ == []


def test_extraction_takes_every_kind_of_message_with_its_place_and_note(
    tmp_path: Path,
) -> None:
    source = tmp_path / "bot" / "sample.py"
    source.parent.mkdir()
    source.write_text(
        "UNDO = N_('Undo')\n"
        "# TRANSLATORS: said when a game is won\n"
        "won = _('You won in {moves} moves!', moves=3)\n"
        "moves = n_('{count} move', '{count} moves', 2)\n"
        "queen = p_('card rank', 'Q')\n"
        "raise IllegalMove('{card} cannot go there.', 'no', card=c)\n"
        "again = _('Undo')\n"
        "new = named('command', 'new')\n"
        "about = locale_str('Deal a new game')\n"
        "tip = _('{name} lists the moves', name=code(p_('option', 'from')), x=f(1))\n"
        "button = Button(label=label('Deal again'))\n"
        "wins = words.plural('{count} win', '{count} wins', 2)\n"
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_sample.py").write_text("_('Not for players')\n")
    template = extract(tmp_path)
    found = {(m.context, m.id): m for m in template if m.id}
    assert set(found) == {
        (None, "Undo"), (None, "You won in {moves} moves!"),
        (None, ("{count} move", "{count} moves")), ("card rank", "Q"),
        (None, "{card} cannot go there."), ("command", "new"), (None, "Deal a new game"),
        (None, "{name} lists the moves"), ("option", "from"),  # which Babel alone loses
        (None, "Deal again"), (None, ("{count} win", "{count} wins")),  # plain words
    }, "tests are not extracted"
    assert found[None, "Undo"].locations == [("bot/sample.py", 1), ("bot/sample.py", 7)]
    assert found[None, "You won in {moves} moves!"].auto_comments == ["said when a game is won"]
    assert kind_of(found[None, "Deal a new game"]) == "description"
    assert kind_of(found["command", "new"]) == "command"
    assert kind_of(found[None, "Undo"]) is None
    assert found["card rank", "Q"].auto_comments == [
        "A rank as the language's cards print it: one or two characters."]


def test_extracting_again_with_nothing_changed_leaves_the_template_as_it_is(
    tmp_path: Path,
) -> None:
    path = tmp_path / "solitaire.pot"
    template = extract()
    assert catalogs.write_template(template, path)
    written = path.read_bytes()
    assert not catalogs.write_template(extract(), path)
    assert path.read_bytes() == written
    assert b"POT-Creation-Date" in written and b".py:" not in written, "files, no lines"


# -- a language's catalog -----------------------------------------------------------------


def small_template() -> Catalog:
    template = Catalog(domain="solitaire")
    template.add("You won in {moves} moves!", locations=[("bot/a.py", 1)])
    template.add(("{count} move", "{count} moves"), locations=[("bot/a.py", 1)])
    template.add("new", context="command", locations=[("bot/a.py", 1)])
    template.add("Q", context="card rank", locations=[("bot/a.py", 1)])
    return template


def test_init_makes_an_untranslated_catalog_with_the_languages_plural_rule(
    tmp_path: Path,
) -> None:
    path = init("pt-BR", small_template(), tmp_path)
    assert path == tmp_path / "pt_BR" / "LC_MESSAGES" / "solitaire.po"
    catalog = read(path)
    # The rule starts as Babel's data has it (the translator may then decide): one that
    # suits the language, every plural message with a place for each of its forms.
    assert plural_problems(catalog, Locale.parse("pt_BR")) == []
    moves = catalog.get("{count} move")
    assert moves is not None and moves.string == ("",) * catalog.num_plurals
    found = problems("pt-BR", small_template(), tmp_path)
    assert found == [
        "'You won in {moves} moves!': untranslated",
        "'{count} move': untranslated",
        "[command] 'new': untranslated",
        "[card rank] 'Q': untranslated",
    ]
    with pytest.raises(FileExistsError):
        init("pt-BR", small_template(), tmp_path)


def translate(path: Path, strings: dict[str, str | tuple[str, ...]]) -> None:
    catalog = read(path)
    for message in catalog:
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        if key in strings:
            message.string = strings[key]
    catalogs._write(catalog, path)


GERMAN: dict[str, str | tuple[str, ...]] = {
    "You won in {moves} moves!": "Gewonnen in {moves} Zügen!",
    "{count} move": ("{count} Zug", "{count} Züge"),
    "new": "neu",
    "Q": "D",
}


def test_a_catalog_with_every_message_translated_soundly_is_complete(tmp_path: Path) -> None:
    path = init("de", small_template(), tmp_path)
    translate(path, GERMAN)
    assert problems("de", small_template(), tmp_path) == []
    assert catalogs.check(["de"], small_template(), tmp_path) == 0


def test_update_brings_in_new_messages_drops_gone_ones_and_marks_reworded_ones_fuzzy(
    tmp_path: Path,
) -> None:
    path = init("de", small_template(), tmp_path)
    translate(path, GERMAN)
    template = small_template()
    template.delete("Q", context="card rank")
    template.delete("You won in {moves} moves!")
    template.add("You won in {moves} moves!!", locations=[("bot/a.py", 1)])
    template.add("Redeal", locations=[("bot/b.py", 1)])
    update("de", template, tmp_path)
    catalog = read(path)
    assert catalog.get("Q", "card rank") is None and not catalog.obsolete, "dropped"
    reworded = catalog.get("You won in {moves} moves!!")
    assert reworded is not None and reworded.fuzzy
    assert reworded.string == "Gewonnen in {moves} Zügen!"
    assert "#| msgid \"You won in {moves} moves!\"" in path.read_text(), "the old English"
    assert problems("de", template, tmp_path) == [
        "'You won in {moves} moves!!': fuzzy: check the translation, then remove the fuzzy mark",
        "'Redeal': untranslated",
    ]
    assert catalogs.check(["de"], template, tmp_path) == 1


def test_a_stale_or_missing_catalog_is_told(tmp_path: Path) -> None:
    assert problems("fr", small_template(), tmp_path) == [
        "no catalog yet: `python -m tools.catalog init fr`"]
    init("fr", small_template(), tmp_path)
    more = small_template()
    more.add("Hint", locations=[("bot/a.py", 1)])
    assert "'Hint': not in the catalog: run `update`" in problems("fr", more, tmp_path)


def german(message: str | tuple[str, str], string: str | tuple[str, ...],
           context: str | None = None) -> list[str]:
    """What the checks find in a German catalog of one message."""
    template, catalog = Catalog(), Catalog(locale="de")
    template.add(message, context=context)
    catalog.add(message, string, context=context)
    return catalog_problems(catalog, template, Locale.parse("de"))


def test_placeholders_must_be_those_of_the_english() -> None:
    assert german("Pile {pile} is empty.", "Stapel {pile} ist leer.") == []
    assert german("Pile {pile} is empty.", "Stapel {stapel} ist leer.") == [
        "'Pile {pile} is empty.': placeholders ['stapel'] in 'Stapel {stapel} ist leer.', "
        "not ['pile']"]
    assert german(("{count} move", "{count} moves"), ("ein Zug", "{count} Züge")) == [
        "'{count} move': placeholders [] in 'ein Zug', not ['count']"]
    assert german("Pile {pile} is empty.", "Stapel {pile ist leer.") != []


def test_emphasis_and_code_must_be_those_of_the_english() -> None:
    assert german("<b>No win is possible.</b> Try <i>once</i> `/undo`.",
                  "<b>Kein Sieg möglich.</b> Versuch <i>einmal</i> `/rückgängig`.") == []
    assert german("<b>No win is possible.</b>", "<b>Kein Sieg möglich.") == [
        "'<b>No win is possible.</b>': '<b>Kein Sieg möglich.' has 0 </b>, the English has 1",
        "'<b>No win is possible.</b>': '<b>Kein Sieg möglich.': each <b> and <i> must close "
        "after it opens, inside the other"]
    assert german("<b>No</b> win", "</b>Kein<b> Sieg") == [
        "'<b>No</b> win': '</b>Kein<b> Sieg': each <b> and <i> must close after it opens, "
        "inside the other"], "the marks in the wrong order would show as they are"
    assert german("<b>No win is possible.</b>", "**Kein Sieg möglich.**") == [
        "'<b>No win is possible.</b>': '**Kein Sieg möglich.**' has 0 <b>, the English has 1",
        "'<b>No win is possible.</b>': '**Kein Sieg möglich.**' has 0 </b>, the English has 1",
    ], "Discord's markdown is no emphasis in a catalog"
    assert german("It is <i>assisted</i>.", "Es ist unterstützt.") != []
    assert german("Try `/undo`.", "Versuch /rückgängig.") != []


def with_plural_rule(language: str, forms: int, rule: str) -> Catalog:
    catalog = Catalog(locale=language)
    catalog.mime_headers = [("Plural-Forms", f"nplurals={forms}; plural={rule};")]
    return catalog


def test_a_plural_message_has_as_many_forms_as_its_catalogs_rule() -> None:
    assert german(("{count} move", "{count} moves"), ("{count} Zug",)) == [
        "'{count} move': 1 plural forms; the language has 2"]


def test_a_catalogs_plural_rule_must_suit_its_language() -> None:
    french = Locale.parse("fr")
    assert catalog_problems(with_plural_rule("fr", 2, "(n > 1)"), Catalog(), french) == []
    # German's rule in French: "0 coups", where French says "0 coup"
    assert catalog_problems(with_plural_rule("fr", 2, "(n != 1)"), Catalog(), french) == [
        "Plural-Forms 'nplurals=2; plural=(n != 1);' writes fr's 'one' counts in 2 forms"]
    # one form for all: "2 coup"
    assert catalog_problems(with_plural_rule("fr", 1, "0"), Catalog(), french) == [
        "Plural-Forms 'nplurals=1; plural=0;' writes fr's categories 'one' and 'other' in "
        "one form"]
    # a form the catalog does not have: the bot would have no words for 2
    assert catalog_problems(with_plural_rule("fr", 2, "n"), Catalog(), french) == [
        "Plural-Forms 'nplurals=2; plural=n;' gives 2 a form beyond the catalog's 2"]
    assert catalog_problems(with_plural_rule("fr", 2, "n >"), Catalog(), french) != []


def test_a_category_that_is_more_than_whole_millions_keeps_its_own_form() -> None:
    """Polish has a form for 2-4 and one for 5-21: neither may be written as another."""
    polish = Locale.parse("pl")
    assert catalog_problems(with_plural_rule("pl", 2, "(n != 1)"), Catalog(), polish) != []


# How a count of moves reads, at the counts where languages differ: what a player reads,
# whichever Babel is installed (its number data may space a thousand with a narrow
# no-break space or a plain one: any space is taken as one here).
MOVES_READ = {
    "en-US": ["0 moves", "1 move", "2 moves", "1,000,000 moves", "2,000,000 moves"],
    "de": ["0 Züge", "1 Zug", "2 Züge", "1.000.000 Züge", "2.000.000 Züge"],
    "fr": ["0 coup", "1 coup", "2 coups", "1 000 000 coups", "2 000 000 coups"],
    "es-ES": ["0 jugadas", "1 jugada", "2 jugadas", "1.000.000 jugadas",
              "2.000.000 jugadas"],
    "pt-BR": ["jogadas: 0", "jogadas: 1", "jogadas: 2", "jogadas: 1.000.000",
              "jogadas: 2.000.000"],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_million_moves_reads_in_the_catalogs_own_plural_form(language: str) -> None:
    with speaking(language):
        read_as = [n_("{count} move", "{count} moves", count)
                   for count in (0, 1, 2, 1_000_000, 2_000_000)]
    assert [" ".join(shown(text).split()) for text in read_as] == MOVES_READ[language]


@pytest.mark.parametrize("language", translated_languages())
def test_the_catalogs_own_rule_decides_the_form_at_run_time(
    language: str, tmp_path: Path
) -> None:
    """The rule in the catalog's header, not the language's data, picks the form: a
    catalog that put 2 in the singular and 0 in the plural would be followed."""
    path = tmp_path / "solitaire.po"
    text = po_path(language).read_text(encoding="utf-8")
    header = next(line for line in text.splitlines() if line.startswith('"Plural-Forms:'))
    path.write_text(text.replace(header, '"Plural-Forms: nplurals=2; plural=(n == 0);\\n"'),
                    encoding="utf-8")
    words = Words(language, compile_catalog(path), words_for(language).locale)
    won = read(path).get("🏆 <b>Won</b> in {count} move!")
    assert won is not None and isinstance(won.string, tuple | list)
    singular, plural = won.string
    assert words.plural("🏆 <b>Won</b> in {count} move!", "🏆 <b>Won</b> in {count} moves!",
                        2) == singular.format(count=2)
    assert words.plural("🏆 <b>Won</b> in {count} move!", "🏆 <b>Won</b> in {count} moves!",
                        0) == plural.format(count=0)


def test_untranslated_and_fuzzy_messages_are_not_shipped() -> None:
    assert german("Hint", "") == ["'Hint': untranslated"]
    assert german(("{count} move", "{count} moves"), ("{count} Zug", "")) == [
        "'{count} move': untranslated"]
    template, catalog = Catalog(), Catalog(locale="de")
    template.add("Hint")
    catalog.add("Hint", "Tipp", flags=["fuzzy"])
    assert catalog_problems(catalog, template, Locale.parse("de")) == [
        "'Hint': fuzzy: check the translation, then remove the fuzzy mark"]


@pytest.mark.parametrize(
    ("kind", "text", "fine"),
    [
        ("command", "neu", True),
        ("command", "tägliche-rangliste", True),
        ("option", "gewinnbar", True),
        ("command", "Neu", False),  # lower case only
        ("command", "neues spiel", False),  # no spaces
        ("option", "x" * 33, False),
        ("command", "", False),
        ("description", "Ein neues Spiel geben", True),
        ("description", "x" * 101, False),
        ("choice", "x" * 100, True),
        ("choice", "", False),
        ("card rank", "10", True),
        ("card rank", "Dame", False),
        ("a day typed in /daily-board", "aujourd'hui", True),
        ("a day typed in /daily-board", "x" * 17, False),  # /daily-board takes 16
        (None, "Any sentence at all, of any length whatever" * 5, True),
    ],
)
def test_discords_rules_for_names_descriptions_and_ranks(
    kind: str, text: str, fine: bool
) -> None:
    assert (discord_rule(kind, text) is None) is fine


# -- the shipped catalogs -----------------------------------------------------------------


@pytest.mark.parametrize("language", translated_languages())
def test_each_shipped_catalog_translates_every_message_soundly(language: str) -> None:
    assert problems(language, read(TEMPLATE)) == []


@pytest.mark.parametrize("language", translated_languages())
def test_every_language_offered_has_its_catalog(language: str) -> None:
    assert po_path(language).exists()
    assert words_for(language).code == language, "spoken, not English in its place"


def test_a_language_without_its_catalog_is_spoken_in_english_meanwhile() -> None:
    assert language_of("de-AT") == "de" and language_of("es-419") == "es-ES"
    assert language_of("pt") == "pt-BR" and language_of("ja") == "en-US"
    for language in LANGUAGES:
        with speaking(language) as words:
            assert words.code in (language, "en-US")
            if not po_path(language).exists():
                assert shown(_("Hint")) == "Hint" and words.percent(0.5) == "50%"


# -- the pseudo-language ------------------------------------------------------------------


def test_the_pseudo_language_is_40_percent_longer_and_keeps_what_replies_need() -> None:
    english = "<b>No win is possible.</b> Try <i>once</i> `/undo`, or ask <@{user}> ({count} left)."
    said = stretch(english)
    assert said.startswith(
        "«<b>Ñó wíñ ís póssíblé.</b> Trý <i>óñçé</i> `/undo`, ór ásk <@{user}> ({count}")
    assert said.endswith("»") and len(said) >= 1.4 * len(english)
    assert fill(said, {"user": 1, "count": 3}).parts[:4] == (
        "«", Strong(Text("Ñó wíñ ís póssíblé.")), " Trý ", Em(Text("óñçé"))), "marks kept"
    assert stretch("<b>{game}</b>, {deal}") == "<b>{game}</b>, {deal}", "nothing to say"
    assert stretch("<b>Won</b>\nin {count}") == "«<b>Wóñ</b> lór»\n«íñ {count} lór»", "lines"
    assert stretch("Share it:\n{line}").endswith("»\n{line}"), "a fact alone on its line"
    assert stretch("Share it:\n```\n{line}\n```").endswith("»\n```\n{line}\n```"), "a fence"
    assert stretch("# Trefoil\n- one").startswith("# «Tréfóíl"), "a heading stays one"
    assert stretch("-# small print").startswith("-# «smáll"), "and subtext"
    assert stretch("new", "command") == "ñéwló" and stretch("A", "card rank") == "Á"
    assert stretched_share("Undo «Úñdó» `/undo` <@1>") == 0.5, "code and mentions left out"
    assert stretched_share(stretch("{rule} goes.").format(rule="Any card")) == 0.5, "a fact"


def test_the_pseudo_language_keeps_the_marks_of_every_message() -> None:
    """Every sentence of the template, stretched, has the English's emphasis in the same
    order and its facts: the words are accented and lengthened, never a mark."""

    def marks(text: str) -> tuple[object, ...]:
        return (tuple(re.findall(r"</?[bi]>", text)), placeholders(text),
                [type(part).__name__ for part in fill(text) if not isinstance(part, str)])

    forms = [(form, message.context) for message in read(TEMPLATE) if message.id
             for form in (message.id if isinstance(message.id, tuple | list)
                          else (message.id,))]
    assert any("<b>" in form for form, _context in forms), "the template has some"
    assert [(form, stretch(form, context)) for form, context in forms
            if marks(stretch(form, context)) != marks(form)] == []


def pseudo_problems() -> list[str]:
    return catalog_problems(pseudo_catalog(), read(TEMPLATE), Locale.parse("en"))


def test_the_pseudo_catalog_passes_every_check() -> None:
    """So that it stands in for a real language (descriptions aside: below)."""
    assert [p for p in pseudo_problems() if "a description is" not in p] == []


def test_every_description_has_room_to_grow_by_40_percent() -> None:
    assert [p for p in pseudo_problems() if "a description is" in p] == []


def test_the_pseudo_fixture_speaks_the_pseudo_language(pseudo: Words) -> None:
    template = read(TEMPLATE)
    sentence = next(m.id for m in template if isinstance(m.id, str) and m.id
                    and m.context is None)
    with speaking(PSEUDO):
        assert _(sentence) == fill(stretch(sentence))
        assert shown(n_("{count} zebra", "{count} zebras", 2)) == "2 zebras", (
            "not in the catalog")
    assert language_of(PSEUDO) == PSEUDO


def test_the_pseudo_language_is_spoken_only_while_installed() -> None:
    assert language_of(PSEUDO) == "en-US"
    with speaking(PSEUDO) as words:
        assert words.code == "en-US"


# -- every reply within Discord's limits, in English and 40% longer -------------------------


@pytest.fixture
async def solving_core(store: Stores, clock: Clock, picture: PositionPicture
                       ) -> AsyncIterator[Core]:
    """The core with its solver in a thread (hints, a challenge's deal), on the day of a
    known daily deal."""
    clock.now = datetime(NOV_22.year, NOV_22.month, NOV_22.day, 12, tzinfo=UTC).timestamp()
    made = Core(store, renderer=picture, clock=clock, deals=random.Random(5),
                solver=SolverWorker(ThreadPoolExecutor(max_workers=1)))
    yield made
    await made.close()


Seen = list[tuple[str, Reply]]


async def a_session(core: Core, clock: Clock, language: str) -> tuple[Seen, list[MenuOption]]:
    """A representative set of what a player sees, in ``language``: help and rules, a game
    with moves, refusals and a hint, questions, settings, a daily deal won, statistics,
    the leaderboard and daily board, a replay and a challenge; and the moves /move offers
    as the player types."""
    alice = Player(user_id=111, guild_id=900, language=language, server_language=language)
    bob = Member(user_id=222, name="Bob", member=True)
    seen: Seen = []

    async def see(what: str, reply: Reply) -> Reply:
        clock.advance(61)  # past every cooldown
        seen.append((what, reply))
        return reply

    async def start(what: str, game_id: str, deal: int | None = None) -> Reply:
        """A new game, over the one being played if asked."""
        reply = await see(what, await answer(core.new_game, alice, game_id, deal))
        if reply.message and reply.message.question:
            question = reply.message.question
            await see(f"{what}: keep playing", await answer(core.answer_question, alice, question, False))
            reply = await see(f"{what}: yes", await answer(core.answer_question, alice, question, True))
        return reply

    await see("help", await answer(core.help, alice))
    for game_id in GAMES:
        await see(f"rules {game_id}", await answer(core.rules, alice, game_id))
    await see("unknown game", await answer(core.new_game, alice, "no-such-game"))
    board = (await start("new game", "trefoil", 42)).board
    assert board is not None, "a game is dealt"
    choices = await core.move_choices(alice)
    await see("move", await answer(core.choose, alice, board.controls.menu[0].value))
    await see("illegal move", await answer(core.act, alice, Action.MOVE, "1 1"))
    await see("gibberish", await answer(core.act, alice, Action.MOVE, "fly me to the moon"))
    for action in (Action.UNDO, Action.REDO, Action.TO_FOUNDATIONS, Action.AUTO_FINISH,
                   Action.REDEAL, Action.HINT, Action.SHOW, Action.RESIGN):
        await see(str(action), await answer(core.act, alice, action))
    await start("new over unfinished", "clover-leaf")
    await see("settings", await answer(core.change_settings, alice))
    await see("settings changed", await answer(core.change_settings, alice, four_colour=True))
    await start("daily", "trefoil", NOV_22_DEAL)
    for move in NOV_22_WIN:
        clock.advance(2)
        won = await answer(core.act, alice, Action.MOVE, move)
    await see("daily won", won)
    await see("stats", await answer(core.stats, alice, Member(alice.user_id, "Alice")))
    await see("stats of a game", await answer(core.stats, alice, Member(alice.user_id, "Alice"), "trefoil"))
    await see("leaderboard", await answer(core.leaderboard, alice))
    await see("daily board", await answer(core.daily_board, alice, "trefoil", NOV_22.isoformat()))
    await see("replay", await answer(core.replay, alice))
    await see("challenge", await answer(core.challenge, alice, bob, "trefoil"))
    forget = await see("forget?", await answer(core.forget_question, alice))
    assert forget.message is not None and forget.message.question is not None
    await see("forget: no", await answer(core.answer_question, alice, forget.message.question, False))
    await see("reset?", await answer(core.reset_question, alice, can_manage_server=True))
    return seen, choices


@pytest.mark.parametrize("language", ["en-US", PSEUDO])
async def test_every_reply_fits_discords_limits(
    solving_core: Core, clock: Clock, language: str, request: pytest.FixtureRequest
) -> None:
    if language == PSEUDO:
        request.getfixturevalue("pseudo")
    with speaking(language):
        seen, choices = await a_session(solving_core, clock, language)
    assert len(seen) > 30 and choices
    assert [(what, over) for what, reply in seen for over in over_limits(reply)] == []
    assert choices_over_limits(choices) == []


async def test_every_reply_is_in_the_pseudo_language(
    solving_core: Core, clock: Clock, pseudo: Words
) -> None:
    """What a player reads comes from the catalog: in the pseudo-language, hardly a word of
    it is left in English."""
    with speaking(PSEUDO):
        seen, choices = await a_session(solving_core, clock, PSEUDO)
    texts = [(what, shown(reply.text)) for what, reply in seen]
    texts += [(what, reply.board.alt_text) for what, reply in seen if reply.board]
    texts += [(what, reply.message.alt_text) for what, reply in seen
              if reply.message and reply.message.alt_text]
    texts += [("move choice", choice.label) for choice in choices]
    assert [(what, text) for what, text in texts if stretched_share(text) < 0.95] == []


@pytest.mark.parametrize("language", ["en-US", *translated_languages()])
def test_a_small_count_is_written_as_babel_writes_it(language: str) -> None:
    """``Words.number`` skips Babel below a thousand: the same text in every language."""
    from babel.numbers import format_decimal

    words = words_for(language)
    for value in [*range(0, 1001), 1234, 12345, 107925]:
        assert words.number(value) == format_decimal(value, locale=words.locale), value
