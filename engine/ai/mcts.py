"""Monte Carlo tree search with a solver (Winands, Björnsson and Saito's MCTS-Solver).

The tree is a tree, not a graph: every node stands for one path from the root, so
repetition draws (which depend on the path) are judged exactly and proven values stay
correct. Proven wins, losses and draws back up: a node is won if one child is lost for
the opponent, lost if every child is won for the opponent, drawn if every child is proven
and the best is a draw.

Leaves are valued by a playout driven by the game's policy, either to the end of the game
or for a few plies followed by the policy's evaluation (per game, chosen by measurement).

With `rave` on, every node also keeps all-moves-as-first statistics (Gelly and Silver's
RAVE): a playout that went through a node counts for each move its side to move played
later in that iteration, keyed by the policy's `amaf_key` (in Bug, the growth cell). Those
early, rough values steer selection until a move's own visits take over, and they decide
which untried move to expand next, so a wide node is not expanded blindly in full before
its best moves are revisited.

With `implicit_minimax` above 0 (Lanctot, Winands, Pepels and Sturtevant's implicit
minimax backups) each new node is also valued by the policy's evaluation, those values
back up the tree by minimax, and selection blends that minimax value into a move's
average with this weight. The playouts average over many random lines; the minimax value
says what the best line found so far is worth by the evaluation, which separates moves
that a shallow tree of averages leaves level.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from engine.ai.common import (
    Candidate,
    Clock,
    ProgressCallback,
    SearchLimits,
    SearchResult,
    StopCheck,
    never_stop,
    outcome_value,
    working_copy,
)
from engine.ai.policies import UNIFORM, GamePolicy, policy_for
from engine.core import Move, Position

WIN, DRAW, LOSS = 1, 0, -1


@dataclass(frozen=True)
class MctsSettings:
    """`playout_plies` None plays to the end; a number stops there and evaluates.

    `uniform` ignores the game's policy (plain UCT, the measuring stick); `solver` turns
    proof backing-up on and off.
    """

    exploration: float = 0.7
    playout_plies: int | None = None
    playout_cap: int = 300
    solver: bool = True
    uniform: bool = False
    rave: bool = False
    # Visits at which a move's own value and its RAVE value weigh the same (about).
    rave_equivalence: float = 300.0
    rave_exploration: float = 0.25
    # Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant, 2014): every new
    # node is valued by the policy's evaluation, those values back up by minimax, and
    # selection blends that minimax value in with this weight. 0 leaves it out.
    implicit_minimax: float = 0.0


class Node:
    """`wins` and `proof` are from the view of the player who made `move`."""

    __slots__ = (
        "move", "parent", "children", "untried", "visits", "wins", "proof", "plies", "amaf",
        "minimax",
    )

    def __init__(self, move: Move | None, parent: Node | None) -> None:
        self.move = move
        self.parent = parent
        self.children: list[Node] = []
        self.untried: list[Move] | None = None  # None until the node is expanded
        self.visits = 0
        self.wins = 0.0
        self.proof: int | None = None
        self.plies = 0  # with a proof: plies from this node to the end of the game
        # RAVE: amaf key -> [playouts, wins] for the side to move here, over later moves.
        self.amaf: dict[object, list[float]] | None = None
        # Implicit minimax: the evaluation backed up by minimax, for the player who moved.
        self.minimax = 0.5


class MctsSearcher:
    """MCTS-Solver behind the common `search` call."""

    def __init__(self, settings: MctsSettings | None = None) -> None:
        self.settings = settings or MctsSettings()

    def search(
        self,
        position: Position,
        history: Sequence[int],
        limits: SearchLimits,
        *,
        should_stop: StopCheck | None = None,
        on_progress: ProgressCallback | None = None,
        rng: random.Random | None = None,
        lost_moves: Collection[Move] = (),
    ) -> SearchResult:
        """The common search call; `lost_moves` are root moves already proven lost (by an
        endgame solver): they start out proven, so the tree never spends a visit on them."""
        run = _Run(self.settings, position, history, rng or random.Random(0))
        return run.go(limits, should_stop or never_stop, on_progress, lost_moves)


class _Run:
    def __init__(
        self,
        settings: MctsSettings,
        position: Position,
        history: Sequence[int],
        rng: random.Random,
    ) -> None:
        self.settings = settings
        self.position = working_copy(position, history)
        self.policy: GamePolicy = UNIFORM if settings.uniform else policy_for(position.game)
        self.rng = rng
        self.root = Node(None, None)
        self.iterations = 0
        self.interrupted: StopCheck = never_stop

    # -- the loop ---------------------------------------------------------------------
    def go(
        self, limits: SearchLimits, should_stop: StopCheck, on_progress: ProgressCallback | None,
        lost_moves: Collection[Move] = (),
    ) -> SearchResult:
        clock = Clock()
        root = self.root
        self._expand(root)
        assert root.untried is not None
        if lost_moves:
            self._mark_lost(root, lost_moves)
        if not root.untried:
            return self._result(clock)
        if len(root.untried) == 1 and limits.iterations is None:
            # One move not known to lose: nothing to think about (iteration limits still
            # search, so that a seeded search reports the same value every time).
            if root.children:
                root.children.append(Node(root.untried.pop(), root))
            self.iterations = 1
            return self._result(clock)
        deadline = None if limits.time is None else clock.began + limits.time
        self.interrupted = lambda: should_stop() or (
            deadline is not None and time.perf_counter() >= deadline
        )
        cap = limits.iterations
        while root.proof is None:
            if cap is not None and self.iterations >= cap:
                break
            if should_stop():
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            self._iterate()
            self.iterations += 1
            if on_progress is not None and clock.report_due():
                on_progress(self._result(clock).info())
        result = self._result(clock)
        if on_progress is not None:
            on_progress(result.info())
        return result

    def _iterate(self) -> None:
        position = self.position
        node = self.root
        pushed = 0
        path = [node]
        # RAVE: the amaf key of every move of this iteration, tree and playout.
        trail: list[object] | None = [] if self.settings.rave else None
        amaf_key = self.policy.amaf_key
        while True:
            if node.proof is not None:
                reward = _proof_reward(node.proof)
                break
            if node.untried is None:
                self._expand(node)
            move = self._next_untried(node)
            if move is not None:
                child = Node(move, node)
                node.children.append(child)
                position.push(move)
                pushed += 1
                node = child
                path.append(node)
                if trail is not None:
                    trail.append(amaf_key(move))
                outcome = position.outcome()
                if outcome is not None:
                    # Value for the player who moved into `node` (not the side to move).
                    value = 1.0 - outcome_value(outcome, position)
                    self._prove(node, WIN if value == 1.0 else LOSS if value == 0.0 else DRAW, 0)
                    reward = value
                else:
                    if self.settings.implicit_minimax:
                        node.minimax = 1.0 - self.policy.evaluate(position)
                    reward = 1.0 - self._simulate(position, trail)
                break
            if not node.children:
                # Expanded with no moves: the game ended here (proof was set in _expand).
                reward = _proof_reward(node.proof or DRAW)
                break
            node = self._select(node)
            assert node.move is not None
            position.push(node.move)
            pushed += 1
            path.append(node)
            if trail is not None:
                trail.append(amaf_key(node.move))
        for _ in range(pushed):
            position.pop()
        if trail is not None:
            _back_up_amaf(path, trail, reward)
        if self.settings.implicit_minimax:
            _back_up_minimax(node.parent)
        # Back up: `reward` is for the player who moved into `node`.
        walk: Node | None = node
        while walk is not None:
            walk.visits += 1
            walk.wins += reward
            reward = 1.0 - reward
            walk = walk.parent

    def _mark_lost(self, root: Node, lost_moves: Collection[Move]) -> None:
        """Root moves proven lost elsewhere become proven children (a loss for the mover)."""
        assert root.untried is not None
        lost = [move for move in root.untried if move in lost_moves]
        if not lost:
            return
        root.untried = [move for move in root.untried if move not in lost_moves]
        for move in lost:
            child = Node(move, root)
            root.children.append(child)
            self._prove(child, LOSS, 0)

    def _expand(self, node: Node) -> None:
        moves = self.position.legal_moves()
        if len(moves) > 1 and not self.settings.uniform:
            moves = self.policy.distinct_moves(self.position, moves)
            moves = self.policy.order_moves(self.position, moves)
        # Popped from the end, so the most promising move is tried first.
        node.untried = list(reversed(moves))
        if not moves and node.proof is None and node is self.root:
            outcome = self.position.outcome()
            if outcome is not None:
                value = 1.0 - outcome_value(outcome, self.position)
                node.proof = WIN if value == 1.0 else LOSS if value == 0.0 else DRAW

    def _next_untried(self, node: Node) -> Move | None:
        """The move to expand at `node`, or None to select among its children.

        Without RAVE every move is expanded once, best ordered first, before any is
        revisited; with RAVE an untried move is expanded only when its RAVE value beats
        every child's score."""
        untried = node.untried
        if not untried:
            return None
        if not self.settings.rave:
            return untried.pop()
        log_n = math.log(node.visits + 1)
        stats = node.amaf or {}
        amaf_key = self.policy.amaf_key
        best_index = len(untried) - 1
        best_score = -math.inf
        for index in range(len(untried) - 1, -1, -1):  # best ordered first
            score = self._rave_score(stats.get(amaf_key(untried[index])), 0, 0.0, log_n)
            if score > best_score:
                best_index, best_score = index, score
        if node.children and self._best_child(node, log_n)[1] >= best_score:
            return None
        return untried.pop(best_index)

    def _rave_score(
        self, amaf: list[float] | None, visits: int, wins: float, log_n: float,
        minimax: float | None = None,
    ) -> float:
        settings = self.settings
        rave_value = 0.5 if amaf is None else (amaf[1] + 0.5) / (amaf[0] + 1.0)
        if visits:
            k = settings.rave_equivalence
            beta = math.sqrt(k / (3.0 * visits + k))
            value = (1.0 - beta) * wins / visits + beta * rave_value
            if minimax is not None:
                value += settings.implicit_minimax * (minimax - value)
        else:
            value = rave_value
        return value + settings.rave_exploration * math.sqrt(log_n / (visits + 1))

    def _select(self, node: Node) -> Node:
        best, _score = self._best_child(node, math.log(node.visits + 1))
        # Every child proven lost (the parent's proof arrives with the next back-up).
        return best if best is not None else node.children[0]

    def _best_child(self, node: Node, log_n: float) -> tuple[Node | None, float]:
        """The child to walk into and its score: UCB1, or with RAVE the blended value."""
        rave = self.settings.rave
        c = self.settings.exploration
        alpha = self.settings.implicit_minimax
        stats = node.amaf or {}
        amaf_key = self.policy.amaf_key
        best: Node | None = None
        best_score = -math.inf
        for child in node.children:
            proof = child.proof
            visits = child.visits
            if proof is not None:
                if proof == LOSS:
                    continue  # never walk into a proven loss while other moves remain
                if proof == WIN:
                    return child, math.inf
                score = 0.5 if rave else 0.5 + c * math.sqrt(log_n / (visits + 1))
            elif rave:
                key = amaf_key(child.move)  # type: ignore[arg-type]
                score = self._rave_score(
                    stats.get(key), visits, child.wins, log_n,
                    child.minimax if alpha else None,
                )
            else:
                value = child.wins / visits
                if alpha:
                    value += alpha * (child.minimax - value)
                score = value + c * math.sqrt(log_n / visits)
            if score > best_score:
                best_score = score
                best = child
        return best, best_score

    def _simulate(self, position: Position, trail: list[object] | None = None) -> float:
        """Value for the side to move at `position` (which is not over)."""
        settings = self.settings
        policy = self.policy
        limit = settings.playout_plies
        if limit == 0:
            return policy.evaluate(position)
        cap = settings.playout_cap if limit is None else limit
        rng = self.rng
        whole = policy.playout(position, rng, cap, self.interrupted, trail)
        if whole is not None:
            return whole
        pushed = 0
        value = 0.5
        while True:
            move = policy.playout_turn(position, rng)
            if move is None:
                outcome = position.outcome()
                value = 0.5 if outcome is None else outcome_value(outcome, position)
                break
            if pushed >= cap or (pushed & 15 == 15 and self.interrupted()):
                # Long playouts look at the stop flag too, so a stop is seen within ~20 ms.
                value = policy.evaluate(position) if policy.has_evaluator else 0.5
                break
            position.push(move)
            pushed += 1
            if trail is not None:
                trail.append(policy.amaf_key(move))
        if pushed % 2:
            value = 1.0 - value
        for _ in range(pushed):
            position.pop()
        return value

    # -- proofs -----------------------------------------------------------------------
    def _prove(self, node: Node, proof: int, plies: int) -> None:
        node.proof = proof
        node.plies = plies
        if not self.settings.solver:
            return
        parent = node.parent
        while parent is not None and parent.proof is None:
            child_best = _best_proof(parent)
            if child_best is None:
                return
            proof, plies = child_best
            parent.proof = -proof
            parent.plies = plies + 1
            parent = parent.parent

    # -- reporting --------------------------------------------------------------------
    def _result(self, clock: Clock) -> SearchResult:
        root = self.root
        elapsed = clock.elapsed()
        children = root.children
        if not children:
            untried = root.untried or []
            move = untried[-1] if untried else None
            proof = None if root.proof is None else -root.proof
            return SearchResult(
                move, 0.5, (move,) if move else (), (), self.iterations, elapsed,
                proven_result=proof, proven_plies=0 if proof is not None else None,
            )
        best = _final_choice(root)
        if best.proof == LOSS and root.untried:
            # Stopped before any move but those proven lost elsewhere was tried.
            move = root.untried[-1]
            return SearchResult(move, 0.5, (move,), (), self.iterations, elapsed)
        total = sum(child.visits for child in children) or 1
        ranked = sorted(children, key=_rank_key, reverse=True)
        # The top eight, and every move proven lost: merging root-parallel workers must
        # know which moves one of them has refuted.
        shown = ranked[:8] + [child for child in ranked[8:] if child.proof == LOSS]
        candidates = tuple(
            Candidate(child.move, child.visits / total, _child_value(child), child.proof)
            for child in shown
            if child.move is not None
        )
        pv: list[Move] = []
        walk: Node | None = best
        while walk is not None and walk.move is not None:
            pv.append(walk.move)
            walk = max(walk.children, key=_rank_key) if walk.children else None
            if len(pv) >= 12:
                break
        decided = root.proof is not None or best.proof == WIN
        assert best.move is not None
        return SearchResult(
            best_move=best.move,
            value=_child_value(best),
            pv=tuple(pv),
            candidates=candidates,
            nodes=self.iterations,
            elapsed=elapsed,
            depth=len(pv),
            proven_result=best.proof if decided else None,
            proven_plies=best.plies + 1 if decided else None,
        )


def _back_up_amaf(path: list[Node], trail: list[object], reward: float) -> None:
    """RAVE: each node on the path counts every later move of its side to move.

    `path[i]` is the node before `trail[i]`; `reward` is for the player who moved into
    the last node of the path."""
    last = len(path) - 1
    for depth, node in enumerate(path):
        # The side to move at path[last - 1] made the last tree move and gets `reward`.
        value = reward if (last - 1 - depth) % 2 == 0 else 1.0 - reward
        stats = node.amaf
        if stats is None:
            stats = node.amaf = {}
        for key in set(trail[depth::2]):
            entry = stats.get(key)
            if entry is None:
                stats[key] = [1.0, value]
            else:
                entry[0] += 1.0
                entry[1] += value


def _back_up_minimax(node: Node | None) -> None:
    """Implicit minimax: from `node` up, each node is worth the best of its children for
    the side to move there (proven children count as 1 or 0), until a value holds. A
    proven node counts by its proof in its parent, not by its own value, so the walk goes
    on past it even where that value held (its proof may be new in this iteration)."""
    while node is not None and node.move is not None:
        best = max(
            _proof_reward(child.proof) if child.proof is not None else child.minimax
            for child in node.children
        )
        value = 1.0 - best
        if value == node.minimax and node.proof is None:
            return
        node.minimax = value
        node = node.parent


def _proof_reward(proof: int) -> float:
    return 1.0 if proof == WIN else 0.0 if proof == LOSS else 0.5


def _best_proof(parent: Node) -> tuple[int, int] | None:
    """The proof of the parent's best move if the parent is decided, else None.

    Returned from the view of the player to move at `parent`: (WIN, plies) when some move
    wins (the quickest), (LOSS, plies) when all lose (the slowest), (DRAW, …) when all
    are proven and the best draws.
    """
    quickest_win: int | None = None
    for child in parent.children:
        if child.proof == WIN and (quickest_win is None or child.plies < quickest_win):
            quickest_win = child.plies
    if quickest_win is not None:
        return WIN, quickest_win
    if parent.untried is None or parent.untried:
        return None
    best = LOSS
    plies = 0
    for child in parent.children:
        if child.proof is None:
            return None
        if child.proof > best:
            best, plies = child.proof, child.plies
        elif child.proof == best:
            plies = max(plies, child.plies) if best == LOSS else min(plies, child.plies)
    return best, plies


def _child_value(child: Node) -> float:
    if child.proof is not None:
        return _proof_reward(child.proof)
    return child.wins / child.visits if child.visits else 0.5


def _rank_key(child: Node) -> tuple[int, float, float]:
    """Proven wins first (quickest), then the most visited, proven losses last (slowest)."""
    if child.proof == WIN:
        return (2, -child.plies, 0.0)
    if child.proof == LOSS:
        return (0, child.plies, 0.0)
    return (1, float(child.visits), _child_value(child))


def _final_choice(root: Node) -> Node:
    return max(root.children, key=_rank_key)
