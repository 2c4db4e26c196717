"""Ahayuta: rules.md section 3 (AHA-1…AHA-18, H1…H17, options of 3.3), on bitboards.

State: per side a warrior bitboard, an Ahayuta bitboard (zero or one bit), the reserve
count and the pending flag. A side's Ahayuta status (AHA-4) is `on_board` when its bit is
set, `pending` when its flag is set, else `none`. A side whose Ahayuta was captured has
lost at once (AHA-16); the position keeps that result in `_won`, saved on the move stack,
since a position string cannot show it (section 6.3).
"""

from __future__ import annotations

from engine.bitboard import bits
from engine.board import BoardDescription
from engine.core import (
    Game,
    Move,
    OptionSpec,
    Outcome,
    ParseError,
    Piece,
    Position,
)
from engine.effects import (
    AhayutaPending,
    Captured,
    Effect,
    Moved,
    Placed,
    Removed,
    Transformed,
)
from engine.games.ahayuta_geometry import (
    DARK,
    DEPLOY,
    HOME_SHIFT,
    LIGHT,
    PLACE,
    AhayutaGeometry,
    AhayutaMove,
    geometry,
)
from engine.games.ahayuta_text import (
    board_description,
    check_capture_suffix,
    format_position,
    parse_move_and_captures,
    parse_state,
)
from engine.registry import register

# hero_when_has_ahayuta (H9)
HAS_STAY, HAS_ILLEGAL, HAS_REMOVE = 0, 1, 2
_HAS_CODES = {"stay": HAS_STAY, "illegal": HAS_ILLEGAL, "remove": HAS_REMOVE}


@register
class AhayutaGame(Game):
    name = "ahayuta"
    title = "Ahayuta"
    players = ("light", "dark")
    sizes = (8,)
    default_size = 8
    option_specs = (
        OptionSpec(
            "ahayuta_moves", ("no-backward", "forward-3", "king-8"), "no-backward",
            "Ahayuta movement",
            "no-backward: sideways, forward and diagonally forward; forward-3: forward and "
            "diagonally forward only; king-8: one square in any direction (H3).",
        ),
        OptionSpec(
            "clamp", ("run", "single"), "run", "Clamp",
            "run: a clamp takes a whole run of enemy pieces; single: exactly one (H5).",
        ),
        OptionSpec(
            "hero_arrival_captures", ("true", "false"), "true", "Hero arrival captures",
            "Whether a warrior that transforms captures on its arrival square first (H8).",
        ),
        OptionSpec(
            "hero_when_has_ahayuta", ("stay", "illegal", "remove"), "stay",
            "Hero when you have an Ahayuta",
            "A warrior reaching the enemy home row while you have an Ahayuta stays there, "
            "may not go there, or is removed after its arrival captures (H9).",
        ),
        OptionSpec(
            "pending_when_home_full", ("wait", "lose"), "wait", "Pending with full home row",
            "A pending Ahayuta with no empty home-row square waits, or its player loses (H12).",
        ),
    )

    def __init__(self, size: int | None = None, **options: str) -> None:
        super().__init__(size, **options)
        opts = self.options
        self.single_clamp = opts["clamp"] == "single"
        self.arrival_captures = opts["hero_arrival_captures"] == "true"
        self.when_has_ahayuta = _HAS_CODES[opts["hero_when_has_ahayuta"]]
        self.lose_when_home_full = opts["pending_when_home_full"] == "lose"

    def check_size(self, size: int) -> None:
        if size != 8:
            raise ParseError(f"the Ahayuta board is always 8 (8x8 without corners), not {size}")

    @property
    def geometry(self) -> AhayutaGeometry:
        return geometry()

    def start(self) -> AhayutaPosition:
        return AhayutaPosition(self, (0, 0), (0, 0), (6, 6), (False, False), LIGHT)

    def parse(self, text: str) -> AhayutaPosition:
        men, aha, reserves, pending, turn = parse_state(self, text)
        return AhayutaPosition(self, men, aha, reserves, pending, turn)

    def parse_move(self, text: str) -> AhayutaMove:
        return self.parse_move_and_captures(text)[0]

    def parse_move_and_captures(self, text: str) -> tuple[AhayutaMove, tuple[int, ...] | None]:
        """The move and the squares of its capture suffix (`xe5xf6`), None without one."""
        return parse_move_and_captures(self.geometry, text)

    def board(self) -> BoardDescription:
        return board_description(self.geometry)


# What push saves to undo a move: the move, then every field of the state.
_Saved = tuple[
    AhayutaMove, int, int, int, int, int, int, bool, bool, int,
    "tuple[int, str, bool] | None", "list[Move] | None",
]


class AhayutaPosition(Position):
    """An Ahayuta state, side to move and the history of pushed moves."""

    def __init__(
        self,
        game: AhayutaGame,
        men: tuple[int, int] | list[int],
        aha: tuple[int, int] | list[int],
        reserves: tuple[int, int] | list[int],
        pending: tuple[bool, bool] | list[bool],
        turn: int,
    ) -> None:
        super().__init__()
        self.game: AhayutaGame = game
        self.geo = game.geometry
        self.men = list(men)
        self.aha = list(aha)
        self.res = list(reserves)
        self.pend = list(pending)
        self.turn = turn
        self._asteps = self.geo.ahayuta_steps[game.options["ahayuta_moves"]]
        # (winner, reason, whether the loser's Ahayuta was captured)
        self._won: tuple[int, str, bool] | None = None
        for side in (LIGHT, DARK):
            if self.aha[side] & self.geo.goal[side]:
                self._won = (side, self._reached_reason(side), False)
        self._stack: list[_Saved] = []
        self._moves_cache: list[Move] | None = None
        self._record: list[Effect] | None = None
        self.hash = self._full_key()
        self._enter_key(self.hash)

    def _full_key(self) -> int:
        geo = self.geo
        key = geo.turn_key if self.turn == DARK else 0
        for side in (LIGHT, DARK):
            for index in bits(self.men[side]):
                key ^= geo.zobrist[2 * side][index]
            for index in bits(self.aha[side]):
                key ^= geo.zobrist[2 * side + 1][index]
            key ^= geo.reserve_keys[side][self.res[side]]
            if self.pend[side]:
                key ^= geo.pending_keys[side]
        return key

    def _reached_reason(self, side: int) -> str:
        players = self.game.players
        return f"{players[side]}'s Ahayuta reached {players[side ^ 1]}'s home row"

    # -- contract ---------------------------------------------------------------------
    def key(self) -> int:
        return self.hash

    def copy(self) -> AhayutaPosition:
        other = self._clone()
        other.men = list(self.men)
        other.aha = list(self.aha)
        other.res = list(self.res)
        other.pend = list(self.pend)
        other._stack = list(self._stack)
        other._record = None
        return other

    def status(self, side: int) -> str:
        """AHA-4 status of `side`: none, pending, on_board, or captured (game over)."""
        if self.aha[side]:
            return "on_board"
        if self.pend[side]:
            return "pending"
        if self._ahayuta_captured(side):
            return "captured"
        return "none"

    def _ahayuta_captured(self, side: int) -> bool:
        """Whether the game ended by the capture of `side`'s Ahayuta (AHA-16)."""
        won = self._won
        return won is not None and won[0] != side and won[2]

    def push(self, move: Move) -> None:
        assert isinstance(move, AhayutaMove)
        c = self.turn
        men, aha, res, pend = self.men, self.aha, self.res, self.pend
        self._stack.append((
            move, men[0], men[1], aha[0], aha[1], res[0], res[1], pend[0], pend[1],
            self.hash, self._won, self._moves_cache,
        ))
        self._moves_cache = None
        geo = self.geo
        zob = geo.zobrist
        rec = self._record
        key = self.hash ^ geo.turn_key
        kind = move.kind
        t = move.target
        tb = 1 << t
        o = c ^ 1
        if kind == DEPLOY:  # AHA-6
            men[c] |= tb
            count = res[c]
            res[c] = count - 1
            keys = geo.reserve_keys[c]
            key ^= zob[2 * c][t] ^ keys[count] ^ keys[count - 1]
            if rec is not None:
                rec.append(Placed(geo.names[t], self.game.players[c], "warrior", "deploy"))
            if geo.adjacent[t] & (men[o] | aha[o]):
                key = self._capture(c, t, key)
        elif kind == PLACE:  # AHA-5
            aha[c] = tb
            pend[c] = False
            key ^= zob[2 * c + 1][t] ^ geo.pending_keys[c]
            if rec is not None:
                rec.append(Placed(geo.names[t], self.game.players[c], "ahayuta", "sacrifice"))
            if geo.adjacent[t] & (men[o] | aha[o]):
                key = self._capture(c, t, key)
        else:
            s = move.source
            sb = 1 << s
            if aha[c] & sb:  # AHA-8
                aha[c] = tb
                key ^= zob[2 * c + 1][s] ^ zob[2 * c + 1][t]
                if rec is not None:
                    rec.append(Moved(geo.names[s], geo.names[t], self.game.players[c], "ahayuta"))
                if geo.adjacent[t] & (men[o] | aha[o]):
                    key = self._capture(c, t, key)
                if tb & geo.goal[c]:  # AHA-16: a step onto the enemy home row wins
                    self._won = (c, self._reached_reason(c), False)
            else:  # AHA-7
                men[c] ^= sb | tb
                zw = zob[2 * c]
                key ^= zw[s] ^ zw[t]
                if rec is not None:
                    rec.append(Moved(geo.names[s], geo.names[t], self.game.players[c], "warrior"))
                if tb & geo.goal[c]:
                    key = self._hero(c, move, key)
                elif geo.adjacent[t] & (men[o] | aha[o]):
                    key = self._capture(c, t, key)
        self.hash = key
        self.turn = o
        self._keys.append(key)  # Position._enter_key, inlined
        counts = self._key_counts
        counts[key] = counts.get(key, 0) + 1

    def _hero(self, c: int, move: AhayutaMove, key: int) -> int:
        """A warrior of `c` arrived on the enemy home row (AHA-14, H8…H10)."""
        geo, game = self.geo, self.game
        men, aha, pend = self.men, self.aha, self.pend
        t = move.target
        tb = 1 << t
        enemy = men[c ^ 1] | aha[c ^ 1]
        rec = self._record
        if aha[c] or pend[c]:  # H9: this side already has its Ahayuta
            if geo.adjacent[t] & enemy:
                key = self._capture(c, t, key)
            if game.when_has_ahayuta == HAS_REMOVE:
                men[c] ^= tb
                key ^= geo.zobrist[2 * c][t]
                if rec is not None:
                    rec.append(Removed(geo.names[t], game.players[c]))
            return key
        if game.arrival_captures and geo.adjacent[t] & enemy:
            key = self._capture(c, t, key)
        men[c] ^= tb
        key ^= geo.zobrist[2 * c][t]
        if rec is not None:
            rec.append(Transformed(geo.names[t], game.players[c]))
        n = move.newborn
        if n < 0:  # H10: the home row is full, the Ahayuta waits
            pend[c] = True
            key ^= geo.pending_keys[c]
            if rec is not None:
                rec.append(AhayutaPending(game.players[c], "hero"))
            return key
        aha[c] = 1 << n
        key ^= geo.zobrist[2 * c + 1][n]
        if rec is not None:
            rec.append(Placed(geo.names[n], game.players[c], "ahayuta", "hero"))
        if geo.adjacent[n] & (men[c ^ 1] | aha[c ^ 1]):
            key = self._capture(c, n, key)
        return key

    def clamps(self, c: int, s: int) -> int:
        """Squares that a piece of `c` arriving on `s` captures (AHA-10, H5), as a mask."""
        o = c ^ 1
        men, aha = self.men, self.aha
        enemy = men[o] | aha[o]
        own = men[c] | aha[c]
        captured = 0
        if self.game.single_clamp:
            for ray in self.geo.rays[s]:
                if ray[0] & enemy and ray[1] & own:
                    captured |= ray[0]
            return captured
        for ray in self.geo.rays[s]:
            if not ray[0] & enemy:
                continue
            run = 0
            for b in ray:
                if b & enemy:
                    run |= b
                    continue
                if b & own:
                    captured |= run
                break
        return captured

    def clamp_runs(self, c: int, s: int) -> list[tuple[tuple[int, ...], int]]:
        """Each clamp of a piece of `c` arriving on `s`: (captured squares, anchor square)."""
        o = c ^ 1
        enemy = self.men[o] | self.aha[o]
        own = self.men[c] | self.aha[c]
        runs = []
        limit = 1 if self.game.single_clamp else 8
        for ray in self.geo.ray_squares[s]:
            run: list[int] = []
            for square in ray:
                if enemy >> square & 1 and len(run) < limit:
                    run.append(square)
                    continue
                if run and own >> square & 1:
                    runs.append((tuple(run), square))
                break
        return runs

    def _capture(self, c: int, s: int, key: int) -> int:
        """Resolve the clamps of the piece of `c` that arrived on `s` (AHA-10…AHA-15)."""
        captured = self.clamps(c, s)
        if not captured:
            return key
        o = c ^ 1
        men, aha, pend = self.men, self.aha, self.pend
        geo = self.geo
        rec = self._record
        if rec is not None:
            players = self.game.players
            for cells, anchor in self.clamp_runs(c, s):
                rec.append(Captured(
                    players[o],
                    tuple(geo.names[i] for i in cells),
                    (geo.names[s], geo.names[anchor]),
                    tuple("ahayuta" if aha[o] >> i & 1 else "warrior" for i in cells),
                ))
        fallen = captured & men[o]
        if fallen:
            men[o] ^= fallen
            zw = geo.zobrist[2 * o]
            for index in bits(fallen):
                key ^= zw[index]
            # AHA-15 Path of Sacrifice, for a side whose status is none: not one whose
            # Ahayuta an earlier capture of this action took (it has lost, AHA-16).
            if not pend[o] and not aha[o] and not self._ahayuta_captured(o):
                pend[o] = True
                key ^= geo.pending_keys[o]
                if rec is not None:
                    rec.append(AhayutaPending(self.game.players[o], "sacrifice"))
        if captured & aha[o]:  # AHA-16: capturing the enemy Ahayuta wins
            key ^= geo.zobrist[2 * o + 1][aha[o].bit_length() - 1]
            aha[o] = 0
            if self._won is None:
                players = self.game.players
                self._won = (c, f"{players[c]} captured {players[o]}'s Ahayuta", True)
        return key

    def pop(self) -> Move:
        (
            move, m0, m1, a0, a1, r0, r1, p0, p1, self.hash, self._won, self._moves_cache,
        ) = self._stack.pop()
        self.men[0], self.men[1] = m0, m1
        self.aha[0], self.aha[1] = a0, a1
        self.res[0], self.res[1] = r0, r1
        self.pend[0], self.pend[1] = p0, p1
        self.turn ^= 1
        key = self._keys.pop()  # Position._leave_key, inlined
        counts = self._key_counts
        count = counts[key] - 1
        if count:
            counts[key] = count
        else:
            del counts[key]
        return move

    def forget_cached_moves(self) -> None:
        self._moves_cache = None

    def rule_moves(self) -> list[Move]:
        moves = self._moves_cache
        if moves is None:
            moves = self._moves_cache = self._generate()
        return moves

    def legal_moves(self) -> list[Move]:
        if self._key_counts[self.hash] >= 3:  # AHA-18, the current key is always counted
            return []
        moves = self._moves_cache
        if moves is None:
            moves = self._moves_cache = self._generate()
        return list(moves)

    def outcome(self) -> Outcome | None:
        if self._won is not None:
            return Outcome(self.game.players[self._won[0]], self._won[1])
        if self._occurrences() >= 3:
            return Outcome(None, "the same position occurred for the third time")
        if not self.rule_moves():
            return Outcome(
                self.game.players[self.turn ^ 1], f"{self.turn_name} has no legal move"
            )
        return None

    def _generate(self) -> list[Move]:
        if self._won is not None:
            return []
        c = self.turn
        geo = self.geo
        men, aha = self.men, self.aha
        empty = geo.board_mask & ~(men[0] | men[1] | aha[0] | aha[1])
        home_code = (empty >> HOME_SHIFT[c]) & 63
        if self.pend[c]:  # AHA-5 forced placement, H12
            if home_code:
                return list(geo.places[c][home_code])
            if self.game.lose_when_home_full:
                return []
        moves: list[Move] = list(geo.deploys[c][home_code]) if self.res[c] else []
        own = men[c]
        # AHA-7, rank by rank through a memo of moves per pair of bytes.
        own_bytes = own.to_bytes(8, "little")
        empty_bytes = empty.to_bytes(8, "little")
        memo = geo.rank_steps[c]
        forward = geo.forward[c]
        for rank in geo.step_ranks[c]:
            sources = own_bytes[rank]
            if sources:
                key = sources << 8 | empty_bytes[rank + forward]
                found = memo[rank].get(key)
                if found is None:
                    found = geo.rank_step_moves(c, rank, key)
                moves += found
        heroes = own & geo.pre_goal[c]
        if heroes:  # steps onto the enemy home row
            for up, amount, sources, table in geo.step_shifts[c]:
                targets = (heroes & sources) << amount if up else (heroes & sources) >> amount
                targets &= empty
                while targets:
                    low = targets & -targets
                    targets ^= low
                    self._hero_moves(table[low], home_code, moves)
        a = aha[c]
        if a:  # AHA-8
            for target, move in self._asteps[c][a.bit_length() - 1]:
                if target & empty:
                    moves.append(move)
        return moves

    def _hero_moves(self, move: AhayutaMove, home_code: int, moves: list[Move]) -> None:
        """The moves of a warrior step onto the enemy home row (AHA-14, H9, H10)."""
        c = self.turn
        if not (self.aha[c] or self.pend[c]):  # an Ahayuta is born
            if home_code:
                moves.extend(self.geo.hero_moves[move][home_code])
            else:
                moves.append(move)  # H10: it will be pending
        elif self.game.when_has_ahayuta != HAS_ILLEGAL:
            moves.append(move)  # H9

    def to_text(self) -> str:
        return format_position(self)

    def pieces(self) -> dict[str, Piece]:
        out: dict[str, Piece] = {}
        names = self.geo.names
        for side, player in enumerate(self.game.players):
            for index in bits(self.men[side]):
                out[names[index]] = Piece(player, "warrior")
            for index in bits(self.aha[side]):
                out[names[index]] = Piece(player, "ahayuta")
        return out

    def reserves(self) -> dict[str, int]:
        return {"light": self.res[LIGHT], "dark": self.res[DARK]}

    def effects_of(self, move: Move) -> list[Effect]:
        assert isinstance(move, AhayutaMove)
        effects: list[Effect] = []
        self._record = effects
        try:
            self.push(move)
        finally:
            self._record = None
        self.pop()
        return effects

    def captures_of(self, move: Move) -> list[int]:
        """Squares a legal move captures, in board order (rank 1 first, files a-h)."""
        found: list[int] = []
        for effect in self.effects_of(move):
            if isinstance(effect, Captured):
                found.extend(self.geo.index_of[name] for name in effect.cells)
        return sorted(found)

    def move_text_with_captures(self, move: Move) -> str:
        """The move with its capture suffix for display (section 6.2), e.g. `c3-d4xe5`."""
        names = self.geo.names
        return move.to_text() + "".join(f"x{names[i]}" for i in self.captures_of(move))

    def parse_move(self, text: str) -> Move:
        """A move from its text; a capture suffix is checked against this position."""
        move, captures = self.game.parse_move_and_captures(text)
        if captures is not None:
            check_capture_suffix(self, move, captures)
        return move

    def explain_illegal(self, move: Move) -> str:
        from engine.games.ahayuta_explain import explain

        assert isinstance(move, AhayutaMove)
        return explain(self, move)
