"""Short device names of the memory-extension options (``--device pcm``, ``--device flash``).

Read by ``memext`` and by the commands that rebuild its runs (``sensitivity``, the
``--uncertainty`` bands of :mod:`cli.uncertainty`); any other name is a catalogue device.

>>> ALIASES["pcm"], ALIASES.get("dram", "dram")
('pcm-memext', 'dram')
"""

from __future__ import annotations

__all__ = ["ALIASES"]

#: Short name -> catalogue device of the memory-extension options.
ALIASES: dict[str, str] = {"pcm": "pcm-memext", "flash": "nand-flash"}
