"""Why an Ayu move is illegal, in a player's words (used by `AyuPosition.play`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.games.ayu import AyuMove, AyuPosition


def explain(position: AyuPosition, move: AyuMove) -> str:
    from engine.games.ayu import flood

    if position.outcome() is not None:
        return "the game is over"
    if move.source < 0:
        return "the pie swap is only offered to White, right after Black's first move, with pie=on"
    geo = position.geo
    names = geo.names
    source, target = names[move.source], names[move.target]
    colour = position.turn
    own = position.stones[colour]
    player = position.turn_name
    source_bit, target_bit = 1 << move.source, 1 << move.target
    if not own & source_bit:
        return f"there is no {player} stone on {source}"
    if (own | position.stones[colour ^ 1]) & target_bit:
        return f"{target} is not empty"
    unit = flood(source_bit, own, geo.spread)
    remainder = unit & ~source_bit
    if not remainder and not geo.neighbours[move.source] & target_bit:
        return f"a single stone moves to a neighbouring point; {target} is not next to {source}"
    if remainder:
        after = remainder | target_bit
        if flood(target_bit, after, geo.spread) != after:
            if flood(remainder & -remainder, remainder, geo.spread) == remainder:
                return f"{target} does not touch the rest of the group of {source}"
            return f"moving {source} to {target} would leave its group split"
    found = position.distance_layers(colour, unit)
    if found is None:
        return f"the unit of {source} has no path to any other {player} unit, so it cannot move"
    distance, _ = found
    return (
        f"{source}-{target} does not bring the unit closer to its nearest {player} unit "
        f"(the distance must drop below {distance})"
    )
