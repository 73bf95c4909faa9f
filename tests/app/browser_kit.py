"""What the real-browser tests do the same way: open a page in Chromium, upload workloads to the planner, add a
custom device on its form, check no exception box is drawn. The server fixture and the Chromium arguments live in
``tests/app/test_browser.py``.
"""

from __future__ import annotations

from contextlib import contextmanager

from tests.app.test_browser import ARGS, ART, CHROMIUM, _wait_done

__all__ = ["no_exception", "browser_page", "upload_workloads", "add_custom_device"]


def no_exception(page) -> None:
    """Fail with the text of the first exception box Streamlit drew, if any."""
    exc = page.locator('[data-testid="stException"]')
    assert exc.count() == 0, exc.first.inner_text()


@contextmanager
def browser_page(*, width: int = 1400, height: int = 2400, downloads: bool = False, failure_png: str | None = None):
    """``(context, page)`` of a headless Chromium at ``width`` x ``height`` px; on a failure inside the block the
    whole page is saved to ``tests/artifacts/<failure_png>`` first."""
    from playwright.sync_api import sync_playwright

    ART.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        ctx = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=downloads)
        page = ctx.new_page()
        try:
            yield ctx, page
        except Exception:
            if failure_png:
                page.screenshot(path=str(ART / failure_png), full_page=True)
            raise
        finally:
            browser.close()


def upload_workloads(page, files: list[str], read_as: list[str], *, timeout: int = 180_000) -> None:
    """Upload ``files`` on the planner's "Upload workloads" box and wait until each text of ``read_as`` (e.g.
    ``"my app.lackey: read as a memory workload"``) and the verdicts are drawn."""
    box = page.locator('[data-testid="stFileUploader"]').filter(has_text="Upload workloads")
    box.locator('input[type="file"]').set_input_files(files)
    for text in read_as:
        page.get_by_text(text).wait_for(timeout=timeout)
    page.get_by_text("Verdicts", exact=True).wait_for(timeout=timeout)
    _wait_done(page)


def add_custom_device(page, start_from: str, name: str, fields: dict[str, str]) -> None:
    """Add a custom device on the planner's form: start from catalogue device ``start_from``, call it ``name``, type
    ``fields`` (text-box label -> value) and save; returns once the page says it saved it."""
    page.get_by_text("Add a custom device").first.click()
    form = page.locator('[data-testid="stForm"]')
    page.locator('[data-testid="stSelectbox"]').filter(has_text="Start from").click()
    page.keyboard.type(start_from)
    page.keyboard.press("Enter")
    # the form is pre-filled from the chosen device (once the rerun has replaced the old form)
    page.wait_for_function("n => { const f = [...document.querySelectorAll('input[aria-label=\"Name (identifier)\"]')];"
                           " return f.length === 1 && f[0].value === n; }", arg=f"my-{start_from}", timeout=60_000)
    _wait_done(page)
    form.get_by_label("Name (identifier)").fill(name)
    for label, value in fields.items():
        form.get_by_role("textbox", name=label, exact=True).fill(value)
    form.get_by_role("button", name="Save device").click()
    page.get_by_text(f"Saved {name}").wait_for(timeout=60_000)
