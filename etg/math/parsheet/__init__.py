"""The regulator's par sheet (SPEC §8): every figure of a paytable, as HTML and as JSON.

- :mod:`etg.math.parsheet.figures` — all the numbers, one frozen dataclass tree, and its JSON twin.
- :mod:`etg.math.parsheet.svg` — the charts and the wheel, pure SVG string builders.
- :mod:`etg.math.parsheet.html` — one standalone page per paytable (inline CSS and SVG).
"""

from __future__ import annotations

from pathlib import Path


def output_path(out: Path, paytable_id: str, several: bool) -> Path:
    """Where one paytable's page goes: ``out`` itself, or ``out``'s stem + ``-ID`` for several."""
    if not several:
        return out
    suffix = out.suffix or ".html"
    return out.with_name(f"{out.stem}-{paytable_id}{suffix}")
