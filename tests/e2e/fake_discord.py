"""A fake Discord on loopback: REST API and gateway, enough for an unmodified discord.py 2.7 client.

Nobody here can reach Discord, so the bot is proven against this server instead. It speaks
the wire formats discord.py 2.7.1 sends and parses, and it is as strict as Discord wherever a
mistake would reach a player: an interaction answered twice, or not within three seconds, is
refused; message, component, embed and command limits are checked; unknown routes answer 404.
Every refusal is written to ``problems`` (and logged loudly), so a test can assert that nothing
went wrong behind the bot's back.

A test plays the part of Discord's users::

    fake = FakeDiscord()
    await fake.start()
    with fake.patch_discord():          # or pass fake.api_base / fake.gateway_url to a process
        ...start the bot...
    await fake.wait_connected()
    reply = await fake.command("alice", "move", {"from": "7", "to": "3"})
    reply = await fake.press("alice", reply, label="Undo")

Each user has a language (``fake.set_locale("alice", "de")``; ``en-US`` by default) and each
server one (``FakeGuild.locale``): every interaction carries them, as ``locale`` and
``guild_locale``, and the commands' localized names and descriptions are checked as Discord
checks them.

Replies are snapshots (:class:`Reply`) of what the player would see once the bot has answered:
the message it sent or edited (content, flags, embeds, components, attachments as bytes), or
the autocomplete choices. Everything else stays recorded on the :class:`FakeInteraction` and
:class:`FakeMessage` objects.

Several gateway connections may be open at once (shards, from one process or several): each
gets its shard's guilds, and each interaction goes to the connection serving its guild's shard
(``reply.shard_id``, ``reply.connection``). Interactions can also come from where only a user
installed the app (``context="user_install_guild"``, ``"dm"``, ``"group_dm"``), and
``command_unchecked`` / ``press_unchecked`` / ``select_unchecked`` send what no Discord client
would, for tests of the bot's defences.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import re
import secrets
import struct
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from .rate_limits import Limited, RateLimiter, RateLimits

log = logging.getLogger("fake_discord")

API_VERSION = 10
DISCORD_EPOCH_MS = 1_420_070_400_000
CALLBACK_DEADLINE_S = 3.0
# Discord's API answers through Google's load balancer, and says so; discord.py takes a 429
# without it for Cloudflare's ban, and raises instead of waiting and trying again.
VIA = {"Via": "1.1 google"}
TOKEN_LIFETIME_S = 15 * 60  # an interaction's webhook (edits, follow-ups) works this long
# Follow-ups an interaction takes where only a user installed the app (its authorizing
# integration owners hold USER_INSTALL alone): error 40094 beyond.
USER_INSTALL_FOLLOWUPS = 5
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

# Message flags
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
COMPONENTS_V2 = 1 << 15

ATTACHMENT_DESCRIPTION_LIMIT = 1024  # alt text, in characters

# Interaction types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5

# Interaction callback types
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9
LAUNCH_ACTIVITY = 12  # opens the app's Activity; only for an app that has one

ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL, LAUNCH_ACTIVITY},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
        MODAL,
        LAUNCH_ACTIVITY,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
    },
}

# Permission bits (https://discord.com/developers/docs/topics/permissions)
ADD_REACTIONS = 1 << 6
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1
MEMBER_PERMISSIONS = (
    ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
)

# Where an interaction happens: the name a test uses -> the payload's ``context`` (0 a server,
# 1 the bot's DM, 2 any other DM or group DM). The last three need a user-installed app.
CONTEXTS = {"guild": 0, "bot_dm": 1, "user_install_guild": 0, "dm": 2, "group_dm": 2}
USER_INSTALL_CONTEXTS = {"user_install_guild", "dm", "group_dm"}
# What the fake grants a user-installed app where the bot itself is absent (its choice).
USER_INSTALL_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES

# Application command option types
OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP = 1, 2
OPTION_STRING, OPTION_INTEGER, OPTION_BOOLEAN = 3, 4, 5
OPTION_USER, OPTION_CHANNEL, OPTION_ROLE, OPTION_MENTIONABLE, OPTION_NUMBER = 6, 7, 8, 9, 10

SELECT_TYPES = {3, 5, 6, 7, 8}

# Application command types: a slash command, and the Entry Point that opens the Activity
CHAT_INPUT, PRIMARY_ENTRY_POINT = 1, 4
APP_HANDLER, DISCORD_LAUNCH_ACTIVITY = 1, 2  # who answers an Entry Point command
EMBEDDED = 1 << 17  # the application flag of an app with an Activity
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class InteractionFailed(AssertionError):
    """What Discord shows as "This interaction failed": the bot did not answer in time."""


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


class Snowflakes:
    """Discord-shaped ids: milliseconds since 2015 in the high bits (on ``clock``, Unix
    seconds: the fake's, which a test may skip ahead), always increasing."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._last = 0
        self._clock = clock

    def next(self) -> int:
        value = (int(self._clock() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(value, self._last + 1)
        return self._last

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next id that a guild would need to land on this shard (a millisecond or two on)."""
        millis = self.next() >> 22
        millis += (shard_id - millis) % shard_count
        self._last = max(self._last, millis << 22)
        return self._last


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives a guild's events; direct messages come to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


# --------------------------------------------------------------------------- the world


@dataclass(frozen=True)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    avatar: str | None = None  # their avatar's hash (None: Discord's default avatar)

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": None if self.bot else self.name.title(),
            "avatar": self.avatar,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class FakeChannel:
    id: int
    name: str
    guild_id: int | None
    type: int = 0  # 0 guild text, 1 DM, 3 group DM
    recipients: list[FakeUser] = field(default_factory=list)  # DMs the bot is not in

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": str(self.id), "type": self.type, "flags": 0}
        if self.recipients:
            data["recipients"] = [u.payload() for u in self.recipients]
            data["last_message_id"] = None
        if self.type == 3:
            data.update(name=self.name, icon=None, owner_id=str(self.recipients[0].id))
        if self.guild_id is not None:
            data.update(
                guild_id=str(self.guild_id),
                name=self.name,
                position=0,
                permission_overwrites=[],
                nsfw=False,
                topic=None,
                last_message_id=None,
                rate_limit_per_user=0,
                parent_id=None,
            )
        return data


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    channels: list[FakeChannel]
    roles: list[FakeRole]  # roles[0] is @everyone (its id is the guild's id)
    members: list[FakeUser]
    member_roles: dict[int, list[int]] = field(default_factory=dict)
    joined_at: str = field(default_factory=now_iso)
    locale: str = "en-US"  # the server's language (its Community settings): guild_locale

    @property
    def channel(self) -> FakeChannel:
        return self.channels[0]

    def member(self, user: FakeUser) -> bool:
        return any(m.id == user.id for m in self.members)

    def permissions_of(self, user: FakeUser) -> int:
        if user.id == self.owner_id:
            return ALL_PERMISSIONS
        value = self.roles[0].permissions
        for role in self.roles[1:]:
            if role.id in self.member_roles.get(user.id, []):
                value |= role.permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def member_payload(self, user: FakeUser, *, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": user.payload(),
            "roles": [str(r) for r in self.member_roles.get(user.id, [])],
            "nick": None,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(self.permissions_of(user))
        return data

    def create_payload(self) -> dict[str, Any]:
        """The GUILD_CREATE event: the whole guild, every member included (so never chunked)."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "region": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self.locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "features": [],
            "roles": [r.payload() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "soundboard_sounds": [],
            "joined_at": self.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "members": [self.member_payload(m) for m in self.members],
            "channels": [c.payload() for c in self.channels],
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "application_command_counts": {},
        }


# --------------------------------------------------------------------------- messages


@dataclass(frozen=True)
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None

    @property
    def is_png(self) -> bool:
        return self.data.startswith(PNG_SIGNATURE)

    @property
    def image_size(self) -> tuple[int, int] | None:
        """Width and height read from a PNG header, as Discord reports them for images."""
        if self.is_png and len(self.data) >= 24:
            width, height = struct.unpack(">II", self.data[16:24])
            return width, height
        return None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        size = self.image_size
        if size is not None:
            data["width"], data["height"] = size
        return data


@dataclass(frozen=True)
class Component:
    """One interactive component of a message, read from the payload the bot sent."""

    type: int
    custom_id: str | None
    label: str | None
    disabled: bool
    style: int | None
    placeholder: str | None
    options: tuple[dict[str, Any], ...]
    min_values: int
    max_values: int
    raw: Mapping[str, Any]

    @property
    def is_button(self) -> bool:
        return self.type == 2

    @property
    def is_select(self) -> bool:
        return self.type in SELECT_TYPES

    @property
    def values(self) -> list[str]:
        return [o["value"] for o in self.options]

    @property
    def option_labels(self) -> list[str]:
        return [o["label"] for o in self.options]

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> Component:
        return cls(
            type=data["type"],
            custom_id=data.get("custom_id"),
            label=data.get("label"),
            disabled=bool(data.get("disabled", False)),
            style=data.get("style"),
            placeholder=data.get("placeholder"),
            options=tuple(data.get("options") or ()),
            min_values=data.get("min_values", 1),
            max_values=data.get("max_values", 1),
            raw=data,
        )


def walk_components(components: Iterable[Mapping[str, Any]]) -> Iterator[Component]:
    """Every button and select in a component tree (action rows, containers, sections)."""
    for item in components:
        if item.get("type") in (2, *SELECT_TYPES):
            yield Component.from_payload(item)
        yield from walk_components(item.get("components") or ())
        accessory = item.get("accessory")
        if accessory:
            yield from walk_components([accessory])


@dataclass(frozen=True)
class MessageState:
    """A message as a player sees it at one moment."""

    id: int
    channel_id: int
    content: str
    flags: int
    embeds: tuple[Mapping[str, Any], ...]
    components: tuple[Mapping[str, Any], ...]
    attachments: tuple[FakeAttachment, ...]
    version: int
    deleted: bool = False

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def silent(self) -> bool:
        """Sent with SUPPRESS_NOTIFICATIONS (discord.py's ``silent=True``): no push or sound."""
        return bool(self.flags & SUPPRESS_NOTIFICATIONS)

    @property
    def embeds_suppressed(self) -> bool:
        return bool(self.flags & SUPPRESS_EMBEDS)

    @property
    def alt_texts(self) -> list[str | None]:
        """Each attachment's description (alt text), None where it has none."""
        return [a.description for a in self.attachments]

    @property
    def text(self) -> str:
        """Content and every text of every embed, for assertions that don't care where."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for f in embed.get("fields") or ():
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((embed.get("footer") or {}).get("text") or "")
            parts.append((embed.get("author") or {}).get("name") or "")
        return "\n".join(p for p in parts if p)

    @property
    def all_components(self) -> list[Component]:
        return list(walk_components(self.components))

    @property
    def buttons(self) -> list[Component]:
        return [c for c in self.all_components if c.is_button]

    @property
    def selects(self) -> list[Component]:
        return [c for c in self.all_components if c.is_select]

    @property
    def custom_ids(self) -> list[str]:
        return [c.custom_id for c in self.all_components if c.custom_id]

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> Component:
        """The component with this custom_id, or the button with this label."""
        for c in self.all_components:
            if custom_id is not None and c.custom_id == custom_id:
                return c
            if label is not None and c.label == label:
                return c
        raise LookupError(
            f"message {self.id} has no component {custom_id or label!r}; "
            f"it has {[c.label or c.custom_id for c in self.all_components]}"
        )

    def button(self, label: str) -> Component:
        return self.component(label=label)

    @property
    def select(self) -> Component:
        selects = self.selects
        if len(selects) != 1:
            raise LookupError(f"message {self.id} has {len(selects)} select menus")
        return selects[0]

    @property
    def pngs(self) -> list[bytes]:
        return [a.data for a in self.attachments if a.is_png]


class FakeMessage:
    """A message held by the fake, with every version it went through."""

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        id: int,
        channel: FakeChannel,
        author: FakeUser,
        type: int = 0,
        flags: int = 0,
        interaction: FakeInteraction | None = None,
    ) -> None:
        self.fake = fake
        self.id = id
        self.channel = channel
        self.author = author
        self.type = type
        self.flags = flags
        self.interaction = interaction
        self.content = ""
        self.allowed_mentions: Mapping[str, Any] | None = None  # as last sent; None: all
        self.embeds: list[Mapping[str, Any]] = []
        self.components: list[Mapping[str, Any]] = []
        self.attachments: list[FakeAttachment] = []
        self.timestamp = now_iso()
        self.created_clock = fake.now()  # on the fake's clock: how old it is (old: 1 hour)
        self.edited_timestamp: str | None = None
        self.deleted = False
        self.history: list[MessageState] = []
        self.history_at: list[float] = []  # when each version came (time.monotonic())

    def record(self) -> None:
        """Keep the message as it is now as its newest version."""
        self.history.append(self.state())
        self.history_at.append(time.monotonic())

    def changed_at(self, content: str) -> float | None:
        """When the message first read ``content`` (monotonic), if it ever did."""
        return next((at for at, state in zip(self.history_at, self.history, strict=True)
                     if state.content == content), None)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def visible_to(self, user: FakeUser) -> bool:
        """Whether this user sees the message now: ephemeral ones only to their own player."""
        if self.deleted:
            return False
        if not self.ephemeral:
            return True
        return self.interaction is not None and self.interaction.user.id == user.id

    def state(self) -> MessageState:
        return MessageState(
            id=self.id,
            channel_id=self.channel.id,
            content=self.content,
            flags=self.flags,
            embeds=tuple(self.embeds),
            components=tuple(self.components),
            attachments=tuple(self.attachments),
            version=len(self.history),
            deleted=self.deleted,
        )

    def _resolve_embed(self, embed: Mapping[str, Any]) -> dict[str, Any]:
        """Replace attachment:// links with the attachment's address, as Discord does."""
        out = dict(embed)
        for key in ("image", "thumbnail"):
            media = out.get(key)
            if isinstance(media, dict) and str(media.get("url", "")).startswith("attachment://"):
                name = media["url"].removeprefix("attachment://")
                found = next((a for a in self.attachments if a.filename == name), None)
                if found is not None:
                    size = found.image_size or (0, 0)
                    out[key] = {
                        "url": found.url,
                        "proxy_url": found.url,
                        "width": size[0],
                        "height": size[1],
                    }
        return out

    @property
    def notified(self) -> set[int]:
        """The users Discord notifies of this message: those mentioned in its content that
        its allowed mentions let through (all of them when it sent none)."""
        mentioned = {int(m) for m in re.findall(r"<@!?(\d+)>", self.content)}
        allowed = self.allowed_mentions
        if allowed is None or "users" in (allowed.get("parse") or []):
            return mentioned
        return mentioned & {int(u) for u in allowed.get("users") or []}

    def payload(self) -> dict[str, Any]:
        fake = self.fake
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "type": self.type,
            "content": self.content,
            "author": self.author.payload(),
            "embeds": [self._resolve_embed(e) for e in self.embeds],
            "attachments": [a.payload() for a in self.attachments],
            "components": list(self.components),
            "flags": self.flags,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "reactions": [],
        }
        if self.channel.guild_id is not None:
            data["guild_id"] = str(self.channel.guild_id)
        inter = self.interaction
        if inter is not None:
            data["webhook_id"] = str(fake.application_id)
            data["application_id"] = str(fake.application_id)
            meta: dict[str, Any] = {
                "id": str(inter.id),
                "type": inter.type,
                "user": inter.user.payload(),
                "authorizing_integration_owners": inter.integration_owners(),
            }
            if inter.type == APPLICATION_COMMAND:
                meta["name"] = inter.command_name
            if inter.type == MESSAGE_COMPONENT and inter.message_id is not None:
                meta["interacted_message_id"] = str(inter.message_id)
            if inter.original_id is not None and inter.original_id != self.id:
                meta["original_response_message_id"] = str(inter.original_id)
            data["interaction_metadata"] = meta
        return data


# --------------------------------------------------------------------------- interactions


@dataclass(frozen=True)
class Reply:
    """What the player sees once the bot has answered an interaction."""

    interaction: FakeInteraction
    # "message" (new message), "update" (edited the pressed message), "autocomplete",
    # "modal", "activity" (the Activity was launched for the user: no message)
    kind: str
    message: MessageState | None
    choices: tuple[Mapping[str, Any], ...] = ()
    modal: Mapping[str, Any] | None = None

    @property
    def shard_id(self) -> int:
        """The shard whose connection received the interaction."""
        return self.interaction.shard_id

    @property
    def connection(self) -> GatewaySession:
        """The gateway connection (``.number``, ``.shard``, ``.client_pid``) that served it."""
        assert self.interaction.session is not None
        return self.interaction.session

    @property
    def latency_s(self) -> float:
        """Seconds from INTERACTION_CREATE sent to this reply received."""
        assert self.interaction.replied_at is not None
        return self.interaction.replied_at - self.interaction.sent_at

    def _msg(self) -> MessageState:
        if self.message is None:
            raise AttributeError(f"a {self.kind} reply has no message")
        return self.message

    @property
    def message_id(self) -> int:
        return self._msg().id

    @property
    def content(self) -> str:
        return self._msg().content

    @property
    def text(self) -> str:
        return self._msg().text

    @property
    def ephemeral(self) -> bool:
        return self._msg().ephemeral

    @property
    def flags(self) -> int:
        return self._msg().flags

    @property
    def silent(self) -> bool:
        return self._msg().silent

    @property
    def alt_texts(self) -> list[str | None]:
        return self._msg().alt_texts

    @property
    def embeds(self) -> tuple[Mapping[str, Any], ...]:
        return self._msg().embeds

    @property
    def attachments(self) -> tuple[FakeAttachment, ...]:
        return self._msg().attachments

    @property
    def pngs(self) -> list[bytes]:
        return self._msg().pngs

    @property
    def buttons(self) -> list[Component]:
        return self._msg().buttons

    @property
    def selects(self) -> list[Component]:
        return self._msg().selects

    @property
    def select(self) -> Component:
        return self._msg().select

    @property
    def custom_ids(self) -> list[str]:
        return self._msg().custom_ids

    def button(self, label: str) -> Component:
        return self._msg().button(label)

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> Component:
        return self._msg().component(custom_id, label=label)

    @property
    def choice_values(self) -> list[Any]:
        return [c["value"] for c in self.choices]

    def __repr__(self) -> str:
        if self.message is None:
            return f"<Reply {self.kind} choices={len(self.choices)}>"
        m = self.message
        return (
            f"<Reply {self.kind} msg={m.id} v{m.version} ephemeral={m.ephemeral} "
            f"text={m.text[:80]!r} files={[a.filename for a in m.attachments]} "
            f"components={[c.label or c.custom_id for c in m.all_components]}>"
        )


class FakeInteraction:
    """One INTERACTION_CREATE sent to the bot, and everything the bot did about it."""

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        type: int,
        user: FakeUser,
        guild: FakeGuild | None,
        channel: FakeChannel,
        data: dict[str, Any],
        message: FakeMessage | None = None,
        command_name: str | None = None,
        context: str | None = None,
        owners: Mapping[str, str] | None = None,
    ) -> None:
        self.fake = fake
        self.id = fake.snowflakes.next()
        self.token = "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)
        self.type = type
        self.user = user
        self.guild = guild
        self.channel = channel
        self.data = data
        self.message_id = message.id if message is not None else None
        self.command_name = command_name
        # "guild", "bot_dm", "user_install_guild", "dm" or "group_dm" (see CONTEXTS)
        self.context = context or ("guild" if guild is not None else "bot_dm")
        if self.context not in CONTEXTS:
            raise ValueError(f"context {self.context!r} is not one of {sorted(CONTEXTS)}")
        self.owners = dict(owners) if owners is not None else self._default_owners()
        self.sent_at = 0.0
        self.created_clock = fake.now()  # on the fake's clock, for the token's lifetime
        self.callback_type: int | None = None
        self.callback_data: dict[str, Any] = {}
        self.callback_at: float | None = None
        self.replied_at: float | None = None
        self.original_id: int | None = None
        self.followup_ids: list[int] = []
        self.expired = False
        self.session: GatewaySession | None = None  # the connection it was sent on
        self.events: list[tuple[float, str, Any]] = []
        self._reply: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()

    def _default_owners(self) -> dict[str, str]:
        """``authorizing_integration_owners``: "0" for the server install (its id, or "0" in
        the bot's DM), "1" for the installing user."""
        if self.context == "guild" and self.guild is not None:
            return {"0": str(self.guild.id)}
        if self.context == "bot_dm":
            return {"0": "0"}
        return {"1": str(self.user.id)}

    def integration_owners(self) -> dict[str, str]:
        return self.owners

    @property
    def context_value(self) -> int:
        """The payload's ``context``: 0 a server, 1 the bot's DM, 2 another DM or group DM."""
        return CONTEXTS[self.context]

    def payload(self) -> dict[str, Any]:
        fake = self.fake
        data: dict[str, Any] = {
            "id": str(self.id),
            "application_id": str(fake.application_id),
            "type": self.type,
            "data": self.data,
            "token": self.token,
            "version": 1,
            "locale": fake.locales.get(self.user.id, "en-US"),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": self.integration_owners(),
            "attachment_size_limit": fake.attachment_size_limit,
            "channel_id": str(self.channel.id),
        }
        channel = self.channel.payload()
        if self.context in USER_INSTALL_CONTEXTS:
            app_permissions = USER_INSTALL_PERMISSIONS
        elif self.guild is not None:
            app_permissions = self.guild.permissions_of(fake.bot_user)
        else:
            app_permissions = MEMBER_PERMISSIONS
        if self.guild is not None:
            perms = self.guild.permissions_of(self.user)
            channel["permissions"] = str(perms)
            data.update(
                guild_id=str(self.guild.id),
                # a partial guild, as Discord sends with every interaction from a server
                guild={"id": str(self.guild.id), "locale": self.guild.locale, "features": []},
                guild_locale=self.guild.locale,
                member=self.guild.member_payload(self.user, with_permissions=True),
            )
        else:
            channel.setdefault("recipients", [self.user.payload()])
            data["user"] = self.user.payload()
        data.update(context=self.context_value, app_permissions=str(app_permissions))
        data["channel"] = channel
        if self.message_id is not None:
            data["message"] = fake.messages[self.message_id].payload()
        return data

    @property
    def answered(self) -> bool:
        return self._reply.done()

    @property
    def token_expired(self) -> bool:
        """Past the token's 15 minutes on the fake's clock: its webhook is refused."""
        return self.fake.now() - self.created_clock > TOKEN_LIFETIME_S

    @property
    def shard_id(self) -> int:
        """The shard whose connection received this interaction."""
        if self.session is None:
            raise LookupError(f"interaction {self.id} was not sent")
        return self.session.shard_id

    @property
    def original(self) -> FakeMessage | None:
        return self.fake.messages.get(self.original_id) if self.original_id else None

    @property
    def followups(self) -> list[FakeMessage]:
        return [self.fake.messages[i] for i in self.followup_ids]

    async def reply(self, timeout: float = 10.0) -> Reply:
        """Wait for the answer a player would see (after a defer: the edit or follow-up)."""
        try:
            return await asyncio.wait_for(asyncio.shield(self._reply), timeout)
        except TimeoutError:
            raise InteractionFailed(
                f"no reply to interaction {self.id} ({self.describe()}) within {timeout} s; "
                f"callback={self.callback_type}, events={[e[1] for e in self.events]}"
            ) from None

    async def wait_followups(self, count: int = 1, timeout: float = 10.0) -> list[MessageState]:
        """The first ``count`` follow-up messages (beyond the reply itself), once they exist."""
        await self.fake.wait_until(
            lambda: len(self.followup_ids) >= count,
            timeout=timeout,
            what=f"{count} follow-up(s) to {self.describe()}",
        )
        return [self.fake.messages[i].state() for i in self.followup_ids[:count]]

    def describe(self) -> str:
        if self.type in (APPLICATION_COMMAND, AUTOCOMPLETE):
            opts = {o["name"]: o.get("value") for o in self.data.get("options", [])}
            return f"/{self.command_name} {opts} by {self.user.name}"
        return f"{self.data.get('custom_id')} {self.data.get('values', '')} by {self.user.name}"

    def _complete(self, kind: str, message: FakeMessage | None = None, **extra: Any) -> None:
        if self._reply.done():
            return
        self.replied_at = time.perf_counter()
        state = message.state() if message is not None else None
        self._reply.set_result(Reply(self, kind, state, **extra))

    def _fail(self, exc: BaseException) -> None:
        if not self._reply.done():
            self._reply.set_exception(exc)
            self._reply.exception()  # mark retrieved: a test may never await this one


# --------------------------------------------------------------------------- validation


class InvalidBody(ValueError):
    """A request Discord would refuse with 400 Invalid Form Body (code 50035)."""


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise InvalidBody(message)


def validate_components(components: list[Mapping[str, Any]], flags: int) -> None:
    if flags & COMPONENTS_V2:
        _check(len(list(walk_components(components))) <= 40, "more than 40 components")
    else:
        _check(len(components) <= 5, f"{len(components)} action rows (at most 5)")
        for row in components:
            _check(row.get("type") == 1, f"top-level component of type {row.get('type')}")
            children = row.get("components") or []
            _check(1 <= len(children) <= 5, f"an action row with {len(children)} components")
            kinds = {c.get("type") for c in children}
            if kinds & SELECT_TYPES:
                _check(len(children) == 1, "a select menu shares its action row")
    seen: set[str] = set()
    for c in walk_components(components):
        raw = c.raw
        if c.is_button:
            if raw.get("style") == 5:
                _check(bool(raw.get("url")), "a link button without url")
            elif raw.get("style") != 6:
                _check(c.custom_id is not None, "a button without custom_id")
            _check(c.label is not None or raw.get("emoji") is not None, "a button without label")
            _check(len(c.label or "") <= 80, f"button label longer than 80: {c.label!r}")
        if c.is_select:
            _check(
                c.type != 3 or 1 <= len(c.options) <= 25, f"select with {len(c.options)} options"
            )
            _check(0 <= c.min_values <= c.max_values <= 25, "select min/max values out of range")
            _check(c.type != 3 or c.max_values <= len(c.options), "max_values above options")
            _check(len(c.placeholder or "") <= 150, "select placeholder longer than 150")
            values = set()
            for o in c.options:
                _check(
                    1 <= len(o.get("label", "")) <= 100, f"select option label {o.get('label')!r}"
                )
                _check(
                    1 <= len(o.get("value", "")) <= 100, f"select option value {o.get('value')!r}"
                )
                _check(len(o.get("description") or "") <= 100, "option description over 100")
                _check(o["value"] not in values, f"duplicate select option value {o['value']!r}")
                values.add(o["value"])
        if c.custom_id is not None:
            _check(1 <= len(c.custom_id) <= 100, f"custom_id of {len(c.custom_id)} characters")
            _check(c.custom_id not in seen, f"duplicate custom_id {c.custom_id!r}")
            seen.add(c.custom_id)


def validate_embeds(embeds: list[Mapping[str, Any]]) -> None:
    _check(len(embeds) <= 10, f"{len(embeds)} embeds (at most 10)")
    total = 0
    for e in embeds:
        title, description = e.get("title") or "", e.get("description") or ""
        _check(len(title) <= 256, "embed title over 256")
        _check(len(description) <= 4096, "embed description over 4096")
        fields = e.get("fields") or []
        _check(len(fields) <= 25, "more than 25 embed fields")
        total += len(title) + len(description)
        for f in fields:
            _check(1 <= len(f.get("name") or "") <= 256, "embed field name empty or over 256")
            _check(1 <= len(f.get("value") or "") <= 1024, "embed field value empty or over 1024")
            total += len(f["name"]) + len(f["value"])
        footer = (e.get("footer") or {}).get("text") or ""
        _check(len(footer) <= 2048, "embed footer over 2048")
        total += len(footer)
    _check(total <= 6000, f"embeds hold {total} characters (at most 6000)")


def validate_choices(choices: list[Mapping[str, Any]]) -> None:
    _check(len(choices) <= 25, f"{len(choices)} autocomplete choices (at most 25)")
    for c in choices:
        _check(1 <= len(c.get("name", "")) <= 100, f"choice name {c.get('name')!r}")
        value = c.get("value")
        if isinstance(value, str):
            _check(len(value) <= 100, f"choice value {value!r} over 100")


_COMMAND_NAME = re.compile(r"[-_\w]{1,32}")
# Discord's locales: the keys of name_localizations and description_localizations.
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
    "th", "zh-CN", "ja", "zh-TW", "ko",
})


def _is_name(name: object) -> bool:
    return isinstance(name, str) and bool(_COMMAND_NAME.fullmatch(name)) and name == name.lower()


def _validate_localizations(
    thing: Mapping[str, Any], where: str, *, names: bool = True, descriptions: bool = True
) -> None:
    """A command's, option's or choice's translations: known locales, and each name and
    description as Discord takes them (a choice's name is up to 100 of any characters)."""
    for key in ("name_localizations", "description_localizations"):
        localized = thing.get(key) or {}
        _check(isinstance(localized, dict), f"{where}: {key} is not an object")
        for locale, text in localized.items():
            _check(locale in LOCALES, f"{where}: {key} has an unknown locale {locale!r}")
            if key == "description_localizations" or not names:
                _check(isinstance(text, str) and 1 <= len(text) <= 100,
                       f"{where}: {key}[{locale}] length")
            else:
                _check(_is_name(text), f"{where}: {key}[{locale}] {text!r}")
    if not descriptions:
        _check(not thing.get("description_localizations"), f"{where}: a choice has no description")


def validate_command(cmd: Mapping[str, Any], *, embedded: bool = False) -> None:
    """As Discord checks a command; ``embedded``: the app has an Activity, which an Entry
    Point command (and its ``handler``) needs."""
    name = cmd.get("name", "")
    kind = cmd.get("type", 1)
    _check(kind in (CHAT_INPUT, 2, 3, PRIMARY_ENTRY_POINT), f"command type {kind!r}")
    if kind in (CHAT_INPUT, PRIMARY_ENTRY_POINT):
        _check(_is_name(name), f"command name {name!r}")
        _check(1 <= len(cmd.get("description", "")) <= 100, f"/{name} description length")
        _validate_localizations(cmd, f"/{name}")
    if kind == PRIMARY_ENTRY_POINT:
        _check(embedded, f"Entry Point command {name!r} for an app without an Activity")
        _check(not cmd.get("options"), f"Entry Point command {name!r} with options")
        _check(cmd.get("handler", APP_HANDLER) in (APP_HANDLER, DISCORD_LAUNCH_ACTIVITY),
               f"Entry Point command {name!r}: handler {cmd.get('handler')!r}")
    else:
        _check("handler" not in cmd, f"/{name}: a handler is for Entry Point commands only")
    # 0 a server install, 1 a user install; where: 0 servers, 1 the bot's DM, 2 other DMs
    for key, allowed in (("integration_types", {0, 1}), ("contexts", {0, 1, 2})):
        values = cmd.get(key)
        if values is not None:
            _check(
                isinstance(values, list) and set(values) <= allowed,
                f"/{name} {key} {values!r} (each one of {sorted(allowed)})",
            )
    _validate_options(cmd.get("options") or [], f"/{name}")


def _validate_options(options: list[Mapping[str, Any]], where: str) -> None:
    _check(len(options) <= 25, f"{where}: more than 25 options")
    for locale in LOCALES:  # in each language, as its players see them
        shown = [(o.get("name_localizations") or {}).get(locale, o.get("name")) for o in options]
        _check(len(set(shown)) == len(shown), f"{where}: two options named alike in {locale}")
    names: set[str] = set()
    optional_seen = False
    for o in options:
        name = o.get("name", "")
        _check(_is_name(name), f"{where}: option {name!r}")
        _check(name not in names, f"{where}: duplicate option {name!r}")
        names.add(name)
        _check(1 <= len(o.get("description", "")) <= 100, f"{where} {name}: description length")
        _validate_localizations(o, f"{where} {name}")
        if o.get("type") in (OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP):
            _validate_options(o.get("options") or [], f"{where} {name}")
            continue
        if o.get("required"):
            _check(not optional_seen, f"{where}: required option {name!r} after an optional one")
        else:
            optional_seen = True
        choices = o.get("choices") or []
        _check(len(choices) <= 25, f"{where} {name}: more than 25 choices")
        for choice in choices:
            _validate_localizations(choice, f"{where} {name} choice {choice.get('name')!r}",
                                    names=False, descriptions=False)
        _check(not (choices and o.get("autocomplete")), f"{where} {name}: choices and autocomplete")


# --------------------------------------------------------------------------- gateway


class GatewaySession:
    """One gateway connection: which shard it identified for, and which process holds it."""

    def __init__(self, ws: web.WebSocketResponse, query: Mapping[str, str], number: int) -> None:
        self.ws = ws
        self.query = dict(query)
        self.number = number  # 1 for the first connection the fake accepted, and so on
        self.session_id: str | None = None
        self.seq = 0
        self.intents = 0
        self.identified = False
        self.claimed = False  # its IDENTIFY was accepted (it is identified a moment later)
        self.heartbeats = 0
        self.shard: tuple[int, int] = (0, 1)  # [shard_id, shard_count]; (0, 1) when unsharded
        self.peer: tuple[str, int] | None = None  # the client's address and port
        self.client_pid: int | None = None  # the process at the other end (Linux only)
        self.interactions: list[int] = []  # ids of the interactions sent on this connection
        self.guild_ids: list[int] = []  # the guilds READY listed (and GUILD_CREATE sent)

    @property
    def open(self) -> bool:
        return not self.ws.closed

    @property
    def live(self) -> bool:
        return self.identified and self.open

    @property
    def shard_id(self) -> int:
        return self.shard[0]

    @property
    def shard_count(self) -> int:
        return self.shard[1]

    def serves(self, guild_id: int | None) -> bool:
        return shard_of(guild_id, self.shard_count) == self.shard_id

    def __repr__(self) -> str:
        return (
            f"<GatewaySession #{self.number} shard {self.shard_id}/{self.shard_count} "
            f"pid={self.client_pid} live={self.live}>"
        )

    async def send(self, payload: Mapping[str, Any]) -> None:
        # Plain text frames: discord.py decompresses only binary frames.
        await self.ws.send_str(json.dumps(payload, separators=(",", ":")))

    async def dispatch(self, event: str, data: Any) -> None:
        self.seq += 1
        await self.send({"op": 0, "t": event, "s": self.seq, "d": data})


def pid_of_client(client_port: int, server_port: int) -> int | None:
    """The process holding the client end of a loopback TCP connection, read from /proc.

    Only Linux has /proc; elsewhere (or when the process is not ours to read) this is None.
    """
    try:
        table = Path("/proc/net/tcp").read_text().splitlines()[1:]
    except OSError:
        return None
    wanted = None
    for line in table:
        fields = line.split()
        local, remote, inode = fields[1], fields[2], fields[9]
        if int(local.split(":")[1], 16) == client_port and (
            int(remote.split(":")[1], 16) == server_port
        ):
            wanted = f"socket:[{inode}]"
            break
    if wanted is None:
        return None
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fds = list((proc / "fd").iterdir())
        except OSError:  # gone, or not ours to read
            continue
        for fd in fds:
            with contextlib.suppress(OSError):  # closed while we looked
                if os.readlink(fd) == wanted:
                    return int(proc.name)
    return None


# --------------------------------------------------------------------------- the server


_DEFAULT = object()


_DISPOSITION = re.compile(
    r'form-data; name="([^"]*)"(?:; filename="([^"]*)")?', re.IGNORECASE
)


def _boundary(params: str) -> bytes:
    """The boundary of a multipart Content-Type's parameters (``; boundary=...``)."""
    for param in params.split(";"):
        key, _, value = param.strip().partition("=")
        if key.lower() == "boundary" and value:
            return value.strip('"').encode()
    raise InvalidBody("multipart/form-data without a boundary")


def _form_fields(body: bytes, boundary: bytes) -> Iterator[tuple[str, str | None, bytes]]:
    """Each field of a multipart/form-data body: its name, its filename if any, its bytes."""
    delimiter = b"--" + boundary
    if not body.startswith(delimiter):
        raise InvalidBody("multipart body does not start with its boundary")
    parts = body.split(b"\r\n" + delimiter)
    if not parts[-1].startswith(b"--"):
        raise InvalidBody("multipart body without its closing boundary")
    for part in parts[:-1]:
        head, sep, data = part.partition(b"\r\n\r\n")
        if not sep:
            raise InvalidBody("multipart part without headers")
        name = filename = None
        for line in head.decode("utf-8").split("\r\n")[1:]:
            key, _, value = line.partition(":")
            if key.strip().lower() == "content-disposition":
                m = _DISPOSITION.fullmatch(value.strip())
                if m is None:
                    raise InvalidBody(f"multipart part disposition {value.strip()!r}")
                name, filename = m.group(1), m.group(2)
        if name is None:
            raise InvalidBody("multipart part without a name")
        yield name, filename, data


class FakeDiscord:
    """The fake Discord: a world (application, bot user, guilds, members), REST and gateway."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token.for-tests-only",
        callback_deadline: float = CALLBACK_DEADLINE_S,
        heartbeat_interval_ms: int = 41_250,
        shard_count: int = 1,
        strict_ephemeral: bool = False,
        rate_limits: RateLimits | None = None,
    ) -> None:
        self.token = token
        # Discord's rate limits, kept (rate_limits.py): 429s past them, headers on each answer
        self.rate_limiter = RateLimiter(rate_limits or RateLimits())
        # True: pressing a component on someone else's ephemeral message raises LookupError,
        # as on Discord, where nobody else sees it. False (for now): the press goes through.
        self.strict_ephemeral = strict_ephemeral
        self.shard_count = shard_count  # what GET /gateway/bot recommends
        self.callback_deadline = callback_deadline
        self.heartbeat_interval_ms = heartbeat_interval_ms
        # The most bytes an attachment may have: what each interaction's
        # attachment_size_limit says, and what an upload is refused beyond (a server's
        # boosts raise it; a test may set it for the place it plays in).
        self.attachment_size_limit = ATTACHMENT_SIZE_LIMIT
        self.clock_offset = 0.0  # seconds added to the clock by advance_clock
        self.snowflakes = Snowflakes(lambda: time.time() + self.clock_offset)
        ids = self.snowflakes
        self.bot_user = FakeUser(ids.next(), "Solitaire", bot=True)
        self.application_id = self.bot_user.id
        self.app_owner = FakeUser(ids.next(), "developer")
        names = ["alice", "bob", "carol", "dana", "erin", "olga"]
        self.users: dict[str, FakeUser] = {n: FakeUser(ids.next(), n) for n in names}
        self.locales: dict[int, str] = {}  # user id -> their Discord's language (en-US if none)
        # An Activity's sign-in (OAuth2): codes the SDK's authorize gave (``authorize``),
        # each good for one exchange, and the access tokens they were exchanged for.
        self.client_secret = "fake-client-secret.for-tests-only"
        self.oauth_codes: dict[str, int] = {}
        self.access_tokens: dict[str, int] = {}
        # Until then (monotonic), /oauth2/token answers 429 as Discord does past its limit.
        self.token_limited_until = 0.0
        # The Activity's instances now open: each one's id and the users connected to it
        # (``launch``), as GET /applications/{app}/activity-instances/{instance} answers.
        self.activity_instances: dict[str, list[int]] = {}
        # What Activities uploaded to share as moments (POST /applications/{app}/attachment):
        # each one's CDN address, with who uploaded it, its file's name and its bytes.
        self.shared_uploads: dict[str, tuple[int, str, bytes]] = {}
        u = self.users
        # Two servers on different shards of two: "Solitaire Club" on 0, "Other Server" on 1.
        gid = ids.next_on_shard(0, 2)
        moderators = FakeRole(ids.next(), "Moderators", MANAGE_GUILD | MEMBER_PERMISSIONS, 1)
        self.guild = FakeGuild(
            id=gid,
            name="Solitaire Club",
            owner_id=u["olga"].id,
            channels=[FakeChannel(ids.next(), "games", gid), FakeChannel(ids.next(), "chat", gid)],
            roles=[FakeRole(gid, "@everyone", MEMBER_PERMISSIONS), moderators],
            members=[u["alice"], u["bob"], u["carol"], u["dana"], u["olga"], self.bot_user],
            member_roles={u["dana"].id: [moderators.id]},
        )
        gid2 = ids.next_on_shard(1, 2)
        self.other_guild = FakeGuild(
            id=gid2,
            name="Other Server",
            owner_id=u["erin"].id,
            channels=[FakeChannel(ids.next(), "cards", gid2)],
            roles=[FakeRole(gid2, "@everyone", MEMBER_PERMISSIONS)],
            members=[u["alice"], u["erin"], self.bot_user],
        )
        self.guilds = [self.guild, self.other_guild]
        gid3 = ids.next()
        # A server where the bot is not installed: only a user-installed app is used there.
        self.stranger_guild = FakeGuild(
            id=gid3,
            name="Elsewhere",
            owner_id=u["bob"].id,
            channels=[FakeChannel(ids.next(), "hangout", gid3)],
            roles=[FakeRole(gid3, "@everyone", MEMBER_PERMISSIONS)],
            members=[u["alice"], u["bob"], u["carol"], u["erin"]],
        )
        self.dm_channels: dict[int, FakeChannel] = {}  # user id -> their DM with the bot
        # DMs and group DMs between users, which the bot is not in: members -> channel
        self.private_channels: dict[frozenset[int], FakeChannel] = {}
        # guild id (None = global) -> command name -> stored payload (the Entry Point, type
        # 4, among the global ones: ``entry_point``)
        self.commands: dict[int | None, dict[str, dict[str, Any]]] = {}
        # Whether the app has an Activity (Activities enabled in the portal, the EMBEDDED
        # flag): ``enable_activities``. Without one, LAUNCH_ACTIVITY and Entry Point
        # commands are refused.
        self.activities = False
        self.launches: list[FakeInteraction] = []  # answered with LAUNCH_ACTIVITY, in order
        self.command_writes: list[tuple[str, int | None]] = []
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.requests: list[tuple[str, str, int]] = []
        self.problems: list[str] = []
        self.sessions: list[GatewaySession] = []
        self.identifies = 0
        self.resumes = 0
        self._watchers: set[asyncio.Event] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ----------------------------------------------------------------- lifecycle

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """The value for ``discord.http.Route.BASE``."""
        return f"{self.base_url}/api/v{API_VERSION}"

    @property
    def gateway_url(self) -> str:
        """The value for ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> FakeDiscord:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        log.info("fake Discord listening on %s", self.base_url)
        return self

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for session in list(self.sessions):
            if session.open:
                await session.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py, in this process, at the fake (and back afterwards)."""
        import discord.gateway
        import discord.http
        import yarl

        old = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old

    def now(self) -> float:
        """The fake's clock, in seconds: monotonic time plus whatever the test skipped."""
        return time.monotonic() + self.clock_offset

    def advance_clock(self, seconds: float) -> None:
        """Skip time without waiting for it: for interaction tokens' 15-minute lifetime, and
        for messages older than an hour (the ids made from now on are that much later)."""
        self.clock_offset += seconds

    def problem(self, text: str) -> None:
        log.error("FAKE DISCORD PROBLEM: %s", text)
        self.problems.append(text)
        self._notify()

    # ----------------------------------------------------------------- waiting

    def _notify(self) -> None:
        for event in self._watchers:
            event.set()

    async def wait_until(
        self, predicate: Callable[[], Any], *, timeout: float = 10.0, what: str = "a condition"
    ) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}")
            event = asyncio.Event()
            self._watchers.add(event)
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                pass
            finally:
                self._watchers.discard(event)

    async def wait_connected(self, *, identifies: int = 1, timeout: float = 20.0) -> None:
        """Wait until the bot has identified this many times in all (READY and guilds sent)."""
        await self.wait_until(
            lambda: self.identifies >= identifies and self.bot_session() is not None,
            timeout=timeout,
            what=f"IDENTIFY number {identifies}",
        )

    async def wait_commands(self, *names: str, timeout: float = 20.0) -> None:
        """Wait until the bot has registered these slash commands (anywhere)."""
        await self.wait_until(
            lambda: all(self.find_command(n) is not None for n in names),
            timeout=timeout,
            what=f"commands {names}",
        )

    async def wait_shards(self, *shard_ids: int, timeout: float = 20.0) -> None:
        """Wait until a live connection serves each of these shards."""
        await self.wait_until(
            lambda: all(any(s.shard_id == n for s in self.live_sessions()) for n in shard_ids),
            timeout=timeout,
            what=f"connections for shards {list(shard_ids)}",
        )

    async def drop_gateway(self, code: int = 4000, *, shard: int | None = None) -> None:
        """Close a gateway connection, as Discord does now and then; it should resume.

        Without ``shard``, the latest connection; with it, the one serving that shard.
        """
        if shard is None:
            session = self.bot_session()
        else:
            session = next((s for s in self.live_sessions() if s.shard_id == shard), None)
        if session is None:
            raise RuntimeError(f"the bot is not connected (shard {shard})")
        await session.ws.close(code=code, message=b"fake Discord says reconnect")

    def bot_session(self) -> GatewaySession | None:
        """The latest live connection (the only one, for an unsharded bot)."""
        for session in reversed(self.sessions):
            if session.live:
                return session
        return None

    def live_sessions(self) -> list[GatewaySession]:
        """Every identified, open gateway connection, oldest first."""
        return [s for s in self.sessions if s.live]

    def session_for(self, guild_id: int | None) -> GatewaySession:
        """The connection that receives this guild's events (``None``: direct messages)."""
        for session in reversed(self.sessions):
            if session.live and session.serves(guild_id):
                return session
        shards = [list(s.shard) for s in self.live_sessions()]
        raise RuntimeError(
            f"no live gateway connection serves guild {guild_id}; live shards: {shards}"
        )

    # ----------------------------------------------------------------- world helpers

    def add_members(self, count: int, *, prefix: str = "player") -> list[FakeUser]:
        """More members of the main guild (before the bot connects, so GUILD_CREATE lists them)."""
        added = []
        for n in range(count):
            user = FakeUser(self.snowflakes.next(), f"{prefix}{len(self.users) + n}")
            added.append(user)
        for user in added:
            self.users[user.name] = user
            self.guild.members.append(user)
        return added

    def user(self, who: FakeUser | str) -> FakeUser:
        return who if isinstance(who, FakeUser) else self.users[who]

    def set_locale(self, who: FakeUser | str, locale: str) -> None:
        """The language ``who`` uses Discord in (``de``, ``pt-BR``): their interactions
        carry it from now on."""
        if locale not in LOCALES:
            raise ValueError(f"{locale!r} is not one of Discord's locales")
        self.locales[self.user(who).id] = locale

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        if user.id not in self.dm_channels:
            self.dm_channels[user.id] = FakeChannel(self.snowflakes.next(), "", None, type=1)
        return self.dm_channels[user.id]

    def user_dm(self, user: FakeUser | str, friend: FakeUser | str) -> FakeChannel:
        """The DM between two users (not the bot): a user-installed app's context 2."""
        return self._private_channel([self.user(user), self.user(friend)], type=1)

    def group_dm(self, *users: FakeUser | str) -> FakeChannel:
        """The group DM of these users (not the bot): a user-installed app's context 2."""
        return self._private_channel([self.user(u) for u in users], type=3)

    def _private_channel(self, users: list[FakeUser], *, type: int) -> FakeChannel:
        key = frozenset(u.id for u in users)
        if key not in self.private_channels:
            name = ", ".join(u.name for u in users) if type == 3 else ""
            self.private_channels[key] = FakeChannel(
                self.snowflakes.next(), name, None, type=type, recipients=users
            )
        return self.private_channels[key]

    def guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        """The guild a channel belongs to (the bot's or the stranger one), or None for DMs."""
        for guild in [*self.guilds, self.stranger_guild]:
            if guild.id == channel.guild_id:
                return guild
        return None

    def _channel_out_of_reach(self, channel_id: int) -> bool:
        """A channel that exists but the bot cannot reach: another server's, or users' DMs."""
        return any(c.id == channel_id for c in self.stranger_guild.channels) or any(
            c.id == channel_id for c in self.private_channels.values()
        )

    def channel_by_id(self, channel_id: int) -> FakeChannel | None:
        """A channel the bot can reach (its guilds' channels and its DMs), or None."""
        for guild in self.guilds:
            for channel in guild.channels:
                if channel.id == channel_id:
                    return channel
        for channel in self.dm_channels.values():
            if channel.id == channel_id:
                return channel
        return None

    def enable_activities(self) -> dict[str, Any]:
        """Enable Activities, as the portal does: the app gets the EMBEDDED flag and its
        default Entry Point command, "launch", which Discord handles (handler 2)."""
        self.activities = True
        stored = self._store_command(None, {
            "name": "launch", "description": "Launch an activity",
            "type": PRIMARY_ENTRY_POINT, "handler": DISCORD_LAUNCH_ACTIVITY,
            "integration_types": [0, 1], "contexts": [0, 1, 2],
        })
        self.commands.setdefault(None, {})[stored["name"]] = stored
        return stored

    def entry_point(self) -> dict[str, Any] | None:
        """The app's Entry Point command as stored (a bulk overwrite without it deletes
        it, as Discord does), or None."""
        found = [c for c in self.commands.get(None, {}).values()
                 if c.get("type") == PRIMARY_ENTRY_POINT]
        return found[0] if found else None

    def find_command(self, name: str, guild: FakeGuild | None = None) -> dict[str, Any] | None:
        """The command a user in this guild would see: the guild's own first, then global."""
        if guild is not None and name in self.commands.get(guild.id, {}):
            return self.commands[guild.id][name]
        if name in self.commands.get(None, {}):
            return self.commands[None][name]
        if guild is None:
            for per_guild in self.commands.values():
                if name in per_guild:
                    return per_guild[name]
        return None

    def channel_messages(
        self, channel: FakeChannel | None = None, *, seen_by: FakeUser | str | None = None
    ) -> list[MessageState]:
        """The messages in a channel now (deleted ones gone), oldest first; with ``seen_by``,
        only those that user sees (someone else's ephemeral messages are not)."""
        where = channel or self.guild.channel
        viewer = self.user(seen_by) if seen_by is not None else None
        return [
            m.state()
            for m in self.messages.values()
            if m.channel.id == where.id
            and not m.deleted
            and (viewer is None or m.visible_to(viewer))
        ]

    def _pressable(
        self, player: FakeUser, message: FakeMessage | MessageState | Reply | int
    ) -> FakeMessage:
        msg = self.message(message)
        if msg.deleted:
            raise LookupError(f"message {msg.id} was deleted")
        if self.strict_ephemeral and not msg.visible_to(player):
            owner = msg.interaction.user.name if msg.interaction else "?"
            raise LookupError(f"{player.name} cannot see {owner}'s ephemeral message {msg.id}")
        return msg

    def message(self, ref: FakeMessage | MessageState | Reply | int) -> FakeMessage:
        if isinstance(ref, FakeMessage):
            return ref
        if isinstance(ref, Reply):
            ref = ref.message_id
        if isinstance(ref, MessageState):
            ref = ref.id
        return self.messages[ref]

    # ----------------------------------------------------------------- the players' side

    def _where(
        self, user: FakeUser, guild: Any, channel: FakeChannel | None, context: str | None
    ) -> tuple[FakeGuild | None, FakeChannel, str]:
        """Guild, channel and context of an interaction by this user.

        Without ``context``: the main guild, or the bot's DM for ``guild=None``. The
        user-install contexts default to the stranger guild, a DM with another user, and a
        group DM with two others.
        """
        if context is None:
            context = "bot_dm" if guild is None else "guild"
        if context not in CONTEXTS:
            raise ValueError(f"context {context!r} is not one of {sorted(CONTEXTS)}")
        if context in ("guild", "user_install_guild"):
            g: FakeGuild | None = guild
            if guild is _DEFAULT:
                g = self.guild if context == "guild" else self.stranger_guild
            if g is None:
                raise ValueError(f"context {context!r} needs a guild")
            if not g.member(user):
                raise ValueError(f"{user.name} is not a member of {g.name}")
            return g, channel or g.channel, context
        if guild is not _DEFAULT and guild is not None:
            raise ValueError(f"context {context!r} is not in a guild")
        if context == "bot_dm":
            return None, channel or self.dm_channel(user), context
        others = [u for u in self.users.values() if u.id != user.id]
        if context == "dm":
            return None, channel or self.user_dm(user, others[0]), context
        return None, channel or self.group_dm(user, *others[:2]), context

    @staticmethod
    def _check_offered(cmd: Mapping[str, Any], context: str) -> None:
        """Refuse what Discord's client would not offer: a command outside its ``contexts``,
        or one that cannot be user-installed where only a user install reaches."""
        name, where = cmd["name"], context.replace("_", " ")
        contexts = cmd.get("contexts")
        if contexts is not None and CONTEXTS[context] not in contexts:
            raise ValueError(f"Discord's client does not offer /{name} in a {where}: {contexts=}")
        kinds = cmd.get("integration_types") or [0]
        if context in USER_INSTALL_CONTEXTS and 1 not in kinds:
            raise ValueError(
                f"/{name} is not user-installable (integration_types {kinds}): "
                f"Discord's client does not offer it in a {where}"
            )
        if context == "bot_dm" and cmd.get("dm_permission") is False:
            raise ValueError(f"Discord's client does not offer /{name} in DMs (dm_permission)")

    async def send_interaction(self, interaction: FakeInteraction) -> FakeInteraction:
        """Send INTERACTION_CREATE on the connection serving the interaction's guild's shard."""
        if self.bot_session() is None:
            raise RuntimeError("the bot is not connected to the fake gateway")
        guild_id = interaction.guild.id if interaction.guild is not None else None
        session = self.session_for(guild_id)
        self.interactions[interaction.id] = interaction
        payload = interaction.payload()
        interaction.session = session
        interaction.created_clock = self.now()
        session.interactions.append(interaction.id)
        interaction.sent_at = time.perf_counter()
        await session.dispatch("INTERACTION_CREATE", payload)
        task = asyncio.create_task(self._deadline(interaction))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return interaction

    async def _deadline(self, interaction: FakeInteraction) -> None:
        await asyncio.sleep(self.callback_deadline)
        if interaction.callback_type is None:
            interaction.expired = True
            self.problem(
                f"interaction {interaction.describe()} not acknowledged within "
                f"{self.callback_deadline} s: the player sees 'This interaction failed'"
            )
            interaction._fail(InteractionFailed(f"no callback for {interaction.describe()}"))

    def _command_data(
        self,
        name: str,
        options: Mapping[str, Any],
        guild: FakeGuild | None,
        focused: str | None = None,
        *,
        context: str = "guild",
        checked: bool = True,
        resolved: Mapping[str, Any] | None = None,
    ) -> tuple[dict[str, Any], str]:
        words = name.split()
        if context in USER_INSTALL_CONTEXTS:  # only global commands reach a user install
            cmd = self.commands.get(None, {}).get(words[0])
        else:
            cmd = self.find_command(words[0], guild)
        if cmd is None:
            raise LookupError(
                f"/{words[0]} is not registered for {guild.name if guild else 'DMs'} "
                f"({context}); registered: { {g: sorted(c) for g, c in self.commands.items()} }"
            )
        self._check_offered(cmd, context)
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": cmd.get("type", 1)}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        spec_options = cmd.get("options") or []
        container = data
        for word in words[1:]:  # subcommand groups and subcommands
            sub = next((o for o in spec_options if o["name"] == word), None)
            if sub is None or sub["type"] not in (OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP):
                raise LookupError(f"/{name}: no subcommand {word!r}")
            inner: dict[str, Any] = {"name": word, "type": sub["type"], "options": []}
            container.setdefault("options", []).append(inner)
            container, spec_options = inner, sub.get("options") or []
        if checked:
            built, found = self._build_options(name, spec_options, options, guild, focused)
        else:
            built, found = self._raw_options(spec_options, options), dict(resolved or {})
        container["options"] = built
        if found:
            data["resolved"] = found
        return data, cmd["name"]

    @staticmethod
    def _raw_options(
        spec_options: list[dict[str, Any]], given: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """Options exactly as given: each value untouched, the type the command declares
        (string for a name it does not know)."""
        kinds = {o["name"]: o["type"] for o in spec_options}
        return [
            {"name": key, "type": kinds.get(key, OPTION_STRING), "value": value}
            for key, value in given.items()
        ]

    def _build_options(
        self,
        name: str,
        spec_options: list[dict[str, Any]],
        given: Mapping[str, Any],
        guild: FakeGuild | None,
        focused: str | None,
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Options as Discord's client would send them, refusing what it would not allow."""
        by_name = {o["name"]: o for o in spec_options}
        unknown = set(given) - set(by_name)
        if unknown:
            raise LookupError(f"/{name} has no option {sorted(unknown)}; it has {sorted(by_name)}")
        if focused is None:
            missing = [
                o["name"] for o in spec_options if o.get("required") and o["name"] not in given
            ]
            if missing:
                raise ValueError(f"/{name}: Discord's client requires {missing}")
        out: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for key, value in given.items():
            spec = by_name[key]
            kind = spec["type"]
            option: dict[str, Any] = {"name": key, "type": kind}
            if key == focused:
                option.update(value=str(value), focused=True)
                out.append(option)
                continue
            choices = spec.get("choices")
            if kind in (OPTION_USER, OPTION_MENTIONABLE):
                user = self.user(value)
                option["value"] = str(user.id)
                resolved.setdefault("users", {})[str(user.id)] = user.payload()
                if guild is not None and guild.member(user):
                    member = guild.member_payload(user, with_permissions=True)
                    del member["user"]
                    resolved.setdefault("members", {})[str(user.id)] = member
            elif kind == OPTION_INTEGER:
                option["value"] = int(value)
            elif kind == OPTION_NUMBER:
                option["value"] = float(value)
            elif kind == OPTION_BOOLEAN:
                if not isinstance(value, bool):
                    raise TypeError(f"/{name} {key}: a boolean option takes True or False")
                option["value"] = value
            elif kind == OPTION_STRING:
                option["value"] = str(value)
            else:
                option["value"] = value
            low, high = spec.get("min_value"), spec.get("max_value")
            if kind in (OPTION_INTEGER, OPTION_NUMBER) and not (
                (low is None or option["value"] >= low)
                and (high is None or option["value"] <= high)
            ):
                raise ValueError(f"/{name} {key}: Discord's client accepts only {low}..{high}")
            if kind == OPTION_STRING and not (
                spec.get("min_length", 0) <= len(option["value"]) <= spec.get("max_length", 6000)
            ):
                raise ValueError(f"/{name} {key}: Discord's client refuses that length")
            if choices and option["value"] not in [c["value"] for c in choices]:
                raise ValueError(
                    f"/{name} {key}: Discord's client offers only {[c['value'] for c in choices]}"
                )
            out.append(option)
        return out, resolved

    def start_command(
        self,
        user: FakeUser | str,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        guild: Any = _DEFAULT,
        channel: FakeChannel | None = None,
        context: str | None = None,
        owners: Mapping[str, str] | None = None,
        checked: bool = True,
        resolved: Mapping[str, Any] | None = None,
    ) -> FakeInteraction:
        player = self.user(user)
        g, ch, where = self._where(player, guild, channel, context)
        data, cmd_name = self._command_data(
            name, options or {}, g, context=where, checked=checked, resolved=resolved
        )
        return FakeInteraction(
            self,
            type=APPLICATION_COMMAND,
            user=player,
            guild=g,
            channel=ch,
            data=data,
            command_name=cmd_name,
            context=where,
            owners=owners,
        )

    async def command(
        self,
        user: FakeUser | str,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        guild: Any = _DEFAULT,
        channel: FakeChannel | None = None,
        context: str | None = None,
        owners: Mapping[str, str] | None = None,
        timeout: float = 10.0,
    ) -> Reply:
        """Run a slash command as this user and wait for the reply.

        ``guild=None`` is the bot's DM. ``context`` is one of "guild", "bot_dm",
        "user_install_guild", "dm", "group_dm" (see :data:`CONTEXTS`); ``owners`` replaces
        the ``authorizing_integration_owners`` the context implies.
        """
        interaction = self.start_command(
            user, name, options, guild=guild, channel=channel, context=context, owners=owners
        )
        await self.send_interaction(interaction)
        return await interaction.reply(timeout)

    async def command_unchecked(
        self,
        user: FakeUser | str,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        resolved: Mapping[str, Any] | None = None,
        guild: Any = _DEFAULT,
        channel: FakeChannel | None = None,
        context: str | None = None,
        timeout: float = 10.0,
    ) -> Reply:
        """A slash command whose option values go out exactly as given, as a modified or
        out-of-date client might send them: ``{"deal": "12"}`` stays a string, a user id
        comes without ``resolved`` data unless ``resolved`` is given, any name is sent. The
        command itself must exist and be offered here."""
        interaction = self.start_command(
            user,
            name,
            options,
            guild=guild,
            channel=channel,
            context=context,
            checked=False,
            resolved=resolved,
        )
        await self.send_interaction(interaction)
        return await interaction.reply(timeout)

    async def autocomplete(
        self,
        user: FakeUser | str,
        name: str,
        *,
        focused: str,
        value: str = "",
        options: Mapping[str, Any] | None = None,
        guild: Any = _DEFAULT,
        context: str | None = None,
        timeout: float = 10.0,
    ) -> Reply:
        """Type ``value`` into option ``focused`` of a command and wait for the choices."""
        player = self.user(user)
        g, ch, where = self._where(player, guild, None, context)
        cmd = self.find_command(name.split()[0], g)
        spec = next((o for o in (cmd or {}).get("options", []) if o["name"] == focused), None)
        if spec is not None and not spec.get("autocomplete"):
            raise ValueError(f"/{name} {focused} does not autocomplete")
        given = {**(options or {}), focused: value}
        data, cmd_name = self._command_data(name, given, g, focused=focused, context=where)
        interaction = FakeInteraction(
            self,
            type=AUTOCOMPLETE,
            user=player,
            guild=g,
            channel=ch,
            data=data,
            command_name=cmd_name,
            context=where,
        )
        await self.send_interaction(interaction)
        return await interaction.reply(timeout)

    def start_component(
        self,
        user: FakeUser | str,
        message: FakeMessage | MessageState | Reply | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        values: list[str] | None = None,
    ) -> FakeInteraction:
        player = self.user(user)
        msg = self._pressable(player, message)
        component = msg.state().component(custom_id, label=label)
        if component.disabled:
            raise ValueError(f"{component.label or component.custom_id!r} is disabled")
        data: dict[str, Any] = {"custom_id": component.custom_id, "component_type": component.type}
        if component.is_select:
            chosen = list(values or [])
            if not component.min_values <= len(chosen) <= component.max_values:
                raise ValueError(f"select takes {component.min_values}..{component.max_values}")
            if component.type == 3:
                offered = component.values
                bad = [v for v in chosen if v not in offered]
                if bad:
                    raise ValueError(f"{bad} not among the select options {offered}")
            data["values"] = chosen
        elif values is not None:
            raise ValueError("values are for select menus")
        return self._component_interaction(player, msg, data)

    def _component_interaction(
        self, player: FakeUser, msg: FakeMessage, data: dict[str, Any]
    ) -> FakeInteraction:
        """A press on this message: where the message is, installed as its command was."""
        origin = msg.interaction
        guild = self.guild_of(msg.channel)
        if origin is not None:
            context, owners = origin.context, origin.owners
        else:
            context, owners = ("guild" if guild is not None else "bot_dm"), None
        return FakeInteraction(
            self,
            type=MESSAGE_COMPONENT,
            user=player,
            guild=guild,
            channel=msg.channel,
            data=data,
            message=msg,
            context=context,
            owners=owners,
        )

    async def autocomplete_unchecked(
        self,
        user: FakeUser | str,
        name: str,
        options: Mapping[str, Any],
        *,
        focused: str,
        guild: Any = _DEFAULT,
        timeout: float = 10.0,
    ) -> Reply:
        """An autocomplete whose options go out exactly as given, ``focused`` marked as the
        one being typed, whether or not the command declares it or lets it autocomplete."""
        player = self.user(user)
        g, ch, where = self._where(player, guild, None, None)
        data, cmd_name = self._command_data(name, options, g, context=where, checked=False)
        for option in data.get("options", []):
            if option["name"] == focused:
                option["focused"] = True
        interaction = FakeInteraction(
            self, type=AUTOCOMPLETE, user=player, guild=g, channel=ch, data=data,
            command_name=cmd_name, context=where,
        )
        await self.send_interaction(interaction)
        return await interaction.reply(timeout)

    async def press_without_message(
        self,
        user: FakeUser | str,
        message: FakeMessage | MessageState | Reply | int,
        *,
        label: str,
        timeout: float = 10.0,
    ) -> Reply:
        """Press a button of ``message`` in an interaction that does not carry the message,
        which Discord always includes."""
        interaction = self.start_component(user, message, None, label=label)
        interaction.message_id = None
        await self.send_interaction(interaction)
        return await interaction.reply(timeout)

    async def press(
        self,
        user: FakeUser | str,
        message: FakeMessage | MessageState | Reply | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        timeout: float = 10.0,
    ) -> Reply:
        """Press a button (by custom_id or label) on the message as it is now."""
        interaction = self.start_component(user, message, custom_id, label=label)
        await self.send_interaction(interaction)
        return await interaction.reply(timeout)

    async def select(
        self,
        user: FakeUser | str,
        message: FakeMessage | MessageState | Reply | int,
        custom_id: str | None = None,
        values: list[str] | None = None,
        *,
        timeout: float = 10.0,
    ) -> Reply:
        """Choose values in a select menu (the message's only one when custom_id is None)."""
        msg = self.message(message)
        if custom_id is None:
            custom_id = msg.state().select.custom_id
        interaction = self.start_component(user, msg, custom_id, values=values or [])
        await self.send_interaction(interaction)
        return await interaction.reply(timeout)

    async def press_unchecked(
        self,
        user: FakeUser | str,
        message: FakeMessage | MessageState | Reply | int,
        custom_id: str,
        *,
        values: list[str] | None = None,
        component_type: int | None = None,
        timeout: float = 10.0,
    ) -> Reply:
        """A component interaction with any ``custom_id`` (one the message does not carry,
        an older version's), and for a select any ``values`` (none of the options, too many).
        ``component_type`` defaults to a button, or a string select when values are given."""
        player = self.user(user)
        msg = self._pressable(player, message)
        kind = component_type or (2 if values is None else 3)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if values is not None:
            data["values"] = list(values)
        interaction = self._component_interaction(player, msg, data)
        await self.send_interaction(interaction)
        return await interaction.reply(timeout)

    async def select_unchecked(
        self,
        user: FakeUser | str,
        message: FakeMessage | MessageState | Reply | int,
        values: list[str],
        custom_id: str | None = None,
        *,
        timeout: float = 10.0,
    ) -> Reply:
        """Choose values the select menu does not offer (the message's only select by
        default, or any ``custom_id``)."""
        msg = self.message(message)
        if custom_id is None:
            select = msg.state().select
            custom_id, kind = select.custom_id or "", select.type
        else:
            kind = 3
        return await self.press_unchecked(
            user, msg, custom_id, values=values, component_type=kind, timeout=timeout
        )

    def post_earlier_message(
        self,
        *,
        content: str = "",
        buttons: Mapping[str, str] | None = None,
        components: list[Mapping[str, Any]] | None = None,
        channel: FakeChannel | None = None,
    ) -> MessageState:
        """A message the bot posted before this run (by an older version, say): ``buttons``
        maps custom_id to label, or give raw ``components``. Pressing its buttons sends the
        old custom_ids to the bot."""
        where = channel or self.guild.channel
        rows = list(components or [])
        if buttons:
            row = [
                {"type": 2, "style": 2, "custom_id": cid, "label": label}
                for cid, label in buttons.items()
            ]
            rows += [{"type": 1, "components": row[i : i + 5]} for i in range(0, len(row), 5)]
        message = self._new_message(where, type=0, flags=0, interaction=None)
        self._apply(message, {"content": content, "components": rows}, [], creating=True)
        return message.state()

    # ----------------------------------------------------------------- HTTP plumbing

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        path = request.path
        needs_auth = path.startswith("/api/") and not re.match(
            r"/api/v\d+/((interactions|webhooks)/|oauth2/token$)", path
        )
        bot_auth = request.headers.get("Authorization") == f"Bot {self.token}"
        user_auth = (path.endswith("/users/@me") or path.endswith("/attachment")) and \
            self._bearer(request) is not None  # (a user's own token: those two routes)
        if needs_auth and not (bot_auth or user_auth):
            self.requests.append((request.method, path, 401))
            self.rate_limiter.count(401)
            return self._json({"message": "401: Unauthorized", "code": 0}, 401)
        route = request.match_info.route.resource
        template = re.sub(r"^/api/v\d+", "", route.canonical) if route is not None else path
        limited, limit_headers = self.rate_limiter.check(
            request.method, template, dict(request.match_info), bot_auth)
        if limited is not None:
            self.requests.append((request.method, path, 429))
            self.rate_limiter.count(429)
            self._notify()
            return web.Response(status=429, body=json.dumps(limited).encode(),
                                headers={"Content-Type": "application/json", **limit_headers,
                                         **VIA})
        try:
            response: web.StreamResponse = await handler(request)
        except InvalidBody as exc:
            self.problem(f"{request.method} {path}: Invalid Form Body: {exc}")
            response = self._json(
                {
                    "code": 50035,
                    "message": "Invalid Form Body",
                    "errors": {"_errors": [{"code": "BASE_TYPE_INVALID", "message": str(exc)}]},
                },
                400,
            )
        except web.HTTPException:
            raise
        except Exception as exc:  # a bug in the fake: make it loud
            log.exception("fake Discord crashed on %s %s", request.method, path)
            self.problem(f"fake Discord crashed on {request.method} {path}: {exc!r}")
            response = self._json({"message": "500: Internal Server Error", "code": 0}, 500)
        self.requests.append((request.method, path, response.status))
        self.rate_limiter.count(response.status)
        response.headers.update({**limit_headers, **VIA})
        return response

    @property
    def rate_limited(self) -> list[Limited]:
        """Every 429 the fake answered, oldest first."""
        return self.rate_limiter.limited

    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        # Exactly "application/json": discord.py parses no other Content-Type.
        return web.Response(
            status=status,
            body=json.dumps(data).encode(),
            headers={"Content-Type": "application/json"},
        )

    def _error(self, status: int, code: int, message: str, why: str) -> web.Response:
        self.problem(why)
        return self._json({"message": message, "code": code}, status)

    async def _read_body(
        self, request: web.Request
    ) -> tuple[dict[str, Any], list[tuple[str, bytes]]]:
        """The JSON payload and the uploaded files (multipart/form-data with payload_json).

        The form is split here rather than by aiohttp's multipart reader, which parses every
        header through the email package: the fake shares the machine with the bot in
        ``bench_bot``, and Discord's own servers cost the bot nothing."""
        kind, _, params = request.headers.get("Content-Type", "").partition(";")
        kind = kind.strip().lower()
        if kind == "multipart/form-data":
            boundary = _boundary(params)
            payload: dict[str, Any] = {}
            files: dict[int, tuple[str, bytes]] = {}
            for name, filename, data in _form_fields(await request.read(), boundary):
                if name == "payload_json":
                    payload = json.loads(data)
                elif m := re.fullmatch(r"files\[(\d+)\]", name):
                    files[int(m.group(1))] = (filename or "file", data)
                else:
                    raise InvalidBody(f"unexpected multipart field {name!r}")
            return payload, [files[i] for i in sorted(files)]
        if request.can_read_body:
            if kind != "application/json":
                raise InvalidBody(f"body of type {kind!r}")
            return json.loads(await request.read()), []
        return {}, []

    def _add_routes(self, app: web.Application) -> None:
        api = f"/api/v{API_VERSION}"
        r = app.router
        r.add_get("/gateway", self._gateway)
        r.add_get("/attachments/{channel}/{attachment}/{filename}", self._cdn)
        r.add_get(api + "/users/@me", self._get_me)
        r.add_post(api + "/oauth2/token", self._oauth2_token)
        r.add_get(api + "/users/{user_id}", self._get_user)
        r.add_get(api + "/applications/{app_id}/activity-instances/{instance_id}",
                  self._get_activity_instance)
        r.add_post(api + "/applications/{app_id}/attachment", self._upload_attachment)
        r.add_get(api + "/oauth2/applications/@me", self._get_application)
        r.add_get(api + "/applications/@me", self._get_application)
        r.add_get(api + "/gateway", self._get_gateway)
        r.add_get(api + "/gateway/bot", self._get_gateway_bot)
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            r.add_get(api + prefix + "/commands", self._list_commands)
            r.add_put(api + prefix + "/commands", self._put_commands)
            r.add_post(api + prefix + "/commands", self._post_command)
            r.add_get(api + prefix + "/commands/{command_id}", self._get_command)
            r.add_patch(api + prefix + "/commands/{command_id}", self._patch_command)
            r.add_delete(api + prefix + "/commands/{command_id}", self._delete_command)
        r.add_post(api + "/interactions/{interaction_id}/{token}/callback", self._callback)
        r.add_post(api + "/webhooks/{app_id}/{token}", self._followup)
        hook = api + "/webhooks/{app_id}/{token}/messages/{message_id}"
        r.add_get(hook, self._webhook_get)
        r.add_patch(hook, self._webhook_edit)
        r.add_delete(hook, self._webhook_delete)
        r.add_get(api + "/channels/{channel_id}", self._get_channel)
        r.add_post(api + "/channels/{channel_id}/messages", self._channel_send)
        msg = api + "/channels/{channel_id}/messages/{message_id}"
        r.add_get(msg, self._channel_get)
        r.add_patch(msg, self._channel_edit)
        r.add_delete(msg, self._channel_delete)
        r.add_get(api + "/guilds/{guild_id}", self._get_guild)
        r.add_get(api + "/guilds/{guild_id}/members/{user_id}", self._get_member)
        r.add_route("*", "/{tail:.*}", self._unknown)

    async def _unknown(self, request: web.Request) -> web.Response:
        return self._error(
            404, 0, "404: Not Found", f"unknown route {request.method} {request.path} (not faked)"
        )

    # ----------------------------------------------------------------- REST: identity

    async def _get_me(self, request: web.Request) -> web.Response:
        user_id = self._bearer(request)
        if user_id is not None:  # an Activity's player, by the access token of their sign-in
            user = next(u for u in self.users.values() if u.id == user_id)
            return self._json({**user.payload(), "locale": self.locales.get(user_id, "en-US")})
        return self._json({**self.bot_user.payload(), "verified": True, "mfa_enabled": False})

    def _bearer(self, request: web.Request) -> int | None:
        """The user whose access token authorizes ``request`` (None: none does)."""
        header = request.headers.get("Authorization", "")
        return self.access_tokens.get(header.removeprefix("Bearer ")) if header.startswith(
            "Bearer ") else None

    def authorize(self, who: FakeUser | str) -> str:
        """The code the embedded app SDK's ``commands.authorize`` gives ``who``'s page."""
        code = secrets.token_urlsafe(16)
        self.oauth_codes[code] = self.user(who).id
        return code

    async def _oauth2_token(self, request: web.Request) -> web.Response:
        """The authorization-code grant: the app's id and secret, and a code used once."""
        wait = self.token_limited_until - time.monotonic()
        if wait > 0:
            return web.Response(status=429, body=json.dumps(
                {"message": "You are being rate limited.", "retry_after": round(wait, 3),
                 "global": False}).encode(),
                headers={"Content-Type": "application/json", "Retry-After": str(int(wait) + 1)})
        form = await request.post()
        if (form.get("client_id") != str(self.application_id)
                or form.get("client_secret") != self.client_secret):
            return self._json({"error": "invalid_client"}, 401)
        user_id = self.oauth_codes.pop(str(form.get("code", "")), None)
        if form.get("grant_type") != "authorization_code" or user_id is None:
            return self._json({"error": "invalid_grant",
                               "error_description": 'Invalid "code" in request.'}, 400)
        token = secrets.token_urlsafe(24)
        self.access_tokens[token] = user_id
        return self._json({"access_token": token, "token_type": "Bearer",
                           "expires_in": 604800, "refresh_token": secrets.token_urlsafe(24),
                           "scope": "identify"})

    async def _get_user(self, request: web.Request) -> web.Response:
        uid = int(request.match_info["user_id"])
        for user in [*self.users.values(), self.bot_user]:
            if user.id == uid:
                return self._json(user.payload())
        return self._error(404, 10013, "Unknown User", f"GET unknown user {uid}")

    def launch(self, instance: str, *users: FakeUser | str) -> str:
        """``users`` open the Activity together (or join its instance): its instance id."""
        connected = self.activity_instances.setdefault(instance, [])
        connected += [u.id for u in map(self.user, users) if u.id not in connected]
        return instance

    def leave_activity(self, instance: str, user: FakeUser | str) -> None:
        """``user`` closes the Activity; the instance ends once nobody is left in it."""
        connected = self.activity_instances.get(instance, [])
        if self.user(user).id in connected:
            connected.remove(self.user(user).id)
        if not connected:
            self.activity_instances.pop(instance, None)

    async def _get_activity_instance(self, request: web.Request) -> web.Response:
        """Discord's Get Application Activity Instance: the bot's token only; 404 for an
        instance that is not (or no longer) open."""
        if request.headers.get("Authorization") != f"Bot {self.token}":
            return self._json({"message": "401: Unauthorized", "code": 0}, 401)
        self._check_app(request)
        instance = request.match_info["instance_id"]
        users = self.activity_instances.get(instance)
        if users is None:
            return self._json({"message": "Unknown Activity Instance", "code": 10000}, 404)
        return self._json({
            "application_id": str(self.application_id), "instance_id": instance,
            "launch_id": str(abs(hash(instance)) % 10**18),
            "location": {"id": f"gc-{self.guild.id}-{self.guild.channels[0].id}", "kind": "gc",
                         "channel_id": str(self.guild.channels[0].id),
                         "guild_id": str(self.guild.id)},
            "users": [str(u) for u in users]})

    async def _upload_attachment(self, request: web.Request) -> web.Response:
        """Discord's upload of a file an Activity shares as a moment: the user's own token
        (Bearer), multipart with one ``file``; answered with its CDN address."""
        user_id = self._bearer(request)
        if user_id is None:
            return self._json({"message": "401: Unauthorized", "code": 0}, 401)
        self._check_app(request)
        kind, _, params = request.headers.get("Content-Type", "").partition(";")
        if kind.strip().lower() != "multipart/form-data":
            return self._error(400, 50035, "Invalid Form Body", "an attachment is multipart")
        fields = list(_form_fields(await request.read(), _boundary(params)))
        if [name for name, _, _ in fields] != ["file"] or not fields[0][2]:
            return self._error(400, 50035, "Invalid Form Body", "one field, file, not empty")
        _, filename, data = fields[0]
        attachment_id = secrets.randbelow(10**18)
        url = (f"https://cdn.discordapp.com/ephemeral-attachments/{self.application_id}/"
               f"{attachment_id}/{filename or 'file'}")
        self.shared_uploads[url] = (user_id, filename or "file", data)
        return self._json({"attachment": {"id": str(attachment_id), "filename": filename,
                                          "size": len(data), "url": url}})

    async def _get_application(self, request: web.Request) -> web.Response:
        return self._json(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "icon": None,
                "description": "Five patience games",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "owner": self.app_owner.payload(),
                "team": None,
                "flags": EMBEDDED if self.activities else 0,
                "bot": self.bot_user.payload(),
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(self.guilds),
            }
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return self._json({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return self._json(
            {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _get_channel(self, request: web.Request) -> web.Response:
        refused = self._out_of_reach(request)
        if refused is not None:
            return refused
        channel = self.channel_by_id(int(request.match_info["channel_id"]))
        if channel is None:
            return self._error(
                404, 10003, "Unknown Channel", f"GET {request.path}: no such channel"
            )
        return self._json(channel.payload())

    def _guild_out_of_reach(self, request: web.Request) -> web.Response | None:
        """403 Missing Access for the server where only a user installed the app."""
        if int(request.match_info["guild_id"]) == self.stranger_guild.id:
            return self._error(
                403, 50001, "Missing Access", f"GET {request.path}: the bot is not in that guild"
            )
        return None

    async def _get_guild(self, request: web.Request) -> web.Response:
        refused = self._guild_out_of_reach(request)
        if refused is not None:
            return refused
        gid = int(request.match_info["guild_id"])
        for guild in self.guilds:
            if guild.id == gid:
                data = guild.create_payload()
                for key in ("members", "channels", "threads", "presences", "voice_states"):
                    data.pop(key)
                return self._json(data)
        return self._error(404, 10004, "Unknown Guild", f"GET {request.path}: no such guild")

    async def _get_member(self, request: web.Request) -> web.Response:
        refused = self._guild_out_of_reach(request)
        if refused is not None:
            return refused
        gid, uid = int(request.match_info["guild_id"]), int(request.match_info["user_id"])
        for guild in self.guilds:
            if guild.id == gid:
                for member in guild.members:
                    if member.id == uid:
                        return self._json(guild.member_payload(member))
        return self._error(404, 10007, "Unknown Member", f"GET {request.path}: no such member")

    async def _cdn(self, request: web.Request) -> web.Response:
        aid = int(request.match_info["attachment"])
        for message in self.messages.values():
            for attachment in message.attachments:
                if attachment.id == aid:
                    return web.Response(
                        body=attachment.data, headers={"Content-Type": attachment.content_type}
                    )
        return web.Response(status=404)

    # ----------------------------------------------------------------- REST: commands

    def _check_app(self, request: web.Request) -> None:
        if int(request.match_info["app_id"]) != self.application_id:
            raise InvalidBody(f"application id {request.match_info['app_id']} is not ours")

    def _scope(self, request: web.Request) -> int | None:
        gid = request.match_info.get("guild_id")
        if gid is None:
            return None
        if not any(g.id == int(gid) for g in self.guilds):
            raise InvalidBody(f"the bot is not in guild {gid}")
        return int(gid)

    def _store_command(self, scope: int | None, cmd: dict[str, Any]) -> dict[str, Any]:
        validate_command(cmd, embedded=self.activities)
        if cmd.get("type") == PRIMARY_ENTRY_POINT:
            _check(scope is None, "an Entry Point command in a guild (global only)")
        existing = self.commands.get(scope, {}).get(cmd["name"])
        stored = {
            "type": 1,
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "contexts": None,
            "integration_types": [0],
            **cmd,
            "id": existing["id"] if existing else str(self.snowflakes.next()),
            "application_id": str(self.application_id),
            "version": str(self.snowflakes.next()),
        }
        if scope is not None:
            stored["guild_id"] = str(scope)
        return stored

    async def _list_commands(self, request: web.Request) -> web.Response:
        """As Discord lists them: the localization dictionaries only with
        ``?with_localizations=true``."""
        self._check_app(request)
        listed = list(self.commands.get(self._scope(request), {}).values())
        if request.query.get("with_localizations", "").lower() != "true":
            drop = ("name_localizations", "description_localizations")
            listed = [{k: v for k, v in c.items() if k not in drop} for c in listed]
        return self._json(listed)

    async def _put_commands(self, request: web.Request) -> web.Response:
        self._check_app(request)
        scope = self._scope(request)
        body = await request.json()
        if not isinstance(body, list):
            raise InvalidBody("bulk overwrite takes a list")
        _check(len(body) <= 100, "more than 100 commands")
        new = {}
        for cmd in body:
            stored = self._store_command(scope, cmd)
            _check(stored["name"] not in new, f"duplicate command {stored['name']!r}")
            new[stored["name"]] = stored
        entry_points = [c for c in new.values() if c["type"] == PRIMARY_ENTRY_POINT]
        _check(len(entry_points) <= 1, "more than one Entry Point command")
        self.commands[scope] = new  # what is not sent is deleted: an Entry Point too
        self.command_writes.append(("PUT", scope))
        self._notify()
        return self._json(list(new.values()))

    async def _post_command(self, request: web.Request) -> web.Response:
        self._check_app(request)
        scope = self._scope(request)
        stored = self._store_command(scope, await request.json())
        self.commands.setdefault(scope, {})[stored["name"]] = stored
        self.command_writes.append(("POST", scope))
        self._notify()
        return self._json(stored, 201)

    def _command_by_id(self, request: web.Request) -> tuple[int | None, dict[str, Any]] | None:
        scope = self._scope(request)
        cid = request.match_info["command_id"]
        for cmd in self.commands.get(scope, {}).values():
            if cmd["id"] == cid:
                return scope, cmd
        return None

    async def _get_command(self, request: web.Request) -> web.Response:
        self._check_app(request)
        found = self._command_by_id(request)
        if found is None:
            return self._error(404, 10063, "Unknown application command", f"GET {request.path}")
        return self._json(found[1])

    async def _patch_command(self, request: web.Request) -> web.Response:
        self._check_app(request)
        found = self._command_by_id(request)
        if found is None:
            return self._error(404, 10063, "Unknown application command", f"PATCH {request.path}")
        scope, cmd = found
        changed = {**cmd, **(await request.json())}
        stored = self._store_command(scope, changed)
        del self.commands[scope][cmd["name"]]
        self.commands[scope][stored["name"]] = stored
        self.command_writes.append(("PATCH", scope))
        self._notify()
        return self._json(stored)

    async def _delete_command(self, request: web.Request) -> web.Response:
        self._check_app(request)
        found = self._command_by_id(request)
        if found is None:
            return self._error(404, 10063, "Unknown application command", f"DELETE {request.path}")
        scope, cmd = found
        del self.commands[scope][cmd["name"]]
        self.command_writes.append(("DELETE", scope))
        self._notify()
        return web.Response(status=204)

    # ----------------------------------------------------------------- REST: messages

    def _new_message(
        self,
        channel: FakeChannel,
        *,
        type: int,
        flags: int,
        interaction: FakeInteraction | None,
    ) -> FakeMessage:
        msg = FakeMessage(
            self,
            id=self.snowflakes.next(),
            channel=channel,
            author=self.bot_user,
            type=type,
            flags=flags,
            interaction=interaction,
        )
        self.messages[msg.id] = msg
        return msg

    def _apply(
        self,
        msg: FakeMessage,
        data: Mapping[str, Any],
        files: list[tuple[str, bytes]],
        *,
        creating: bool,
    ) -> None:
        """Apply a create or edit payload the way Discord does: absent fields stay unchanged."""
        flags = msg.flags
        if creating:
            wanted = int(data.get("flags") or 0)
            allowed = EPHEMERAL | COMPONENTS_V2 | SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS
            _check(wanted & ~allowed == 0, f"message flags {wanted} not allowed on create")
            if msg.interaction is None:
                wanted &= ~EPHEMERAL  # only interaction replies can be ephemeral
            flags = (flags & ~EPHEMERAL) | wanted
        elif "flags" in data and data["flags"] is not None:
            wanted = int(data["flags"])
            _check(
                wanted & ~(COMPONENTS_V2 | SUPPRESS_EMBEDS | EPHEMERAL) == 0,
                f"flags {wanted} on edit",
            )
            flags = (flags & EPHEMERAL) | (wanted & ~EPHEMERAL) | (flags & COMPONENTS_V2)
        if "allowed_mentions" in data:
            msg.allowed_mentions = data["allowed_mentions"]
        content = msg.content if "content" not in data else (data["content"] or "")
        embeds = msg.embeds if "embeds" not in data else list(data["embeds"] or [])
        components = msg.components if "components" not in data else list(data["components"] or [])
        _check(len(content) <= 2000, f"content of {len(content)} characters (at most 2000)")
        validate_embeds(embeds)
        validate_components(components, flags)
        for name, blob in files:
            _check(len(blob) <= self.attachment_size_limit, f"file {name} of {len(blob)} bytes")
        attachments = list(msg.attachments)
        if "attachments" in data and data["attachments"] is not None:
            keep = {a.id: a for a in msg.attachments}
            attachments = []
            for item in data["attachments"]:
                aid = int(item["id"])
                description = item.get("description")
                _check(
                    len(description or "") <= ATTACHMENT_DESCRIPTION_LIMIT,
                    f"attachment description of {len(description or '')} characters "
                    f"(at most {ATTACHMENT_DESCRIPTION_LIMIT})",
                )
                if aid in keep:
                    kept = keep[aid]
                    if "description" in item:  # Discord lets an edit change a kept file's alt text
                        kept = dataclasses.replace(kept, description=description)
                    attachments.append(kept)
                elif 0 <= aid < len(files):
                    attachments.append(
                        self._attachment(
                            msg,
                            item.get("filename") or files[aid][0],
                            files[aid][1],
                            description,
                        )
                    )
                else:
                    raise InvalidBody(f"attachment id {aid} is neither kept nor uploaded")
        else:
            attachments += [self._attachment(msg, name, blob, None) for name, blob in files]
        _check(len(attachments) <= 10, "more than 10 attachments")
        if creating:
            _check(
                bool(content or embeds or attachments or components),
                "Cannot send an empty message",
            )
        msg.flags, msg.content, msg.embeds = flags, content, embeds
        msg.components, msg.attachments = components, attachments
        if not creating:
            msg.edited_timestamp = now_iso()
        msg.record()
        self._notify()

    def _attachment(
        self, msg: FakeMessage, filename: str, blob: bytes, description: str | None
    ) -> FakeAttachment:
        aid = self.snowflakes.next()
        lower = filename.lower()
        content_type = (
            "image/png"
            if lower.endswith(".png")
            else "image/jpeg"
            if lower.endswith((".jpg", ".jpeg"))
            else "text/plain; charset=utf-8"
            if lower.endswith(".txt")
            else "application/octet-stream"
        )
        url = f"{self.base_url}/attachments/{msg.channel.id}/{aid}/{filename}"
        return FakeAttachment(aid, filename, blob, content_type, url, description)

    def _expired(self, request: web.Request, interaction: FakeInteraction) -> web.Response:
        age = self.now() - interaction.created_clock
        return self._error(
            401,
            50027,
            "Invalid Webhook Token",
            f"{request.method} on the webhook of {interaction.describe()} {age:.0f} s after it "
            f"was created: interaction tokens last {TOKEN_LIFETIME_S} s",
        )

    def _interaction_for(self, request: web.Request) -> FakeInteraction | None:
        token = request.match_info["token"]
        for interaction in self.interactions.values():
            if interaction.token == token:
                return interaction
        return None

    async def _callback(self, request: web.Request) -> web.Response:
        iid = int(request.match_info["interaction_id"])
        interaction = self.interactions.get(iid)
        body, files = await self._read_body(request)
        if interaction is None or interaction.token != request.match_info["token"]:
            return self._error(404, 10062, "Unknown interaction", f"callback for unknown {iid}")
        what = interaction.describe()
        if interaction.expired:
            return self._error(
                404,
                10062,
                "Unknown interaction",
                f"callback after the {self.callback_deadline} s deadline for {what}",
            )
        if interaction.callback_type is not None:
            return self._error(
                400,
                40060,
                "Interaction has already been acknowledged.",
                f"second callback (type {body.get('type')}) for {what}",
            )
        kind = int(body.get("type", 0))
        if kind not in ALLOWED_CALLBACKS.get(interaction.type, set()):
            return self._error(
                400,
                50035,
                "Invalid Form Body",
                f"callback type {kind} is not allowed for interaction type {interaction.type} ({what})",
            )
        data = body.get("data") or {}
        if kind == LAUNCH_ACTIVITY:
            _check(not data, f"LAUNCH_ACTIVITY takes no data ({what})")
            if not self.activities:
                return self._error(
                    400, 50035, "Invalid Form Body",
                    f"LAUNCH_ACTIVITY for {what}, but the app has no Activity",
                )
        origin_type = 20 if interaction.type == APPLICATION_COMMAND else 0
        message: FakeMessage | None = None
        if kind == CHANNEL_MESSAGE:
            message = self._new_message(
                interaction.channel, type=origin_type, flags=0, interaction=interaction
            )
            try:
                self._apply(message, data, files, creating=True)
            except InvalidBody:
                del self.messages[message.id]
                raise
            interaction.original_id = message.id
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            message = self._new_message(
                interaction.channel, type=origin_type, flags=flags, interaction=interaction
            )
            message.record()
            interaction.original_id = message.id
        elif kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            if interaction.message_id is None:
                raise InvalidBody(f"callback type {kind} without a message ({what})")
            message = self.messages[interaction.message_id]
            if kind == UPDATE_MESSAGE:
                self._apply(message, data, files, creating=False)
            interaction.original_id = message.id
        elif kind == AUTOCOMPLETE_RESULT:
            validate_choices(data.get("choices") or [])
        interaction.callback_type = kind
        interaction.callback_data = body
        interaction.callback_at = time.perf_counter()
        interaction.events.append((interaction.callback_at, f"callback {kind}", body))
        if kind == CHANNEL_MESSAGE:
            interaction._complete("message", message)
        elif kind == UPDATE_MESSAGE:
            interaction._complete("update", message)
        elif kind == AUTOCOMPLETE_RESULT:
            interaction._complete("autocomplete", None, choices=tuple(data.get("choices") or ()))
        elif kind == MODAL:
            interaction._complete("modal", None, modal=data)
        elif kind == LAUNCH_ACTIVITY:
            self.launches.append(interaction)
            interaction._complete("activity", None)
        self._notify()
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None and kind in (
            CHANNEL_MESSAGE,
            DEFERRED_CHANNEL_MESSAGE,
            UPDATE_MESSAGE,
        ):
            answer["interaction"]["response_message_id"] = str(message.id)
            answer["resource"] = {"type": kind, "message": message.payload()}
        if kind == LAUNCH_ACTIVITY:
            instance = f"i-{interaction.id}"
            answer["interaction"]["activity_instance_id"] = instance
            answer["resource"] = {"type": kind, "activity_instance": {"id": instance}}
        return self._json(answer)

    def _webhook_message(
        self, request: web.Request
    ) -> tuple[FakeInteraction, FakeMessage] | web.Response:
        if int(request.match_info["app_id"]) != self.application_id:
            return self._error(
                404, 10015, "Unknown Webhook", f"{request.path}: not our application"
            )
        interaction = self._interaction_for(request)
        if interaction is None:
            return self._error(404, 10015, "Unknown Webhook", f"{request.path}: unknown token")
        if interaction.token_expired:
            return self._expired(request, interaction)
        ref = request.match_info["message_id"]
        if ref == "@original":
            message = interaction.original
            if message is None:
                return self._error(
                    404,
                    10008,
                    "Unknown Message",
                    f"{request.method} @original before any response to {interaction.describe()}",
                )
        else:
            message = self.messages.get(int(ref))
            allowed = {interaction.original_id, *interaction.followup_ids}
            if message is None or message.id not in allowed:
                return self._error(
                    404, 10008, "Unknown Message", f"{request.path}: not this webhook's"
                )
        if message.deleted:
            return self._error(404, 10008, "Unknown Message", f"{request.path}: deleted")
        return interaction, message

    async def _webhook_get(self, request: web.Request) -> web.Response:
        found = self._webhook_message(request)
        if isinstance(found, web.Response):
            return found
        return self._json(found[1].payload())

    async def _webhook_edit(self, request: web.Request) -> web.Response:
        body, files = await self._read_body(request)
        found = self._webhook_message(request)
        if isinstance(found, web.Response):
            return found
        interaction, message = found
        was_loading = message.loading
        message.flags &= ~LOADING
        self._apply(message, body, files, creating=False)
        now = time.perf_counter()
        interaction.events.append((now, "edit", body))
        if message.id == interaction.original_id:
            if interaction.callback_type == DEFERRED_UPDATE_MESSAGE:
                interaction._complete("update", message)
            elif interaction.callback_type == DEFERRED_CHANNEL_MESSAGE and was_loading:
                interaction._complete("message", message)
        return self._json(message.payload())

    async def _webhook_delete(self, request: web.Request) -> web.Response:
        found = self._webhook_message(request)
        if isinstance(found, web.Response):
            return found
        interaction, message = found
        message.deleted = True
        message.record()
        interaction.events.append((time.perf_counter(), "delete", message.id))
        self._notify()
        return web.Response(status=204)

    async def _followup(self, request: web.Request) -> web.Response:
        body, files = await self._read_body(request)
        if int(request.match_info["app_id"]) != self.application_id:
            return self._error(
                404, 10015, "Unknown Webhook", f"{request.path}: not our application"
            )
        interaction = self._interaction_for(request)
        if interaction is None:
            return self._error(404, 10015, "Unknown Webhook", f"{request.path}: unknown token")
        if interaction.token_expired:
            return self._expired(request, interaction)
        if interaction.callback_type is None:
            return self._error(
                404,
                10015,
                "Unknown Webhook",
                f"follow-up before any callback: {interaction.describe()}",
            )
        original = interaction.original
        now = time.perf_counter()
        if (
            interaction.callback_type == DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # Discord: the first follow-up after a deferred reply becomes that reply.
            original.flags &= ~LOADING
            body = {k: v for k, v in body.items() if k != "flags"}
            self._apply(original, body, files, creating=False)
            message = original
            interaction.events.append((now, "followup-as-original", body))
            interaction._complete("message", message)
        else:
            if (set(interaction.integration_owners()) == {"1"}
                    and len(interaction.followup_ids) >= USER_INSTALL_FOLLOWUPS):
                return self._error(
                    400, 40094, "This interaction has hit the maximum number of follow up "
                    "messages", f"follow-up {len(interaction.followup_ids) + 1} of "
                    f"{interaction.describe()}: an app installed to the user alone, where "
                    f"it is not installed, takes {USER_INSTALL_FOLLOWUPS}",
                )
            message = self._new_message(
                interaction.channel, type=0, flags=0, interaction=interaction
            )
            try:
                self._apply(message, body, files, creating=True)
            except InvalidBody:
                del self.messages[message.id]
                raise
            interaction.followup_ids.append(message.id)
            interaction.events.append((now, "followup", body))
            # After a deferred update (or a deferred reply that was deleted), the first
            # follow-up is what the player gets.
            interaction._complete("message", message)
        if request.query.get("wait") in ("true", "1", "True"):
            return self._json(message.payload())
        return web.Response(status=204)

    def _out_of_reach(self, request: web.Request) -> web.Response | None:
        """403 Missing Access for a channel the bot is not in (users' DMs, another server)."""
        if self._channel_out_of_reach(int(request.match_info["channel_id"])):
            return self._error(
                403,
                50001,
                "Missing Access",
                f"{request.method} {request.path}: the bot is not in that channel "
                f"(only the interaction's webhook reaches it)",
            )
        return None

    def _channel_message(self, request: web.Request) -> FakeMessage | web.Response:
        refused = self._out_of_reach(request)
        if refused is not None:
            return refused
        cid, mid = int(request.match_info["channel_id"]), int(request.match_info["message_id"])
        message = self.messages.get(mid)
        if message is None or message.channel.id != cid or message.deleted or message.ephemeral:
            return self._error(404, 10008, "Unknown Message", f"{request.method} {request.path}")
        return message

    async def _channel_send(self, request: web.Request) -> web.Response:
        body, files = await self._read_body(request)
        refused = self._out_of_reach(request)
        if refused is not None:
            return refused
        channel = self.channel_by_id(int(request.match_info["channel_id"]))
        if channel is None:
            return self._error(404, 10003, "Unknown Channel", f"POST {request.path}")
        message = self._new_message(channel, type=0, flags=0, interaction=None)
        try:
            self._apply(message, body, files, creating=True)
        except InvalidBody:
            del self.messages[message.id]
            raise
        return self._json(message.payload())

    async def _channel_get(self, request: web.Request) -> web.Response:
        found = self._channel_message(request)
        if isinstance(found, web.Response):
            return found
        return self._json(found.payload())

    async def _channel_edit(self, request: web.Request) -> web.Response:
        body, files = await self._read_body(request)
        found = self._channel_message(request)
        if isinstance(found, web.Response):
            return found
        refused, headers = self.rate_limiter.old_message_edit(
            str(found.channel.id), self.now() - found.created_clock)
        if refused is not None:
            self._notify()
            return web.Response(status=429, body=json.dumps(refused).encode(), headers={
                "Content-Type": "application/json", "X-RateLimit-Scope": "user", **headers})
        self._apply(found, body, files, creating=False)
        return self._json(found.payload())

    async def _channel_delete(self, request: web.Request) -> web.Response:
        found = self._channel_message(request)
        if isinstance(found, web.Response):
            return found
        found.deleted = True
        found.record()
        self._notify()
        return web.Response(status=204)

    # ----------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = GatewaySession(ws, request.query, len(self.sessions) + 1)
        session.peer = request.transport.get_extra_info("peername") if request.transport else None
        if request.query.get("encoding", "json") != "json":
            self.problem(f"gateway asked for encoding {request.query.get('encoding')}")
        self.sessions.append(session)
        try:
            await session.send(
                {
                    "op": 10,
                    "d": {"heartbeat_interval": self.heartbeat_interval_ms},
                    "s": None,
                    "t": None,
                }
            )
            async for frame in ws:
                if frame.type == WSMsgType.TEXT:
                    await self._gateway_op(session, json.loads(frame.data))
                elif frame.type == WSMsgType.BINARY:
                    self.problem("the client sent a binary gateway frame")
        finally:
            self._notify()
        return ws

    async def _gateway_op(self, session: GatewaySession, msg: Mapping[str, Any]) -> None:
        op = msg.get("op")
        data: Any = msg.get("d") or {}
        if op == 1:  # HEARTBEAT
            session.heartbeats += 1
            await session.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:  # IDENTIFY
            await self._identify(session, data)
        elif op == 6:  # RESUME
            old = next((s for s in self.sessions if s.session_id == data.get("session_id")), None)
            if old is None or data.get("token") != self.token:
                await session.send({"op": 9, "d": False, "s": None, "t": None})
                return
            if old.open:  # Discord keeps one connection per session
                await old.ws.close(code=4009, message=b"resumed elsewhere")
            session.session_id, session.seq = old.session_id, old.seq
            session.intents, session.shard, session.claimed = old.intents, old.shard, True
            session.client_pid, session.guild_ids = old.client_pid, old.guild_ids
            await session.dispatch("RESUMED", {})
            session.identified = True
            self.resumes += 1
            self._notify()
        elif op == 8:  # REQUEST_GUILD_MEMBERS
            guild_ids = data.get("guild_id")
            for gid in guild_ids if isinstance(guild_ids, list) else [guild_ids]:
                target = next((g for g in self.guilds if g.id == int(gid)), None)
                if target is None:
                    continue
                if not session.serves(target.id):
                    self.problem(
                        f"member request for {target.name} on shard {session.shard_id}, "
                        f"which does not serve it"
                    )
                    continue
                await session.dispatch(
                    "GUILD_MEMBERS_CHUNK",
                    {
                        "guild_id": str(target.id),
                        "members": [target.member_payload(m) for m in target.members],
                        "chunk_index": 0,
                        "chunk_count": 1,
                        "not_found": [],
                        "nonce": data.get("nonce"),
                    },
                )
        elif op in (3, 4):  # presence, voice state: nothing to do
            return
        else:
            self.problem(f"unknown gateway op {op}: {msg}")

    async def _identify(self, session: GatewaySession, data: Mapping[str, Any]) -> None:
        if data.get("token") != self.token:
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard = data.get("shard")
        refusal = self._shard_refusal(session, shard)
        if refusal is not None:
            self.problem(f"IDENTIFY refused: {refusal}")
            await session.ws.close(code=4010, message=b"Invalid shard.")
            return
        if shard is not None:
            session.shard = (int(shard[0]), int(shard[1]))
        session.claimed = True  # holds its shard from here on, while READY is on its way
        session.intents = int(data.get("intents") or 0)
        session.session_id = secrets.token_hex(16)
        session.seq = 0
        guilds = [g for g in self.guilds if session.serves(g.id)]
        session.guild_ids = [g.id for g in guilds]
        ready: dict[str, Any] = {
            "v": API_VERSION,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
        }
        if shard is not None:
            ready["shard"] = list(session.shard)
        await session.dispatch("READY", ready)
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", guild.create_payload())
        if session.peer is not None:
            session.client_pid = await asyncio.to_thread(pid_of_client, session.peer[1], self.port)
        session.identified = True
        self.identifies += 1
        self._notify()

    def _shard_refusal(self, session: GatewaySession, shard: Any) -> str | None:
        """Why this IDENTIFY's shard is refused, or None.

        Malformed, a count other open connections disagree with, or a shard another open
        connection holds. Without ``shard`` the bot is unsharded ([0, 1]); several unsharded
        connections may coexist (the latest gets the interactions), as before shards.
        """
        if shard is not None and not (
            isinstance(shard, list)
            and len(shard) == 2
            and all(isinstance(n, int) for n in shard)
            and 0 <= shard[0] < shard[1]
        ):
            return f"shard {shard!r} is not [shard_id, shard_count] with 0 <= shard_id < count"
        wanted = shard if shard is not None else [0, 1]
        for other in self.sessions:
            if other is session or not (other.open and other.claimed):
                continue
            if other.shard_count != wanted[1]:
                return (
                    f"shard {wanted} while connection #{other.number} runs shard "
                    f"{list(other.shard)}: the shard counts disagree"
                )
            if shard is not None and other.shard_id == shard[0]:
                return f"shard {shard} is already served by connection #{other.number}"
        return None


def is_png(blob: bytes) -> bool:
    return blob.startswith(PNG_SIGNATURE)
