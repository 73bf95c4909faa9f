"""The app follows the user's light / dark preference, and its charts read on both (issue 18, "Also").

Chromium is opened with ``prefers-color-scheme: light`` and ``dark`` (Playwright's ``color_scheme``). On
two chart pages: the app's background follows the scheme (no forced light theme), every chart's
background is the app's (Streamlit's chart theme, no Plotly template painting it white), and every text
of a chart (axis titles, tick labels, legend, reference-line labels) reaches a contrast of 3:1 against
the background it is drawn on, grid lines are visible (contrast above 1.1:1) but fainter than the text.

3:1 is WCAG's minimum for graphical objects and large text. Chart text is Streamlit's chart theme's
(the figure carries no colour: one figure serves both schemes): in the light scheme it draws axis titles,
tick and line labels in gray #808495, 3.7:1 on white, below the 4.5:1 of body text, while any single
colour set in the figure would fail one scheme (no grey reaches 4.5:1 on both white and #0e1117). Screenshots of both pages in both schemes go to tests/artifacts/theme-<page>-<scheme>.png.

Also the upload box's limit text as the browser shows it (tests/app/test_upload_limit.py explains it).
"""

from __future__ import annotations

import re
import tomllib

import pytest

from tests import ROOT
from tests.app.test_browser import ARGS, ART, CHROMIUM, _wait_done

pytestmark = pytest.mark.browser

#: (URL path, a chart title drawn on it) of the pages looked at: reference lines with labels on a linear
#: chart, a log axis with labelled decades and a band, the validation status colours.
PAGES = [("break-even", "Total access time vs accesses"), ("hdd-model", ""), ("validation", "")]
SCHEMES = ["light", "dark"]
#: Minimum contrast of a chart's text against its background (WCAG: graphical objects, large text) [-].
MIN_TEXT_CONTRAST = 3.0
#: Minimum contrast of grid lines against the background (visible, yet fainter than text) [-].
MIN_GRID_CONTRAST = 1.1
#: Minimum contrast of a curve, marker, bar or reference line [-] (WCAG 1.4.11, graphical objects); marks
#: drawn translucent on purpose (bands, opacity below 0.5) are not held to it.
MIN_MARK_CONTRAST = 3.0


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    ART.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


# ----------------------------------------------------------------------------- colours


def rgba(css: str) -> tuple[float, float, float, float]:
    """``rgb(…)`` / ``rgba(…)`` / ``#rrggbb`` as (r, g, b in 0..255, alpha 0..1).

    >>> rgba("rgb(14, 17, 23)"), rgba("rgba(0, 0, 0, 0)"), rgba("#ffffff")
    ((14.0, 17.0, 23.0, 1.0), (0.0, 0.0, 0.0, 0.0), (255.0, 255.0, 255.0, 1.0))
    """
    css = css.strip()
    if css.startswith("#") and len(css) == 7:
        return (float(int(css[1:3], 16)), float(int(css[3:5], 16)), float(int(css[5:7], 16)), 1.0)
    nums = [float(x) for x in re.findall(r"[-\d.]+", css)]
    if len(nums) == 3:
        nums.append(1.0)
    if len(nums) != 4:
        raise ValueError(f"not a colour: {css!r}")
    return tuple(nums)  # type: ignore[return-value]


def over(fg: tuple, bg: tuple) -> tuple[float, float, float, float]:
    """``fg`` (with its alpha) composited over the opaque ``bg``."""
    a = fg[3]
    return tuple(a * f + (1 - a) * b for f, b in zip(fg[:3], bg[:3])) + (1.0,)  # type: ignore[return-value]


def luminance(c: tuple) -> float:
    """WCAG relative luminance of an opaque colour [-]."""
    def ch(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (ch(v) for v in c[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple, b: tuple) -> float:
    """WCAG contrast ratio of two opaque colours (1 .. 21) [-].

    >>> round(contrast(rgba("#000000"), rgba("#ffffff")), 1), contrast(rgba("#777777"), rgba("#777777"))
    (21.0, 1.0)
    """
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


#: Per chart on the page: its background colours, and (kind, text, fill colour, opacity) of its texts and
#: grid lines, read from the SVG Plotly drew.
_READ_CHARTS = """() => [...document.querySelectorAll('.js-plotly-plot')]
    .filter(p => p.getBoundingClientRect().width > 0).map(p => {
  const svg = p.querySelector('svg.main-svg');
  const bg = p.querySelector('.bglayer rect.bg');
  const title = p.querySelector('.gtitle');
  const texts = [];
  const kinds = [['.xtick text, .ytick text, .x2tick text, .y2tick text', 'tick'],
                 ['.xtitle, .ytitle, .x2title, .y2title, .gtitle', 'title'],
                 ['.legendtext, .legendtitletext', 'legend'],
                 ['.annotation-text, .shape-label-text', 'label']];
  for (const [sel, kind] of kinds) {
    for (const el of p.querySelectorAll(sel)) {
      const s = getComputedStyle(el);
      if (!el.textContent.trim() || s.visibility === 'hidden' || s.display === 'none') continue;
      let op = parseFloat(s.opacity || '1');
      for (let a = el.parentElement; a && a !== p; a = a.parentElement) op *= parseFloat(getComputedStyle(a).opacity || '1');
      texts.push([kind, el.textContent.trim().slice(0, 40), s.fill, op * parseFloat(s.fillOpacity || '1')]);
    }
  }
  const marks = [];  // lines, markers, bars and reference lines: (what, colour, opacity)
  const op = el => { let o = 1; for (let a = el; a && a !== p; a = a.parentElement) o *= parseFloat(getComputedStyle(a).opacity || '1'); return o; };
  for (const el of p.querySelectorAll('.scatterlayer .js-line, .shapelayer path')) {
    const s = getComputedStyle(el);
    if (s.stroke && s.stroke !== 'none') marks.push(['line', s.stroke, op(el) * parseFloat(s.strokeOpacity || '1')]);
  }
  for (const el of p.querySelectorAll('.scatterlayer .point, .barlayer .point path')) {
    const s = getComputedStyle(el);
    const fill = s.fill && s.fill !== 'none' && parseFloat(s.fillOpacity || '1') > 0;
    marks.push(fill ? ['marker', s.fill, op(el) * parseFloat(s.fillOpacity || '1')]
                    : ['marker', s.stroke, op(el) * parseFloat(s.strokeOpacity || '1')]);
  }
  const grid = [...p.querySelectorAll('.gridlayer path')].slice(0, 4).map(g => {
    const s = getComputedStyle(g); return [s.stroke, parseFloat(s.strokeOpacity || '1')]; });
  return {title: title ? title.textContent : '', paper: svg ? getComputedStyle(svg).backgroundColor : '',
          plot: bg ? [getComputedStyle(bg).fill, parseFloat(getComputedStyle(bg).fillOpacity || '1')] : null,
          texts, grid, marks};
})"""


#: Every chart Streamlit placed on the page is drawn by Plotly, with its tick labels.
_ALL_DRAWN = """() => { const seen = e => e.getBoundingClientRect().width > 0;
  const n = [...document.querySelectorAll('[data-testid="stPlotlyChart"]')].filter(seen).length;
  const drawn = [...document.querySelectorAll('.js-plotly-plot')].filter(p => seen(p) && p.querySelector('.main-svg'));
  return n > 0 && drawn.length >= n; }"""


def _app_background(pg) -> tuple:
    css = pg.evaluate("() => getComputedStyle(document.querySelector('[data-testid=\"stApp\"]')).backgroundColor")
    return rgba(css)


def _problems(charts: list[dict], app_bg: tuple, scheme: str) -> list[str]:
    out = []
    for i, ch in enumerate(charts):
        name = f"chart {i} {ch['title']!r}"
        paper = over(rgba(ch["paper"]), app_bg) if ch["paper"] else app_bg
        if contrast(paper, app_bg) > 1.3:
            out.append(f"{name}: its background {ch['paper']} is not the app's ({scheme})")
        plot = paper
        if ch["plot"]:
            fill, op = ch["plot"]
            c = rgba(fill)
            plot = over((*c[:3], c[3] * op), paper)
            if contrast(plot, app_bg) > 1.3:
                out.append(f"{name}: plot area {fill} stands out from the {scheme} background")
        text_contrasts = []
        for kind, text, fill, op in ch["texts"]:
            c = rgba(fill)
            ink = over((*c[:3], c[3] * op), plot)
            k = contrast(ink, plot)
            text_contrasts.append(k)
            if k < MIN_TEXT_CONTRAST:
                out.append(f"{name}: {kind} {text!r} in {fill} (opacity {op:.2f}) has contrast {k:.2f} "
                           f"on the {scheme} background")
        bad_marks = set()
        for what, color, op in ch.get("marks", []):
            if not color or color == "none" or op < 0.5:
                continue
            c = rgba(color)
            if c[3] * op < 0.5:
                continue
            k = contrast(over((*c[:3], 1.0), plot), plot)
            if k < MIN_MARK_CONTRAST and (what, color) not in bad_marks:
                bad_marks.add((what, color))
                out.append(f"{name}: {what} in {color} has contrast {k:.2f} on the {scheme} background")
        for stroke, op in ch["grid"]:
            c = rgba(stroke)
            k = contrast(over((*c[:3], c[3] * op), plot), plot)
            if k < MIN_GRID_CONTRAST:
                out.append(f"{name}: grid line {stroke} (opacity {op:.2f}) is invisible ({k:.2f})")
            elif text_contrasts and k >= min(text_contrasts):
                out.append(f"{name}: grid line {stroke} is as strong as the text ({k:.2f})")
    return out


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("path, chart", PAGES, ids=[p[0] for p in PAGES])
def test_charts_read_in_the_users_colour_scheme(server, browser, path, chart, scheme):
    ctx = browser.new_context(color_scheme=scheme, viewport={"width": 1400, "height": 2400})
    try:
        pg = ctx.new_page()
        pg.goto(f"{server}/{path}")
        _wait_done(pg, timeout_ms=240_000)
        pg.wait_for_function(_ALL_DRAWN, timeout=120_000)
        pg.wait_for_timeout(1500)  # Plotly's last layout pass
        assert pg.locator('[data-testid="stException"]').count() == 0
        bg = _app_background(pg)
        dark = luminance(bg) < 0.2
        assert dark == (scheme == "dark"), f"the app's background {bg} ignores prefers-color-scheme: {scheme}"
        charts = pg.evaluate(_READ_CHARTS)
        assert charts and all(c["texts"] for c in charts), "no chart text read"
        if chart:
            assert any(chart in c["title"] for c in charts), [c["title"] for c in charts]
        pg.screenshot(path=str(ART / f"theme-{path}-{scheme}.png"), full_page=True)
        assert _problems(charts, bg, scheme) == []
    finally:
        ctx.close()


#: The page whose charts are looked at after a switch of scheme with the page open (its first chart: markers
#: and lines in four of the theme's category colours).
SWITCHED_PAGE = "hdd-model"


def test_charts_follow_a_switch_of_scheme_with_the_page_open(server, browser):
    """Opened in dark, switched to light while open (the browser's preference changes, as when the user
    changes the system theme; Streamlit's settings menu changes it the same way in the browser, no rerun):
    the charts then read on the light background, as when the page is opened in light.

    Streamlit's browser side re-applies its chart theme to the figure it drew, whose category colours it
    had already swapped for the dark theme's: the figure's own category colours are what keeps the marks
    readable after the switch (app/components/charts.py, ``CATEGORY_COLOURS``)."""
    ctx = browser.new_context(color_scheme="dark", viewport={"width": 1400, "height": 2400})
    try:
        pg = ctx.new_page()
        pg.goto(f"{server}/{SWITCHED_PAGE}")
        _wait_done(pg, timeout_ms=240_000)
        pg.wait_for_function(_ALL_DRAWN, timeout=120_000)
        pg.wait_for_timeout(1500)
        assert luminance(_app_background(pg)) < 0.2, "the page did not open in the dark scheme"
        pg.emulate_media(color_scheme="light")
        pg.wait_for_function("() => { const a = document.querySelector('[data-testid=\"stApp\"]');"
                             " return a && getComputedStyle(a).backgroundColor === 'rgb(255, 255, 255)'; }",
                             timeout=60_000)
        pg.wait_for_timeout(1500)  # Plotly's redraw in the new theme
        bg = _app_background(pg)
        charts = pg.evaluate(_READ_CHARTS)
        assert charts and all(c["marks"] for c in charts), "no chart marks read"
        pg.screenshot(path=str(ART / f"theme-{SWITCHED_PAGE}-dark-then-light.png"), full_page=True)
        assert _problems(charts, bg, "light") == []
    finally:
        ctx.close()


def test_upload_box_shows_the_configured_limit(server, browser):
    with open(ROOT / ".streamlit" / "config.toml", "rb") as f:
        mb = int(tomllib.load(f)["server"]["maxUploadSize"])
    ctx = browser.new_context()
    try:
        pg = ctx.new_page()
        pg.goto(f"{server}/device-characterization")
        _wait_done(pg, timeout_ms=240_000)
        box = pg.locator('[data-testid="stFileUploaderDropzoneInstructions"]').first
        box.wait_for(state="attached", timeout=60_000)
        text = box.text_content() or ""
        assert re.search(rf"\b{mb}MB per file", text), text
    finally:
        ctx.close()


#: Minimum contrast of a p5-p95 band's fill, composited over the page background, in both schemes [-]
#: (the old 28 % grey reached 1.38 on white and 1.43 on Streamlit's dark background: faint in both).
MIN_BAND_CONTRAST = 1.5
#: Streamlit's page backgrounds (light, dark theme).
BACKGROUNDS = {"light": "#ffffff", "dark": "#0e1117"}


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_band_fill_stands_out_in_both_schemes(scheme):
    from app.components.bands import BAND_FILL

    fill, bg = rgba(BAND_FILL), rgba(BACKGROUNDS[scheme])
    shown = tuple(fill[3] * f + (1 - fill[3]) * b for f, b in zip(fill[:3], bg[:3]))
    assert contrast(shown, bg) >= MIN_BAND_CONTRAST, (BAND_FILL, scheme, contrast(shown, bg))
