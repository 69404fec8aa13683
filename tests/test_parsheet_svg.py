"""The par sheet's SVG builders: pure strings, escaped, scaled from their numbers."""

from __future__ import annotations

from etg.math.parsheet import svg


def test_bar_chart_scales_and_escapes() -> None:
    chart = svg.bar_chart("Hits <per> wager", [svg.Bar("A & B", 0.5, "1 in 2"),
                                               svg.Bar("C", 0.25)])
    assert "Hits &lt;per&gt; wager" in chart and "A &amp; B" in chart
    assert chart.count("<rect") == 2
    # the longest bar spans the plot: 720 − 230 − 120 = 370 pixels; half of it for 0.25
    assert "width='370.0'" in chart and "width='185.0'" in chart
    assert svg.bar_chart("empty", [svg.Bar("x", 0.0)]) == ""


def test_log_bar_chart_has_one_tick_per_decade() -> None:
    chart = svg.bar_chart("log", [svg.Bar("rare", 1e-6), svg.Bar("common", 0.05)], log=True)
    assert [f"1e{k}" in chart for k in range(-6, 0)] == [True] * 6


def test_line_chart_marks_and_series() -> None:
    chart = svg.line_chart("RTP", [svg.Series("War", ((0.0, 0.8), (10.0, 1.0)))], "meter",
                           "RTP", [(5.0, "break-even")])
    assert chart.count("<polyline") == 1 and "break-even" in chart
    assert svg.line_chart("none", [], "x", "y") == ""


def test_wheel_draws_every_segment_and_a_full_ring_as_two_halves() -> None:
    rings = [("Community", [svg.Segment("$25", 3, "$25"), svg.Segment("$150", 1)]),
             ("Seat", [svg.Segment("seat 1", 1)])]
    wheel = svg.wheel("wheel", rings)
    assert wheel.count("<path") == 3
    full = wheel.split("<path d='")[3].split("'")[0]
    assert full.count(" A") == 4  # two outer and two inner arcs
    assert "http" not in wheel
