"""What a slash command's interaction must carry before the command runs: every required
option, no unknown one, each value of the type the command declares (a string, a whole
number within Discord's range, true or false, a user's id) and, where there are choices,
one of them — as Discord's own client sends it.

A proxy, a modified client or a future one may send anything; the bot's tree checks first
(``SolitaireTree.interaction_check``) and answers privately with the reason, so a command
never runs on what it cannot use, and nothing is changed or logged as a failure. The
reason is told in the player's language, naming each command and option as their Discord
shows it.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping
from typing import Any

import discord
from discord import AppCommandOptionType as Kind
from discord import app_commands

from ..replies import is_id
from ..replies.text import Text
from ..words.language import _, p_
from ..words.phrases import code, command
from .context import speaking_to
from .markdown import fit

log = logging.getLogger(__name__)

INTEGER_RANGE = 2**53  # Discord's integers: within ±2^53


class SolitaireTree(app_commands.CommandTree[Any]):
    """The bot's command tree: a command or autocomplete whose options the command cannot
    use is answered here, privately, and goes no further."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        data: Mapping[str, Any] = interaction.data or {}
        found = self._command_named(str(data.get("name", "")), interaction.guild_id)
        if found is None:
            return True  # the tree says "not found" in its own way
        options = data.get("options") or []
        autocomplete = interaction.type is discord.InteractionType.autocomplete
        with speaking_to(interaction):
            problem = option_problem(found, options, autocomplete=autocomplete)
            if problem is None:
                return True
            refusal = _("{problem} — nothing was done. {help} shows how each command is used.",
                        problem=problem, help=command("help"))
        log.info("/%s refused: %s", found.qualified_name, problem)
        try:
            if autocomplete:
                await interaction.response.autocomplete([])
            else:
                await interaction.response.send_message(fit(refusal), ephemeral=True)
        except discord.HTTPException:
            log.warning("could not refuse a malformed /%s", found.qualified_name)
        return False

    def _command_named(
        self, name: str, guild_id: int | None
    ) -> app_commands.Command[Any, Any, Any] | None:
        found = None
        if guild_id is not None:
            found = self.get_command(name, guild=discord.Object(guild_id))
        found = found or self.get_command(name)
        return found if isinstance(found, app_commands.Command) else None


def option_problem(
    command: app_commands.Command[Any, Any, Any], options: list[Mapping[str, Any]], *,
    autocomplete: bool = False,
) -> Text | None:
    """Why ``options`` (as an interaction carries them) cannot run ``command``, or None.
    For an autocomplete, the option being typed must be one that autocompletes, and the
    others may be missing or half typed. Discord sends the options by their English names,
    whatever the player's language."""
    declared = _parameters(command)
    given: dict[str, Any] = {}
    for option in options:
        if not isinstance(option, Mapping) or not isinstance(option.get("name"), str):
            return _("An option came without a name")
        name = option["name"]
        if name not in declared:
            return _("/{command} has no option {option}", command=_shown(command),
                     option=code(name))
        if autocomplete and option.get("focused"):
            if not declared[name].autocomplete:
                return _("/{command} suggests nothing for {option}", command=_shown(command),
                         option=_option(name))
            continue
        given[name] = option.get("value")
    if autocomplete:
        return None if any(o.get("focused") for o in options) else _("Nothing is being typed")
    for name, parameter in declared.items():
        if name not in given:
            if parameter.required:
                return _("/{command} needs {option}", command=_shown(command),
                         option=_option(name))
            continue
        problem = value_problem(parameter, given[name])
        if problem is not None:
            return problem
    return None


@functools.cache  # the bot's few commands, for as long as it runs
def _parameters(
    command: app_commands.Command[Any, Any, Any],
) -> dict[str, app_commands.Parameter]:
    """A command's options by the name Discord sends (discord.py builds them anew at each
    ``parameters``)."""
    return {p.display_name: p for p in command.parameters}


def _shown(command: app_commands.Command[Any, Any, Any]) -> str:
    """The command's name as the player sees it, in the language spoken now."""
    return p_("command", command.name)


def value_problem(parameter: app_commands.Parameter, value: Any) -> Text | None:
    """Why ``value`` is no value of ``parameter``, or None."""
    kind = parameter.type
    option = _option(parameter.display_name)
    if value is None:
        return _("{option} must have a value", option=option)
    if kind is Kind.string:
        if not isinstance(value, str):
            return _("{option} must be text", option=option)
        longest = parameter.max_value
        if longest is not None and len(value) > longest:
            return _("{option} must be at most {longest} characters", option=option,
                     longest=int(longest))
    if kind is Kind.boolean and not isinstance(value, bool):
        return _("{option} must be true or false", option=option)
    if kind is Kind.integer:
        if isinstance(value, bool) or not isinstance(value, int):
            return _("{option} must be a whole number", option=option)
        low = parameter.min_value if parameter.min_value is not None else -INTEGER_RANGE
        high = parameter.max_value if parameter.max_value is not None else INTEGER_RANGE
        if not low <= value <= high:
            return _("{option} must be a whole number from {low} to {high}", option=option,
                     low=low, high=high)
    if kind in (Kind.user, Kind.mentionable) and not _snowflake(value):
        return _("{option} must be a member (pick one from the list)", option=option)
    if parameter.choices and value not in [c.value for c in parameter.choices]:
        return _("{option} must be one of {choices}", option=option,
                 choices=Text(", ").join(code(str(c.value)) for c in parameter.choices))
    return None


def _option(name: str) -> Text:
    """An option of ours, by its English name, as the player's Discord shows it."""
    return code(p_("option", name))


def _snowflake(value: Any) -> bool:
    """Whether ``value`` is an id as Discord sends one, a string of digits (or a number),
    that the store can keep: positive and within 63 bits (``replies.is_id``)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, str):
        if not (value.isascii() and value.isdigit()):
            return False
        value = int(value)
    return isinstance(value, int) and is_id(value)
