"""The label the user sees for a scenario field, declared on the field.

A page declares each label once, on its Scenario: ``drive: str = Field("ibm18es", title="Drive")``, or
``model_field(hdd.SeekFit, "boundary_cyl", ..., title="Boundary [cylinders]")``. Its widgets draw it
(``st.selectbox(S.label("drive"), ...)``; the :mod:`app.components.inputs` helpers by default) and every
message about the field names it (under the widget, in the page's error box, for a link parameter or a
scenario file), so a message always names what the user sees. A field without a title is named by its
name made readable (``sizes_kib`` -> "sizes [KiB]").
"""

from __future__ import annotations

from pydantic import BaseModel


def field_label(cls: type[BaseModel], field: str) -> str:
    """The label the user sees for ``field`` of the Scenario ``cls``: its declared ``title``, else the
    field name made readable (``sizes_kib`` -> "sizes [KiB]").

    >>> from pydantic import Field
    >>> class X(BaseModel):
    ...     sizes_kib: str = "4"
    ...     drive: str = Field("a", title="Drive")
    >>> field_label(X, "drive"), field_label(X, "sizes_kib")
    ('Drive', 'sizes [KiB]')
    """
    info = cls.model_fields.get(field)
    if info is not None and info.title:
        return info.title
    from app.components.tables import human_label

    return human_label(field)
