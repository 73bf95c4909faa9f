"""User text in Plotly figures, shown as its characters (issue 20).

Plotly renders a subset of HTML in every text it draws -- titles, axis titles and tick labels,
legend entries, annotations, shape labels and hover labels: ``<b> <i> <br> <sub> <sup> <span
style=...> <a href=...>`` and entities such as ``&lt;``. A device, trace or file name a user
chose (``<b>x</b><br><a href="http://host/">…``) would therefore come out bold, broken over lines
or as a link. Two helpers keep user text literal:

* :func:`plotly_text` -- escape one user-provided part (``& < >`` as entities) before putting it in
  a title, axis title, annotation / reference-line label or hovertemplate the code writes itself
  (those may hold the code's own ``<br>``, so they cannot be escaped as a whole)::

      fig.update_layout(title=f"Figure 3: caching on {plotly_text(device.name)}")

* :func:`escape_figure_data` -- escape, in place, every data string of a figure (trace names,
  legend groups, category values on the axes, ``text`` / ``hovertext`` / ``customdata``); names a
  Plotly Express trace also writes into its hovertemplate (``device=<name>``) are escaped there.
  The app's ``show()`` runs it on every figure, so user names in data need no call of their own.
  Data strings are never markup: the code's own ``<br>`` belongs in layout text or templates.

Entities render as the character (``&lt;`` shows ``<``), so text escaped once reads exactly as typed.
"""

from __future__ import annotations

from typing import Any

__all__ = ["plotly_text", "escape_figure_data"]

_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
#: Trace attributes holding data strings (never markup of the code).
_DATA_KEYS = ("text", "hovertext", "customdata", "labels", "ids")
#: Trace attributes that are category positions when they hold strings.
_POSITION_KEYS = ("x", "y", "z")


def plotly_text(text: object) -> str:
    """``text`` with ``&``, ``<`` and ``>`` as HTML entities: Plotly shows it literally.

    >>> plotly_text('<b>x</b><img src=x> & <br>')
    '&lt;b&gt;x&lt;/b&gt;&lt;img src=x&gt; &amp; &lt;br&gt;'
    """
    return "".join(_ENTITIES.get(c, c) for c in str(text))


def _needs(s: object) -> bool:
    return isinstance(s, str) and any(c in s for c in "&<>")


def _escape_values(v: Any) -> Any:
    """Strings of a (nested) list / tuple / array escaped; numbers and other values as they are."""
    import numpy as np

    if isinstance(v, str):
        return plotly_text(v) if _needs(v) else v
    if isinstance(v, np.ndarray):
        if v.dtype.kind in "OUS":
            flat = [_escape_values(x) for x in v.ravel().tolist()]
            return np.array(flat, dtype=object).reshape(v.shape)
        return v
    if isinstance(v, (list, tuple)):
        out = [_escape_values(x) for x in v]
        return out if isinstance(v, list) else tuple(out)
    return v


def _has_text(v: Any) -> bool:
    import numpy as np

    if isinstance(v, str):
        return _needs(v)
    if isinstance(v, np.ndarray):
        return v.dtype.kind in "OUS" and any(_needs(x) for x in v.ravel().tolist())
    if isinstance(v, (list, tuple)):
        return any(_has_text(x) for x in v)
    return False


def escape_figure_data(fig) -> Any:
    """Escape every data string of ``fig`` (a ``plotly.graph_objects.Figure``) in place; returns ``fig``.

    Trace ``name`` and ``legendgroup``; string values of ``x`` / ``y`` / ``z`` (category positions),
    ``text``, ``hovertext``, ``customdata``, ``labels``, ``ids``; the layout's category orders
    (``categoryarray``) so they keep matching the escaped positions. Where a trace's hovertemplate
    contains its raw name (Plotly Express writes ``color=<value>`` there), that occurrence is
    escaped too. Layout titles, annotations and templates are the code's own: escape the user parts
    of those with :func:`plotly_text` where they are written.
    """
    for tr in fig.data:
        name = tr.name if isinstance(getattr(tr, "name", None), str) else None
        if name and _needs(name):
            tmpl = getattr(tr, "hovertemplate", None)
            if isinstance(tmpl, str) and name in tmpl:
                tr.hovertemplate = tmpl.replace(name, plotly_text(name))
            tr.name = plotly_text(name)
        group = getattr(tr, "legendgroup", None)
        if _needs(group):
            tr.legendgroup = plotly_text(group)
        for k in (*_DATA_KEYS, *_POSITION_KEYS):
            if k in tr and _has_text(tr[k]):
                tr[k] = _escape_values(tr[k])
    layout = fig.layout
    for k in [k for k in layout if k.startswith(("xaxis", "yaxis"))]:
        ax = layout[k]
        if ax is not None and getattr(ax, "categoryarray", None) is not None and _has_text(ax.categoryarray):
            ax.categoryarray = _escape_values(list(ax.categoryarray))
    return fig
