"""Money is integer cents; this is how every screen, log and report writes it."""

from __future__ import annotations


def format_cents(cents: int, whole_dollars: bool = False) -> str:
    """``$1,234.56`` (``-$7.50`` for a loss); with ``whole_dollars``, ``$5`` for 500 cents."""
    sign = "-" if cents < 0 else ""
    dollars, rest = divmod(abs(cents), 100)
    if whole_dollars and not rest:
        return f"{sign}${dollars:,}"
    return f"{sign}${dollars:,}.{rest:02d}"


def format_gain(cents: int) -> str:
    """A gain or loss: ``+$10.00``, ``-$5.00``, ``$0.00``."""
    return f"+{format_cents(cents)}" if cents > 0 else format_cents(cents)
