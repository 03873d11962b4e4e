"""The page audited by a tool nobody here wrote (issue 46, item 6): axe-core, Deque's
accessibility rules (an npm package of the page's lock, run in the page), finds no
violation on any of the five games at 400 x 860 and at 1280 x 800: as the table is dealt,
with a card picked and a message said, and with the settings and the deals open."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Web
from .tables import ALL_GAMES, a_player, deal, open_at

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def violations(page: Any, axe: str) -> list[str]:
    if not await page.evaluate("typeof window.axe !== 'undefined'"):
        await page.add_script_tag(content=axe)
    found = await page.evaluate("""async () => {
      const result = await axe.run(document, {resultTypes: ['violations']});
      return result.violations.map(v => `${v.id}: ${v.help} (${v.nodes.length}) ` +
        v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '));
    }""")
    return list(found)


@pytest.mark.parametrize("size", ["400x860", "1280x800"])
@pytest.mark.parametrize("game", ALL_GAMES)
async def test_axe_finds_no_violation(module_web: Web, module_browser: Any, axe_script: str,
                                      game: str, size: str) -> None:
    user = a_player()
    _, board = await deal(module_web, user, game, 2)
    page = await open_at(module_browser, module_web, user, size, bypass_csp=True)
    assert await violations(page, axe_script) == [], "as dealt"
    src = next(m.split()[0] for m in board["moves"] if m != "redeal")
    await page.locator(f"[data-slot=p{int(src) - 1}] .card.top").click()  # lit, and said
    await page.locator("#say:not([hidden])").wait_for()
    assert await violations(page, axe_script) == [], "a card picked"
    await page.locator("#gear").click()
    await page.locator("#settings[open] #setting-list input").first.wait_for()
    assert await violations(page, axe_script) == [], "the settings open"
    await page.get_by_role("button", name="Close").last.click()
    await page.get_by_role("button", name="More deals").click()
    assert await violations(page, axe_script) == [], "the deals open"
    await page.context.close()


async def test_the_audit_finds_what_it_should(module_web: Web, module_browser: Any,
                                             axe_script: str) -> None:
    """The audit is no formality: a button left without a name is found."""
    user = a_player()
    await deal(module_web, user, "trefoil", 1)
    page = await open_at(module_browser, module_web, user, "1280x800", bypass_csp=True)
    await page.evaluate("document.getElementById('gear').removeAttribute('aria-label');"
                        "document.getElementById('gear').removeAttribute('title');"
                        "document.getElementById('gear').textContent = '';")
    assert any(v.startswith("button-name") for v in await violations(page, axe_script))
    await page.context.close()
