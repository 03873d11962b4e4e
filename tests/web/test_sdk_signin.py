"""Signing in as inside Discord, in a real browser: the page, framed as Discord frames an
Activity (``frame_id``, ``instance_id``, ``platform`` in its URL), runs its real sign-in — the
bundled SDK's handshake, ``authorize``, our server's exchange of the code against the fake
Discord's OAuth2, ``authenticate`` — with Discord's client stood in for by its parent frame,
which answers the SDK's postMessage protocol (opcode, payload; commands matched by nonce).
The SDK's ``instanceId`` is the page's table, where Discord (the fake, asked with the bot's
token) lists the player there."""

from __future__ import annotations

import asyncio
import io
import json
from dataclasses import replace
from typing import Any

import discord
from PIL import Image

from bot.discord.rest import ActivityInstances
from engine.solver import solve
from tests.e2e.fake_discord import FakeDiscord

from .conftest import Web

# Discord's client, as the SDK sees it from inside its frame: the READY dispatch after the
# handshake, a code for AUTHORIZE, the user for AUTHENTICATE; every message kept in `seen`.
CLIENT = """<!doctype html><html><body>
<iframe id="app" src="/?frame_id=f1&instance_id=i1&platform=desktop&guild_id=7&channel_id=42"
        style="width: 420px; height: 760px"></iframe>
<script>
const app = document.getElementById("app");
const said = (frame) => app.contentWindow.postMessage([1, frame], "*");
window.seen = [];
window.addEventListener("message", (event) => {
  if (event.source !== app.contentWindow) return;
  const [opcode, data] = event.data;
  window.seen.push({opcode, cmd: data.cmd ?? null, args: data.args ?? data});
  if (opcode === 0) {
    said({cmd: "DISPATCH", evt: "READY", nonce: null, data: {v: 1,
          config: {api_endpoint: "//discord.com/api", environment: "production"}}});
  } else if (data.cmd === "AUTHORIZE") {
    said({cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: {code: %(code)s}});
  } else if (data.cmd === "AUTHENTICATE") {
    said({cmd: "AUTHENTICATE", evt: null, nonce: data.nonce, data: {
      access_token: data.args.access_token, scopes: ["identify"], expires: "2030-01-01T00:00:00Z",
      user: {username: "alice", discriminator: "0", id: %(user)s, public_flags: 0},
      application: {description: "", id: %(client)s, name: "Solitaire"}}});
  } else {
    said({cmd: data.cmd, evt: null, nonce: data.nonce, data: null});
  }
});
</script></body></html>"""


async def test_the_page_signs_in_through_the_sdk_and_shows_the_players_game(
    discord_web: Web, fake: FakeDiscord, browser: Any
) -> None:
    web = discord_web
    alice = fake.user("alice")
    session = (await web.call("api/signin", {"code": fake.authorize("alice")}))["session"]
    dealt = (await web.call("api/new", {"game": "trefoil", "deal": 3}, session=session))["board"]

    client = CLIENT % {"code": json.dumps(fake.authorize("alice")),
                       "user": json.dumps(str(alice.id)),
                       "client": json.dumps(str(fake.application_id))}
    page = await (await browser.new_context()).new_page()
    await page.route(f"{web.url}discord", lambda route: route.fulfill(
        status=200, content_type="text/html", body=client))
    await page.goto(f"{web.url}discord")
    table = page.frame_locator("#app").locator("#table")
    await table.locator(".slot").first.wait_for(timeout=15_000)

    assert await table.get_attribute("data-ref") == ".".join(map(str, dealt["ref"]))
    seen = await page.evaluate("window.seen")
    handshake = next(s["args"] for s in seen if s["opcode"] == 0)
    assert handshake["client_id"] == str(fake.application_id) and handshake["frame_id"] == "f1"
    authorize = next(s["args"] for s in seen if s["cmd"] == "AUTHORIZE")
    assert authorize["client_id"] == str(fake.application_id)
    assert authorize["response_type"] == "code"
    assert authorize["scope"] == ["identify", "rpc.activities.write"]  # who; their presence
    authenticate = next(s["args"] for s in seen if s["cmd"] == "AUTHENTICATE")
    token = authenticate["access_token"]
    assert fake.access_tokens[token] == alice.id, "the token our server got for the code"
    assert [s["cmd"] for s in seen if s["cmd"] in ("AUTHORIZE", "AUTHENTICATE")] == [
        "AUTHORIZE", "AUTHENTICATE"]
    home = sum(f["count"] for f in dealt["foundations"])
    for _ in range(100):  # Discord shows what they play (the page alone: no table here)
        presence = [s["args"]["activity"] for s in await page.evaluate("window.seen")
                    if s["cmd"] == "SET_ACTIVITY"]
        if presence:
            break
        await page.wait_for_timeout(50)
    assert presence[-1] == {"type": 0, "details": f"Trefoil · {home}/52 home",
                            "state": "Playing alone",
                            "party": {"id": "i1", "size": [1, 1]}}, presence


async def test_a_code_discord_did_not_issue_signs_no_one_in(
    discord_web: Web, fake: FakeDiscord, browser: Any
) -> None:
    web = discord_web
    client = CLIENT % {"code": json.dumps("made-up"), "user": json.dumps("1"),
                       "client": json.dumps(str(fake.application_id))}
    page = await (await browser.new_context()).new_page()
    await page.route(f"{web.url}discord", lambda route: route.fulfill(
        status=200, content_type="text/html", body=client))
    await page.goto(f"{web.url}discord")
    frame = page.frame_locator("#app")
    said = frame.locator("#say")
    await said.wait_for(state="visible", timeout=15_000)
    assert "Signed out" in await said.inner_text()  # the server answered 401
    seen = await page.evaluate("window.seen")
    assert any(s["cmd"] == "AUTHORIZE" for s in seen)
    assert not any(s["cmd"] == "AUTHENTICATE" for s in seen), "no token: nothing to authenticate"
    assert await frame.locator(".slot").count() == 0


async def framed(browser: Any, web: Web, fake: FakeDiscord, who: str) -> Any:
    """``who``'s page as Discord frames it at instance ``i1`` (the client's URL above)."""
    client = CLIENT % {"code": json.dumps(fake.authorize(who)),
                       "user": json.dumps(str(fake.user(who).id)),
                       "client": json.dumps(str(fake.application_id))}
    page = await (await browser.new_context()).new_page()
    await page.route(f"{web.url}discord", lambda route: route.fulfill(
        status=200, content_type="text/html", body=client))
    await page.goto(f"{web.url}discord")
    return page.frame_locator("#app")


AVATAR = "0123456789abcdef0123456789abcdef"  # Alice's avatar's hash, as Discord gives it


def pixel() -> bytes:
    """A 1x1 PNG, as Discord's CDN would answer for an avatar."""
    drawn = io.BytesIO()
    Image.new("RGBA", (1, 1), (88, 101, 242, 255)).save(drawn, "PNG")
    return drawn.getvalue()


async def cdn(route: Any) -> None:
    """Discord's CDN, out of reach here: Alice's avatar is a pixel, and nothing else is."""
    if route.request.url.startswith("https://cdn.discordapp.com/avatars/") and AVATAR in \
            route.request.url:
        await route.fulfill(status=200, content_type="image/png", body=pixel())
    else:
        await route.fulfill(status=404)


async def test_players_discord_lists_at_the_sdks_instance_sit_at_one_table(
    serve: Any, web_config: Any, fake: FakeDiscord, browser: Any
) -> None:
    """The SDK's instanceId is the table: Alice and Bob, whom Discord lists at it, see each
    other by their Discord names; Carol, framed at it but not listed there (a forged or
    stale instance), plays alone and is told so."""
    client = discord.Client(intents=discord.Intents.none())
    with fake.patch_discord():
        await client.login(fake.token)
        try:
            config = replace(web_config, client_id=str(fake.application_id),
                             client_secret=fake.client_secret)
            web = await serve(dev=False, config=config, api=fake.api_base,
                              instances=ActivityInstances(client))
            fake.users["alice"] = replace(fake.users["alice"], avatar=AVATAR)
            fake.launch("i1", "alice", "bob")
            alice = await framed(browser, web, fake, "alice")
            alice_page = browser.contexts[-1].pages[0]
            await alice_page.route("https://cdn.discordapp.com/**", cdn)
            players = alice.get_by_role("list", name="Players")
            await players.wait_for(timeout=15_000)
            bob = await framed(browser, web, fake, "bob")
            await bob.get_by_role("list", name="Players").get_by_role(
                "listitem").nth(1).wait_for(timeout=15_000)
            texts = await bob.get_by_role("list", name="Players").get_by_role(
                "listitem").all_inner_texts()
            assert [t.split("\n")[1] for t in texts] == ["Bob · no game yet",
                                                        "Alice · no game yet"], texts
            # Alice's avatar over her badge, from Discord's CDN; Bob has none: his initials.
            avatar = alice.locator(f"li[data-player='{fake.user('bob').id}'] .face img")
            assert await avatar.count() == 0
            mine = alice.locator(f"li[data-player='{fake.user('alice').id}'] .face img")
            await mine.wait_for(state="attached")
            assert await mine.get_attribute("src") == (
                f"https://cdn.discordapp.com/avatars/{fake.user('alice').id}/{AVATAR}.png?size=64")
            for _ in range(100):
                if await mine.evaluate("img => img.complete && img.naturalWidth > 0"):
                    break
                await alice_page.wait_for_timeout(50)
            assert await mine.evaluate("img => img.naturalWidth") == 1
            await players.get_by_role("listitem").nth(1).wait_for()  # Bob, on Alice's page
            await alice.get_by_role("button", name="Invite").click()  # Discord's own dialog
            for _ in range(100):
                opened = [s for s in await alice_page.evaluate("window.seen")
                          if s["cmd"] == "OPEN_INVITE_DIALOG"]
                if opened:
                    break
                await alice_page.wait_for_timeout(50)
            assert opened, "the invite was not asked of Discord"
            carol = await framed(browser, web, fake, "carol")
            await carol.locator("#say").get_by_text("Discord does not list you").wait_for(
                timeout=15_000)
            assert not await carol.locator("#players").is_visible()
        finally:
            await client.close()


async def test_a_win_is_shared_as_a_moment_its_replay_uploaded_as_the_sdk_documents(
    discord_web: Web, fake: FakeDiscord, browser: Any
) -> None:
    """Inside Discord, a game won shows Share: the page asks our server for the game's
    replay (a GIF), uploads it to Discord's attachment endpoint with the player's own
    token, and asks Discord's client to share it (``openShareMomentDialog``) by the CDN
    address Discord gave. Asked again at once, the page says why not (a replay is drawn
    once every 20 s)."""
    web = discord_web
    alice = fake.user("alice")
    session = (await web.call("api/signin", {"code": fake.authorize("alice")}))["session"]
    await web.call("api/new", {"game": "trefoil", "deal": 49}, session=session)
    page = await framed(browser, web, fake, "alice")
    outer = browser.contexts[-1].pages[0]

    async def to_the_fake(route: Any) -> None:  # discord.com is out of reach: the fake is it
        cors = {"Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "*",
                "Access-Control-Allow-Methods": "POST"}
        if route.request.method == "OPTIONS":
            await route.fulfill(status=204, headers=cors)
            return
        path = route.request.url.removeprefix("https://discord.com/api")
        answer = await route.fetch(url=fake.api_base + path)
        await route.fulfill(response=answer, headers={**answer.headers, **cors})

    await outer.route("https://discord.com/api/**", to_the_fake)
    await page.locator(".slot").first.wait_for(timeout=15_000)
    await win_on_the_page(web, alice.id, session)
    share = page.locator("#won").get_by_role("button", name="Share")
    await share.click(timeout=15_000)
    for _ in range(200):
        shared = [s["args"] for s in await outer.evaluate("window.seen")
                  if s["cmd"] == "OPEN_SHARE_MOMENT_DIALOG"]
        if shared:
            break
        await outer.wait_for_timeout(50)
    [url] = fake.shared_uploads
    uploader, filename, data = fake.shared_uploads[url]
    assert (uploader, filename) == (alice.id, "replay-trefoil-49.gif")
    assert data.startswith(b"GIF8"), data[:8]
    assert shared == [{"mediaUrl": url}]
    await share.click()  # again at once: a replay is drawn once every 20 s, as /replay's
    await page.locator("#say").get_by_text("again in").wait_for()
    assert len(fake.shared_uploads) == 1


async def test_a_moment_discord_refuses_to_take_is_said_so(
    discord_web: Web, fake: FakeDiscord, browser: Any
) -> None:
    """Where Discord refuses the upload (or its client the dialog), the page says it could
    not share the game here, and nothing is shared."""
    web = discord_web
    session = (await web.call("api/signin", {"code": fake.authorize("alice")}))["session"]
    await web.call("api/new", {"game": "trefoil", "deal": 49}, session=session)
    page = await framed(browser, web, fake, "alice")
    outer = browser.contexts[-1].pages[0]

    async def refused(route: Any) -> None:
        cors = {"Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "*"}
        await route.fulfill(status=204 if route.request.method == "OPTIONS" else 403,
                            headers=cors, body="" if route.request.method == "OPTIONS" else "{}")

    await outer.route("https://discord.com/api/**", refused)
    await page.locator(".slot").first.wait_for(timeout=15_000)
    await win_on_the_page(web, fake.user("alice").id, session)
    await page.locator("#won").get_by_role("button", name="Share").click(timeout=15_000)
    await page.locator("#say").get_by_text("Discord could not share this game here.").wait_for()
    assert fake.shared_uploads == {}
    assert not [s for s in await outer.evaluate("window.seen")
                if s["cmd"] == "OPEN_SHARE_MOMENT_DIALOG"]


async def win_on_the_page(web: Web, user_id: int, session: str) -> None:
    """Play the player's game to its win, as the solver finds it, as the page asks (as
    quickly as the server lets one player ask)."""
    saved = await web.core.stores.games.load(user_id)
    assert saved is not None
    ref = [saved.id, saved.revision]
    for move in solve(saved.game, positions=300_000).moves:
        while True:
            async with web.http.post(web.url + "api/act", json={
                    "action": "move", "move": move, "seen": ref},
                    headers={"Authorization": f"Bearer {session}"}) as r:
                if r.status == 429:
                    await asyncio.sleep(float(r.headers["Retry-After"]))
                    continue
                reply = await r.json()
                break
        assert not reply["refused"], reply
        ref = reply["board"]["ref"]
