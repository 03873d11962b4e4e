"""The contributors' tools for the catalogs: the English messages taken from the source into
the template, each language's catalog started and kept up to date with it, and checked
(the tests run the same checks). Run from a checkout: the bot's install has no use for them::

    python -m tools.catalog extract     # engine/, render/, bot/ -> bot/words/locales/*.pot
    python -m tools.catalog init pt-BR  # a language's catalog, every message untranslated
    python -m tools.catalog update      # every catalog brought up to the template
    python -m tools.catalog check [de]  # what is missing or broken (exit status 1)

The files are written to change only where the messages changed: the template lists the
messages file by file in source order, each with the files it is in but no line numbers
(moving code around changes nothing), and it is rewritten only when a message changed.
``update`` drops the messages the template no longer has (git keeps them); one reworded
comes back marked fuzzy with its old translation and its old English (``#| msgid``), for
the translator to check. Catalogs are compiled when a language is first spoken
(``bot.words.language.compile_catalog``): there is no compile step.
"""

from __future__ import annotations

import ast
import gettext
import io
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from string import Formatter
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from bot.discord.limits import NAME_LIMIT, TEXT_LIMIT, is_name, is_text
from bot.words.language import DOMAIN, ENGLISH, LANGUAGES, LOCALES, compile_catalog, po_path
from bot.words.phrases import DAY_TYPED_LIMIT

# The calls whose arguments are messages, as Babel's extractor takes them: None, the first
# argument; (1, 2), a singular and a plural; ((1, "c"), 2), a context and then the message.
# A helper that takes a message is added here, and the template extracted again.
KEYWORDS: dict[str, Any] = {
    "_": None,
    "label": None,
    "plural": (1, 2),  # Words.plural: a count's form in plain words (a picture's, a line to share)
    "n_": (1, 2),
    "p_": ((1, "c"), 2),
    "N_": None,
    "pN_": ((1, "c"), 2),
    # the engine's refusals and phrases: a template, its facts as keyword arguments
    "RuleError": None,
    "IllegalMove": None,
    "BadSetup": None,
    "Phrase": None,
    "joined": None,
    # the slash commands: a name in its context (command, option, choice), a description
    "named": ((1, "c"), 2),
    "locale_str": None,
}
# A comment starting so just above a message goes to the translators with it.
TRANSLATORS = "TRANSLATORS:"
ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("engine", "render", "bot")
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
TEMPLATE_HEADER = """\
# The bot's English messages, to translate. Extracted from engine/, render/
# and bot/ by `python -m tools.catalog extract`: never edited by hand.
# The README's "Languages" tells how a language is added.
#"""
CATALOG_HEADER = """\
# The bot's messages in {name} ({code}), a translation in each msgstr.
# `python -m tools.catalog update` brings in new messages;
# `python -m tools.catalog check {code}` tells what is left to do.
#"""
NAME_CONTEXTS = ("command", "option")
DESCRIPTION = "description"  # a plain locale_str: all of them are the commands' descriptions
# Told the translators above each short word Discord or a card limits, by its kind (the
# check tells a description by its note).
DAY_TYPED = "a day typed in /daily-board"  # the context of the words typed for a day
NOTES = {
    "command": "A slash command's name: lower case, no spaces, at most 32 characters.",
    "option": "An option's name: lower case, no spaces, at most 32 characters.",
    "choice": "A choice of an option: at most 100 characters.",
    DESCRIPTION: "A slash command's or option's description: at most 100 characters.",
    "card rank": "A rank as the language's cards print it: one or two characters.",
    DAY_TYPED: "A word a player types (English works too): lower case, at most "
               f"{DAY_TYPED_LIMIT} characters.",
}


# -- the template -------------------------------------------------------------------------


def extract(root: Path = ROOT) -> Catalog:
    """Every message of the source under ``root``, as the template holds them."""
    template = Catalog(domain=DOMAIN, project="solitaire-bot", fuzzy=True,
                       header_comment=TEMPLATE_HEADER)
    for path in sorted(p for source in SOURCES for p in (root / source).rglob("*.py")):
        where = path.relative_to(root).as_posix()
        calls = list(_calls(path))
        descriptions = {message for _line, name, message, context in calls
                        if name == "locale_str" and context is None}
        found = extract_from_file("python", path, KEYWORDS, comment_tags=(TRANSLATORS,),
                                  strip_comment_tags=True)
        # Babel loses a message inside a call inside another's arguments
        # (python-babel/babel#1125), and the message around it: the syntax tree sees them.
        seen = {(message, context) for _line, message, _comments, context in found}
        found += [(line, message, [], context) for line, _name, message, context in calls
                  if (message, context) not in seen]
        for line, message, comments, context in sorted(found, key=lambda each: each[0]):
            kind = DESCRIPTION if message in descriptions and context is None else context
            if kind in NOTES:
                comments = [*comments, NOTES[kind]]
            template.add(message, None, [(where, line)], auto_comments=comments,
                         context=context)
    return template


Messages = str | tuple[str, ...]


def _calls(path: Path) -> Iterator[tuple[int, str, Messages, str | None]]:
    """Each call in ``path`` of a name in ``KEYWORDS`` whose messages are literal strings:
    its line, the name, its message (or singular and plural) and context."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if name not in KEYWORDS:
            continue
        context, messages = None, []
        for spec in KEYWORDS[name] or (1,):
            index = spec[0] if isinstance(spec, tuple) else spec
            arg = node.args[index - 1] if index <= len(node.args) else None
            if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                break
            if isinstance(spec, tuple):
                context = arg.value
            else:
                messages.append(arg.value)
        else:
            yield node.lineno, name, messages[0] if len(messages) == 1 else tuple(messages), context


def body(catalog: Catalog) -> list[tuple[object, ...]]:
    """A catalog's messages, in order: each one's English (both forms of a plural), context,
    files and notes to translators. What two catalogs are compared by; the header and the
    flags a Babel release infers by itself (``python-brace-format``) are left out."""
    return [(message.id, message.context, sorted({path for path, _line in message.locations}),
             " ".join(message.auto_comments)) for message in catalog if message.id]


def write_template(template: Catalog, path: Path = TEMPLATE) -> bool:
    """Write the template if a message changed (only then does its date change); whether
    it was written."""
    if path.exists() and body(read(path)) == body(template):
        return False
    template.creation_date = datetime.now(UTC)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_po_text(template), encoding="utf-8")
    return True


# -- each language's catalog --------------------------------------------------------------


def init(language: str, template: Catalog, locales: Path = LOCALES) -> Path:
    """A new catalog for ``language`` (Discord's code), every message untranslated, its
    plural rule from Babel's data for the language."""
    path = po_path(language, locales)
    if path.exists():
        raise FileExistsError(f"{path} is there already: `update` brings it up to date")
    catalog = Catalog(locale=babel_locale(language), domain=DOMAIN, project="solitaire-bot",
                      language_team=LANGUAGES.get(language, language), fuzzy=False,
                      header_comment=CATALOG_HEADER.format(name=LANGUAGES.get(language, ""),
                                                           code=language),
                      revision_date=datetime.now(UTC))
    catalog.update(template)
    _write(catalog, path)
    return path


def update(language: str, template: Catalog, locales: Path = LOCALES) -> Path:
    """``language``'s catalog brought up to the template: new messages untranslated, gone
    ones dropped, reworded ones fuzzy with their old translation."""
    path = po_path(language, locales)
    catalog = read(path)
    catalog.update(template)
    _write(catalog, path)
    return path


def babel_locale(language: str) -> Locale:
    return Locale.parse(language, sep="-")


def read(path: Path) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, domain=DOMAIN)


def _write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_po_text(catalog), encoding="utf-8")


def _po_text(catalog: Catalog, *, omit_header: bool = False) -> str:
    out = io.BytesIO()
    write_po(out, catalog, omit_header=omit_header, include_lineno=False,
             ignore_obsolete=True, include_previous=True)
    return out.getvalue().decode("utf-8")


# -- checks -------------------------------------------------------------------------------


def problems(language: str, template: Catalog, locales: Path = LOCALES) -> list[str]:
    """What keeps ``language``'s catalog from being shipped, a line each; none: it is
    complete."""
    path = po_path(language, locales)
    if not path.exists():
        return [f"no catalog yet: `python -m tools.catalog init {language}`"]
    try:
        compile_catalog(path)
        catalog = read(path)
    except Exception as err:  # any reason the bot could not load it is worth a line
        return [f"{path.name} cannot be read: {err}"]
    return catalog_problems(catalog, template, babel_locale(language))


def catalog_problems(catalog: Catalog, template: Catalog, locale: Locale) -> list[str]:
    """Everything wrong in ``catalog``: messages missing, untranslated or fuzzy, and
    translations that would break a reply (placeholders, emphasis marks, Discord's rules)."""
    found = plural_problems(catalog, locale)
    for message in template:
        if message.id and catalog.get(message.id, message.context) is None:
            found.append(f"{_shown(message)}: not in the catalog: run `update`")
    for message in catalog:
        if not message.id:
            continue
        original = template.get(message.id, message.context)
        if original is None:
            found.append(f"{_shown(message)}: not in the template: run `update`")
        found += (f"{_shown(message)}: {problem}" for problem in
                  message_problems(message, catalog.num_plurals, kind_of(original or message)))
    return found


# The counts a plural rule is tried on: every count up to a thousand, as a game, a statistic
# or a leaderboard prints them, and the large ones where a language may change its form.
PLURAL_PROBES = (*range(1001), 1234, 10_000, 100_000, 999_999, 1_000_001, 1_500_000,
                 *(k * 1_000_000 for k in (1, 2, 5, 10, 21, 100, 1000)))


def plural_problems(catalog: Catalog, locale: Locale) -> list[str]:
    """Whether the catalog's own ``Plural-Forms`` (what the bot follows when it speaks, as
    gettext does) suits its language: each count gets a form the catalog has, and the counts
    of one of the language's plural categories (CLDR's, from Babel) all get the same form,
    one no other category gets. The one merge allowed is a category of whole millions only
    (French, Spanish and Portuguese "many", where a noun takes "de": "un million de coups"):
    the bot prints digits, which read in the "other" form (README, Languages)."""
    try:
        form_of = plural_rule(catalog)
    except ValueError as error:
        return [f"Plural-Forms {catalog.plural_forms!r} cannot be read: {error}"]
    forms_of: dict[str, set[int]] = {}
    for count in PLURAL_PROBES:
        form = form_of(count)
        if form is None:
            return [f"Plural-Forms {catalog.plural_forms!r} gives {count} a form beyond the "
                    f"catalog's {catalog.num_plurals}"]
        forms_of.setdefault(locale.plural_form(count), set()).add(form)
    found = [f"Plural-Forms {catalog.plural_forms!r} writes {locale}'s {category!r} counts "
             f"in {len(forms)} forms" for category, forms in forms_of.items() if len(forms) > 1]
    if found:
        return found
    millions = {category for category in forms_of
                if all(count % 1_000_000 == 0 for count in PLURAL_PROBES
                       if count and locale.plural_form(count) == category)}
    owners: dict[int, list[str]] = {}
    for category, forms in sorted(forms_of.items()):
        if category not in millions or forms != forms_of.get("other"):
            owners.setdefault(min(forms), []).append(category)
    return [f"Plural-Forms {catalog.plural_forms!r} writes {locale}'s categories "
            f"{' and '.join(map(repr, categories))} in one form"
            for categories in owners.values() if len(categories) > 1]


def plural_rule(catalog: Catalog) -> Callable[[int], int | None]:
    """Which of ``catalog``'s forms the bot speaks for a count (None: one it lacks), found
    as the bot finds it: the catalog's header compiled by gettext, with a message whose
    forms are their own numbers. ValueError: a header gettext cannot read."""
    probe = Catalog(locale=catalog.locale)
    probe.mime_headers = catalog.mime_headers
    forms = tuple(str(form) for form in range(catalog.num_plurals))
    probe.add(("form", "forms"), forms)
    compiled = io.BytesIO()
    write_mo(compiled, probe)
    compiled.seek(0)
    spoken = gettext.GNUTranslations(compiled)

    def form_of(count: int) -> int | None:
        text = spoken.ngettext("form", "forms", count)
        return int(text) if text in forms else None

    return form_of


def message_problems(message: Message, forms: int, kind: str | None = None) -> Iterator[str]:
    """What is wrong with one translated message, in a catalog with ``forms`` plural
    forms; ``kind``: what Discord or a card limits it to (``discord_rule``)."""
    if message.fuzzy:
        yield "fuzzy: check the translation, then remove the fuzzy mark"
    originals = _texts(message.id)
    translations = _texts(message.string)
    if message.pluralizable and len(translations) != forms:
        yield f"{len(translations)} plural forms; the language has {forms}"
    if not all(translations):
        yield "untranslated"
        return
    wanted: set[str] = set().union(*map(placeholders, originals))
    for text in translations:
        if placeholders(text) != wanted:
            yield f"placeholders {sorted(placeholders(text))} in {text!r}, not {sorted(wanted)}"
        for mark in ("<b>", "</b>", "<i>", "</i>", "`"):
            if (has := text.count(mark)) != (english := originals[0].count(mark)):
                yield f"{text!r} has {has} {mark}, the English has {english}"
        if not _nested(text):
            yield f"{text!r}: each <b> and <i> must close after it opens, inside the other"
        rule = discord_rule(kind, text)
        if rule:
            yield f"{text!r}: {rule}"


def _nested(text: str) -> bool:
    """Whether ``text``'s ``<b>``/``<i>`` marks open and close in order."""
    opened = ""
    for closing, kind in re.findall(r"<(/?)([bi])>", text):
        if closing and not opened.endswith(kind):
            return False
        opened = opened[:-1] if closing else opened + kind
    return not opened


def placeholders(text: str) -> set[str]:
    """The facts a message is filled with: ``{moves}`` -> ``moves``."""
    try:
        return {field for _literal, field, _spec, _conversion in Formatter().parse(text)
                if field is not None}
    except ValueError:  # a lone brace: no format string (a bad one is told by the set)
        return {"(a lone brace)"}


def kind_of(message: Message) -> str | None:
    """What a message is, where Discord or a card limits it: its context, or a
    description (told by its note)."""
    if NOTES[DESCRIPTION] in message.auto_comments:
        return DESCRIPTION
    return message.context


def discord_rule(kind: str | None, text: str) -> str | None:
    """The rule a translation of ``kind`` breaks, if any: slash command and option names as
    Discord takes them, descriptions and choices within Discord's length, rank letters that
    fit a card's corner, a day's word that /daily-board takes."""
    if kind in NAME_CONTEXTS and not is_name(text):
        return (f"a name is 1 to {NAME_LIMIT} characters" if not 1 <= len(text) <= NAME_LIMIT
                else "a name is lower case letters, digits, - and _ only")
    if kind in (DESCRIPTION, "choice") and not is_text(text):
        return f"a {kind} is 1 to {TEXT_LIMIT} characters"
    if kind == "card rank" and not 1 <= len(text) <= 2:
        return "a rank is one or two characters"
    if kind == DAY_TYPED and not 1 <= len(text) <= DAY_TYPED_LIMIT:
        return f"a day's word is 1 to {DAY_TYPED_LIMIT} characters (what /daily-board takes)"
    return None


def _texts(value: Any) -> tuple[str, ...]:
    if isinstance(value, list | tuple):
        return tuple(value)
    return (value or "",)


def _shown(message: Message) -> str:
    text, where = _texts(message.id)[0], f"[{message.context}] " if message.context else ""
    return where + repr(text if len(text) <= 60 else text[:59] + "…")


# -- the command line ---------------------------------------------------------------------


def translated_languages() -> list[str]:
    return [language for language in LANGUAGES if language != ENGLISH]


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command, languages = (args[0], args[1:]) if args else ("", [])
    if command == "extract":
        written = write_template(extract())
        print(f"{TEMPLATE.relative_to(ROOT)}: {'written' if written else 'up to date'}")
        return 0
    if command == "init" and len(languages) == 1:
        language = languages[0]
        if language not in translated_languages():
            print(f"{language} is not a language of LANGUAGES in bot/words/language.py: "
                  "add it there first (Discord's code, and its name in the language)")
            return 2
        if po_path(language).exists():
            print(f"{language} has its catalog already: `update` brings it up to date")
            return 2
        print(f"{init(language, read(TEMPLATE)).relative_to(ROOT)}: written")
        return 0
    if command == "update":
        template = read(TEMPLATE)
        for language in languages or translated_languages():
            if po_path(language).exists():
                print(f"{update(language, template).relative_to(ROOT)}: updated")
            else:
                print(f"{language}: no catalog yet: `init {language}` starts one")
        return 0
    if command == "check":
        template = read(TEMPLATE)
        fresh = body(extract()) == body(template)
        if not fresh:
            print("the template is out of date: run `extract`, then `update`")
        done = check(languages or translated_languages(), template)
        return 0 if fresh and done == 0 else 1
    print(__doc__)
    return 2


def check(languages: list[str], template: Catalog, locales: Path = LOCALES) -> int:
    """Print what is left to do in each language's catalog; 1 if anything is, else 0."""
    left = False
    for language in languages:
        found = problems(language, template, locales)
        print(f"{language}: " + (f"{len(found)} to do" if found else "complete"))
        for problem in found:
            print(f"  {problem}")
        left = left or bool(found)
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
