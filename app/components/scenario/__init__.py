"""Scenario state: widget values <-> Pydantic model <-> URL query params <-> JSON file.

A page declares its inputs as a :class:`Scenario` subclass (a Pydantic model whose fields
have defaults, and declare the label the user sees as their ``title``). :func:`init_state` seeds
``st.session_state`` (from the URL on the page's first run in the session) so shared links reproduce
a view; widgets use ``key=S.key(field)`` and the label ``S.label(field)``;
:func:`scenario_controls` validates the values, mirrors them into the URL, and offers
save/load as JSON. Invalid values are reported by field and never wipe the other inputs.

Streamlit deletes the state of widgets that a run does not draw (another page, or an input
hidden by a mode switch). The page's raw input values are therefore also kept in a plain
session key (``PREFIX.__shadow``), refreshed on every run, and :func:`init_state` restores
every missing widget value from it, so going to another page and back keeps the inputs.

Fields whose widget offers a fixed list of options use :func:`one_of` / :func:`some_of` (or
a validator of their own): a value outside the options is a validation error -- the page
warns about it -- instead of being silently replaced by the first option.

An invalid field falls back to its last valid value (:func:`resolve`). Its message -- the label the
user sees, why, and the value used instead -- is drawn right under its widget by the input helpers
(:mod:`app.components.inputs`: ``int_input``, ``float_input``, ``text_list_input``, or ``field_note``
after any other widget), which record it with :func:`note_shown`; the page's error box (drawn by
:func:`scenario_controls` in a placeholder, redrawn when a helper further down notes its field)
then only names those inputs, and carries the full message of the others.

The package, one idea per module (lowest first; none imports a later one):

- :mod:`~app.components.scenario.labels`: :func:`field_label`, the label the user sees, declared on the field;
- :mod:`~app.components.scenario.base`: the :class:`Scenario` base class (``S.key``, ``S.label``) and its
  session keys;
- :mod:`~app.components.scenario.bounds`: :func:`model_field`, :func:`field_bounds`, :func:`field_range`;
- :mod:`~app.components.scenario.choices`: :func:`one_of`, :func:`some_of`;
- :mod:`~app.components.scenario.messages`: :func:`field_errors`, :func:`field_message`, :func:`note_shown`,
  the error box;
- :mod:`~app.components.scenario.persistence`: URL query params, the JSON file;
- :mod:`~app.components.scenario.state`: :func:`init_state`, :func:`current`, :func:`resolve`;
- :mod:`~app.components.scenario.controls`: :func:`scenario_controls`.

Every public name is importable from ``app.components.scenario``.
"""

from app.components.scenario.base import S, Scenario, require_number
from app.components.scenario.bounds import MIRRORS, field_bounds, field_range, model_field
from app.components.scenario.choices import one_of, some_of
from app.components.scenario.controls import scenario_controls
from app.components.scenario.labels import field_label
from app.components.scenario.messages import field_errors, field_message, note_shown
from app.components.scenario.persistence import (
           CUSTOM_DEVICES,
           _load_json,
           page_title,
           scenario_json,
           to_query,
)
from app.components.scenario.state import current, init_state, resolve

__all__ = ["CUSTOM_DEVICES", "MIRRORS", "S", "Scenario", "current", "field_bounds", "field_errors", "field_label",
           "field_message", "field_range", "init_state", "model_field", "note_shown", "one_of", "page_title",
           "require_number", "resolve", "scenario_controls", "scenario_json", "some_of", "to_query",
           "_load_json"]
