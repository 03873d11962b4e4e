"""What a player reads beyond a board: each game's rules in short, and the bot's help.

The rules themselves live with each game in ``engine/rules.py`` (and in docs/RULES.md,
made from them), in English and marked for the catalog; here they are translated and put
in parts (``Text``): emphasis, commands, what a player types, which each adapter shows
its own way.

The help comes in two parts, each one message: a translation may run 40% longer than the
English, and a message holds 2,000 characters.
"""

from __future__ import annotations

from engine import GAMES, BadSetup, check_setup
from engine.odds import odds_text
from engine.rulebook import example_move

from ..replies import BUTTON_LABELS, Action
from ..replies.text import Text
from .language import _, label, p_
from .phrases import code, command, option, refused, spoken


def rules_text(game_id: str) -> Text:
    """The rules of one game, with how to type a move in it."""
    try:
        rules = check_setup(game_id)
    except BadSetup as err:
        return refused(err)
    src, dst, foundation = example_move(rules)
    lines = [_("<b>{game}</b> — {intro}.", game=rules.name, intro=_(rules.intro))]
    lines += [Text("• ", _(point)) for point in rules.summary]
    odds = Text(" ").join(spoken(sentence) for sentence in odds_text(rules.id))
    lines += [Text(), _("<b>Odds</b>: {odds}", odds=odds)]
    facts = {
        "src": src,
        "dst": dst,
        "to_pile": command("move", f"{src} {dst}"),
        "to_foundation": command("move", f"{src} f{foundation}"),
        "short": code(f"{src} f"),
        "only": command("move", str(src)),
    }
    if rules.pile_word == "stack":
        moves = _(
            "<b>Moves</b>: {to_pile} puts stack {src}'s top card on stack {dst}; {to_foundation} "
            "(or {short}) sends it to a foundation; {only} plays its only legal move. Or pick "
            "a move from the menu under the board.", **facts,
        )
    else:
        moves = _(
            "<b>Moves</b>: {to_pile} puts pile {src}'s top card on pile {dst}; {to_foundation} "
            "(or {short}) sends it to a foundation; {only} plays its only legal move. Or pick "
            "a move from the menu under the board.", **facts,
        )
    lines += [Text(), moves]
    return Text("\n").join(lines)


def _usage(name: str, *options: str, optional: tuple[str, ...] = ()) -> Text:
    """A command with its options, as Discord shows them: `` `/new game [deal]` ``."""
    words = [p_("option", o) for o in options] + [f"[{p_('option', o)}]" for o in optional]
    return command(name, *words)


def help_text() -> Text:
    """The help's first part: playing, in the language spoken now."""
    def button(action: Action) -> str:
        return label(BUTTON_LABELS[action])

    lines = [
        _("<b>Solitaire</b> — five patience games, every card face up, one saved game per "
          "player."),
        _("{new} — deal a game (a deal number replays a shared deal; {winnable}: one the "
          "solver has won; {draw}: Trefoil's draw house rule)",
          new=_usage("new", "game", optional=("deal", "winnable", "draw")),
          winnable=code(option("winnable", "True")), draw=code(option("draw", "True"))),
        _("{move} — {examples}; {source} lists the legal moves",
          move=_usage("move", "from", optional=("to",)),
          examples=Text(", ").join(code(move) for move in ("7 3", "7 f2", "7 f", "7")),
          source=code(p_("option", "from"))),
        _("{undo}, {redo}, {redeal} — take back, replay; shuffle and deal again",
          undo=command("undo"), redo=command("redo"), redeal=command("redeal")),
        _("{hint} — the solver's next step, and how many moves its winning line has left; "
          "before a redeal, whose shuffle it cannot see either, how often its plan wins",
          hint=command("hint")),
        _("{show}, {resign} — post your board again; give up (asks first, counts as a loss)",
          show=command("show"), resign=command("resign")),
        _("{rules} — how a game is played", rules=_usage("rules", "game")),
        _("{settings} — boards only you see, the four-colour deck, safe moves by themselves",
          settings=command("settings")),
        Text(),
        _("<b>Buttons</b>: {undo}, {redo}, {found}, {redeal}, {hint}, {finish} (once every card "
          "left can go straight up) and a menu of legal moves (past 25: a pile, then its "
          "move).", undo=button(Action.UNDO), redo=button(Action.REDO),
          found=button(Action.TO_FOUNDATIONS), redeal=button(Action.REDEAL),
          hint=button(Action.HINT), finish=button(Action.AUTO_FINISH))
        + " "
        + _("Leaving an unfinished game asks first and counts it as abandoned (one never "
            "moved in, not even with a move since taken back, counts for nothing); a stuck "
            "one, lost."),
        _("Games: {games}.", games=", ".join(GAMES.values())),
    ]
    return Text("\n").join(lines)


def records_help() -> Text:
    """The help's second part: records, daily deals, challenges and your data."""
    lines = [
        _("<b>Records</b>"),
        _("{stats} — wins, streaks and bests, here or everywhere (yours, to you alone)",
          stats=_usage("stats", optional=("user", "game", "scope"))),
        _("{leaderboard} — this server's top ten and your place, ranked fairly (the low end "
          "of the 95% Wilson interval on win rate)",
          leaderboard=_usage("leaderboard", optional=("game", "period"))),
        _("{daily}, {daily_board} — the day's deal (UTC), proven winnable, your first try "
          "scored; a day's winners here",
          daily=_usage("daily", "game"),
          daily_board=_usage("daily-board", "game", optional=("day",))),
        _("Wins with hints are <i>assisted</i>: played, not won, on boards and in streaks."),
        _("{challenge} — the same winnable deal for you both; the better result wins",
          challenge=_usage("challenge", "user", "game")),
        _("{replay} — a game move by move, as an animation for the channel",
          replay=_usage("replay", optional=("user",))),
        _("{forget_me} — delete your data; {reset} — clear this server's results (Manage "
          "Server)", forget_me=command("forget-me"), reset=command("reset-server-stats")),
    ]
    return Text("\n").join(lines)

