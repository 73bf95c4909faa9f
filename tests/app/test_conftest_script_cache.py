"""The app tests' shared page compilation (tests/app/conftest.py): code is reused only for the same source text."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def test_an_edited_page_runs_its_new_code_and_the_same_text_its_compiled_code(tmp_path):
    page = tmp_path / "page.py"
    page.write_text('import streamlit as st\nst.markdown("first")\n')
    assert [m.value for m in AppTest.from_file(str(page)).run().markdown] == ["first"]
    page.write_text('import streamlit as st\nst.markdown("second")\n')  # same path, new text
    at = AppTest.from_file(str(page)).run()
    assert [m.value for m in at.markdown] == ["second"]
    at.run()  # a rerun of the same text: the same result
    assert [m.value for m in at.markdown] == ["second"] and not at.exception
