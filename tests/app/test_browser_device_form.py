"""Real-browser test of the custom-device form's labels: in the planner's narrow right column each unit select's
label broke a letter per line ("Re / ad / lat / enc / y: unit"). The form's labels now read as whole words there
and on the Devices page, and each unit select keeps "<field>: unit" as its accessible name. Screenshots go to
tests/artifacts/device-form-*.png."""

from __future__ import annotations

import pytest

from tests.app.browser_kit import browser_page, no_exception
from tests.app.test_browser import ART, _wait_done

pytestmark = pytest.mark.browser

#: The words of the form's drawn labels that the browser wrapped inside the word (a word whose text rectangles
#: sit on more than one line).
_BROKEN_WORDS = """() => [...document.querySelectorAll('[data-testid="stForm"] [data-testid="stWidgetLabel"]')]
  .filter(l => l.offsetParent !== null && getComputedStyle(l).visibility !== 'hidden').flatMap(l => {
    const w = document.createTreeWalker(l, NodeFilter.SHOW_TEXT); const out = [];
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      const re = /\\S+/g; let m;
      while ((m = re.exec(n.textContent))) {
        const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        if (new Set([...r.getClientRects()].map(x => Math.round(x.top))).size > 1) out.push(m[0]);
      } }
    return out; })"""

UNITS = ["Read latency: unit", "Write latency: unit", "Mean seek (HDD only): unit", "Read bandwidth: unit",
         "Write bandwidth: unit"]


def _unit_names(form) -> list[str]:
    """The accessible names of the form's unit selects, in order."""
    names = [i.get_attribute("aria-label") for i in form.locator('[data-testid="stSelectbox"] input').all()]
    return [n for n in names if n and n.endswith(": unit")]


@pytest.mark.parametrize("url, opener", [("planner", "Add a custom device"), ("devices", None)])
def test_the_device_forms_labels_read_as_words_and_its_unit_selects_keep_their_names(server, url, opener):
    with browser_page(failure_png=f"device-form-{url}-failed.png") as (_, page):
        page.goto(f"{server}/{url}")
        _wait_done(page)
        if opener:
            page.get_by_text(opener).first.click()
        form = page.locator('[data-testid="stForm"]').filter(has_text="Save device").first
        form.wait_for(timeout=120_000)
        _wait_done(page)
        page.get_by_role("combobox", name=UNITS[-1]).wait_for(timeout=60_000)
        no_exception(page)
        assert page.evaluate(_BROKEN_WORDS) == []
        names = _unit_names(form)
        for _ in range(60):  # a rerun may redraw the form between the wait above and this read: read it again
            if names == UNITS:
                break
            page.wait_for_timeout(1000)
            names = _unit_names(form)
        assert names == UNITS, names
        form.scroll_into_view_if_needed()
        form.screenshot(path=str(ART / f"device-form-{url}.png"))
