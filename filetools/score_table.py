"""A per-hand score table for people, shared by the scoresheet and replay tools."""

from __future__ import annotations

import io
import json
from argparse import ArgumentParser
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from games.engine.rules import Rules, rules_name
from games.engine.seats import SEAT_NAMES, TEAM_WORDS, seats_of
from scoring.core.hand_score import TeamHandScore
from scoring.core.ledger import HandResult, Ledger

FILE_WIDTH = 140


def add_format_argument(parser: ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=("table", "json"),
        default="table",
        help="a table for people (default) or the JSON of docs/formats.md",
    )


def result_text(
    output_format: str,
    document: Callable[[], Mapping[str, Any]],
    table: Callable[[int | None], str],
    width: int | None,
) -> str:
    """The tool's result as ``--format`` asks: the JSON ``document()``, or ``table(width)``
    (``width`` is the terminal's, ``None`` for a file or a pipe)."""
    if output_format == "json":
        return json.dumps(document(), indent=2) + "\n"
    return table(width)


@dataclass(frozen=True, slots=True)
class TableHand:
    """What one row shows: bids and tricks north first, the dealer when known, the scores."""

    number: int
    bids: Sequence[int | str]
    tricks: Sequence[int]
    result: HandResult
    dealer: str | None = None


def breakdown_text(team: TeamHandScore) -> str:
    """How the hand score adds up: ``-28 = +70 bid 7 made, +2 bags, -100 for 10 bags``."""
    parts = []
    if team.contract:
        outcome = "made" if team.made else "set"
        parts.append(f"{team.contract_points:+d} bid {team.contract} {outcome}")
    for nil in team.nils:
        kind = "blind nil" if nil.blind else "nil"
        outcome = "made" if nil.made else f"failed ({nil.tricks} taken)"
        parts.append(f"{nil.points:+d} {SEAT_NAMES[nil.seat]} {kind} {outcome}")
    if team.bags:
        parts.append(f"{team.bags:+d} bag{'s' if team.bags != 1 else ''}")
    if team.bag_penalty:
        parts.append(f"{team.bag_penalty:+d} for {-team.bag_penalty // 10} bags")
    return f"{team.hand_score:+d} = {', '.join(parts) or '0'}"


def render_score_table(
    title: str, hands: Sequence[TableHand], ledger: Ledger, width: int | None = None
) -> str:
    """The table of every hand (a row per team), then the totals and the winner, as text.

    ``width`` is the terminal's when printing to one; files and pipes get a fixed
    ``FILE_WIDTH`` so the output does not depend on where it was produced.
    """
    with_dealer = any(hand.dealer is not None for hand in hands)
    table = Table(title=title, box=box.SIMPLE_HEAD)
    table.add_column("Hand", justify="right")
    if with_dealer:
        table.add_column("Dealer")
    table.add_column("Team")
    table.add_column("Bids")
    table.add_column("Tricks")
    table.add_column("Hand score", overflow="fold")
    table.add_column("Total", justify="right")
    table.add_column("Bags", justify="right")
    for hand in hands:
        for team in hand.result.teams:
            first = team.team == 0
            row = [str(hand.number) if first else ""]
            if with_dealer:
                row.append((hand.dealer or "") if first else "")
            seats = seats_of(team.team)
            row += [
                team.team_name,
                "  ".join(f"{SEAT_NAMES[s][0].upper()} {_bid_text(hand.bids[s])}" for s in seats),
                "  ".join(f"{SEAT_NAMES[s][0].upper()} {hand.tricks[s]}" for s in seats),
                breakdown_text(team),
                str(team.total),
                str(team.bags_total),
            ]
            table.add_row(*row, end_section=not first)

    buffer = io.StringIO()
    console = Console(file=buffer, width=width or FILE_WIDTH, color_system=None, highlight=False)
    console.print(table)
    totals = ", ".join(f"{TEAM_WORDS[t]} {ledger.totals[t]}" for t in (0, 1))
    console.print(f"Totals: {totals}.")
    if not ledger.finished:
        console.print("No winner yet.")
    elif ledger.winner is None:
        console.print(f"A draw after hand {ledger.finished_after_hand}.")
    else:
        console.print(f"{TEAM_WORDS[ledger.winner]} won after hand {ledger.finished_after_hand}.")
    return buffer.getvalue()


def _bid_text(bid: int | str) -> str:
    return bid.replace("_", " ") if isinstance(bid, str) else str(bid)


def rules_title(rules: Rules) -> str:
    """``rules: standard``, or ``rules: custom`` with the fields that differ from Standard."""
    name = rules_name(rules)
    if name is not None:
        return f"rules: {name}"
    standard = Rules().to_dict()
    changed = [f"{key}={value}" for key, value in rules.to_dict().items() if standard[key] != value]
    return f"rules: custom, {', '.join(changed)}"
