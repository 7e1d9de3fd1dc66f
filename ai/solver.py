"""Exact Connect-4 solver (draft)."""
from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

MIN_SIZE = 4
MAX_SIZE = 9


@dataclass(frozen=True)
class SolveResult:
    score: int
    best_move: int | None
    nodes: int
    elapsed: float
    complete: bool
    lower: int | None = None
    upper: int | None = None


class _Abort(Exception):
    pass


class _Geometry:
    def __init__(self, width: int, height: int) -> None:
        W, H = width, height
        H1 = H + 1
        self.width, self.height, self.h1 = W, H, H1
        self.area = W * H
        self.bottom = sum(1 << (c * H1) for c in range(W))
        self.board = self.bottom * ((1 << H) - 1)
        self.colmask = tuple(((1 << H) - 1) << (c * H1) for c in range(W))
        self.order = tuple(W // 2 + (1 - 2 * (i % 2)) * (i + 1) // 2 for i in range(W))
        self.stride = S = W * H1 + 3 * (H + 2)
        self.rep = sum(1 << (S * c) for c in range(W))
        self.diag = sum(self.colmask[c] << (S * c) for c in range(W))


@lru_cache(maxsize=None)
def _geometry(width: int, height: int) -> _Geometry:
    return _Geometry(width, height)


def _winning_cells(pos: int, mask: int, g: _Geometry) -> int:
    H = g.height
    r = (pos << 1) & (pos << 2) & (pos << 3)
    for s in (H, H + 1, H + 2):
        t = pos >> s
        d = pos & t
        r |= ((d >> s) & ((pos >> 3 * s) | (pos << s))) | ((d << 2 * s) & (t | (pos << 3 * s)))
    return r & (g.board ^ mask)


class Solver:
    def __init__(self, width: int = 7, height: int = 6, *, tt_entries: int = 1 << 21) -> None:
        self.width, self.height = width, height
        self._g = _geometry(width, height)
        self._tt: dict[int, int] = {}
        self.tt_entries = tt_entries

    def reset(self) -> None:
        self._tt.clear()

    def solve_bitboard(self, current, mask, moves_played, *, weak=False, max_nodes=None, time_limit=None):
        g = self._g
        start = time.perf_counter()
        deadline = None if time_limit is None else start + time_limit
        W, H = g.width, g.height
        H1 = H + 1
        AREA = g.area
        BOTTOM, BOARD = g.bottom, g.board
        CM = g.colmask
        ORDER = g.order
        S = g.stride
        REP, DIAG = g.rep, g.diag
        SH = tuple(S * c for c in range(W))
        PRI = [0] * W
        for i, c in enumerate(ORDER):
            PRI[c] = W - 1 - i
        PCOL = [0] * 16
        for c in range(W):
            PCOL[PRI[c]] = c
        LOSS = tuple(-((AREA - n) // 2) for n in range(AREA + 1))
        LO = tuple(-((AREA - 2 - n) // 2) for n in range(AREA + 1))
        HI = tuple((AREA - 1 - n) // 2 for n in range(AREA + 1))
        DRAWN = AREA - 2
        s0, s1, s2 = H, H1, H + 2
        s0x2, s1x2, s2x2 = 2 * s0, 2 * s1, 2 * s2
        s0x3, s1x3, s2x3 = 3 * s0, 3 * s1, 3 * s2
        tt = self._tt
        tt_get = tt.get
        cap = self.tt_entries
        nodes = 0
        checkpoint = 1024 if max_nodes is None else min(1024, max_nodes)

        def check():
            nonlocal checkpoint, nodes
            if max_nodes is not None and nodes > max_nodes:
                nodes -= 1
                raise _Abort
            if deadline is not None and time.perf_counter() > deadline:
                raise _Abort
            if len(tt) > cap:
                tt.clear()
            checkpoint = nodes + 1024
            if max_nodes is not None and checkpoint > max_nodes:
                checkpoint = max_nodes

        def negamax(cur, mask, nb, alpha, beta, oppwin):
            nonlocal nodes
            nodes += 1
            if nodes > checkpoint:
                check()
            possible = (mask + BOTTOM) & BOARD
            forced = possible & oppwin
            if forced:
                if forced & (forced - 1):
                    return LOSS[nb]
                possible = forced
            possible &= ~(oppwin >> 1)
            if not possible:
                return LOSS[nb]
            if nb >= DRAWN:
                return 0
            v = LO[nb]
            if alpha < v:
                alpha = v
                if alpha >= beta:
                    return alpha
            v = HI[nb]
            if beta > v:
                beta = v
                if alpha >= beta:
                    return beta
            key = cur + mask
            v = tt_get(key)
            if v is not None:
                if v & 1:
                    v >>= 1
                    if alpha < v:
                        alpha = v
                        if alpha >= beta:
                            return alpha
                else:
                    v >>= 1
                    if beta > v:
                        beta = v
                        if alpha >= beta:
                            return beta
            opp = cur ^ mask
            nb += 1
            empty = BOARD ^ mask
            if not (possible & (possible - 1)):
                P = cur | possible
                r = (P << 1) & (P << 2) & (P << 3)
                t = P >> s0
                d = P & t
                r |= ((d >> s0) & ((P >> s0x3) | (P << s0))) | ((d << s0x2) & (t | (P << s0x3)))
                t = P >> s1
                d = P & t
                r |= ((d >> s1) & ((P >> s1x3) | (P << s1))) | ((d << s1x2) & (t | (P << s1x3)))
                t = P >> s2
                d = P & t
                r |= ((d >> s2) & ((P >> s2x3) | (P << s2))) | ((d << s2x2) & (t | (P << s2x3)))
                score = -negamax(opp, mask | possible, nb, -beta, -alpha, r & empty)
                if score >= beta:
                    tt[key] = score * 2 + 1
                    return score
                if score > alpha:
                    alpha = score
                tt[key] = alpha * 2
                return alpha
            P = cur * REP | (possible * REP & DIAG)
            r = (P << 1) & (P << 2) & (P << 3)
            t = P >> s0
            d = P & t
            r |= ((d >> s0) & ((P >> s0x3) | (P << s0))) | ((d << s0x2) & (t | (P << s0x3)))
            t = P >> s1
            d = P & t
            r |= ((d >> s1) & ((P >> s1x3) | (P << s1))) | ((d << s1x2) & (t | (P << s1x3)))
            t = P >> s2
            d = P & t
            r |= ((d >> s2) & ((P >> s2x3) | (P << s2))) | ((d << s2x2) & (t | (P << s2x3)))
            ks = []
            for c in ORDER:
                if possible & CM[c]:
                    ks.append((((r >> SH[c]) & empty).bit_count() << 4) | PRI[c])
            ks.sort(reverse=True)
            for k in ks:
                c = PCOL[k & 15]
                m = possible & CM[c]
                score = -negamax(opp, mask | m, nb, -beta, -alpha, (r >> SH[c]) & empty)
                if score >= beta:
                    tt[key] = score * 2 + 1
                    return score
                if score > alpha:
                    alpha = score
            tt[key] = alpha * 2
            return alpha

        # root
        nb = moves_played
        possible = (mask + BOTTOM) & BOARD
        mywin = _winning_cells(current, mask, g) & possible
        if mywin:
            col = next(c for c in ORDER if mywin & CM[c])
            s = 1 if weak else (AREA + 1 - nb) // 2
            return SolveResult(s, col, 0, time.perf_counter() - start, True, s, s)
        oppwin = _winning_cells(current ^ mask, mask, g)
        forced = possible & oppwin
        nl = possible
        if forced:
            nl = 0 if forced & (forced - 1) else forced
        nl &= ~(oppwin >> 1)
        # ordered root moves
        root_moves = []
        for c in ORDER:
            m = nl & CM[c]
            if m:
                w = _winning_cells(current | m, mask | m, g)
                root_moves.append((w.bit_count(), PRI[c], c, m, w))
        root_moves.sort(reverse=True)
        legal = [c for c in ORDER if possible & CM[c]]
        default_move = root_moves[0][2] if root_moves else legal[0]
        opp = current ^ mask
        key = current + mask

        def root(alpha, beta):
            nonlocal nodes
            nodes += 1
            if not nl:
                return LOSS[nb], None
            if nb >= DRAWN:
                return 0, None
            v = LO[nb]
            if alpha < v:
                alpha = v
                if alpha >= beta:
                    return alpha, None
            v = HI[nb]
            if beta > v:
                beta = v
                if alpha >= beta:
                    return beta, None
            best = None
            for _, _, c, m, w in root_moves:
                score = -negamax(opp, mask | m, nb + 1, -beta, -alpha, w)
                if score >= beta:
                    tt[key] = score * 2 + 1
                    return score, c
                if score > alpha:
                    alpha = score
                    best = c
            tt[key] = alpha * 2
            return alpha, best

        lo, hi = -((AREA - nb) // 2), (AREA + 1 - nb) // 2
        if weak:
            lo, hi = -1, 1
        best = None
        complete = True
        try:
            while lo < hi:
                med = lo + (hi - lo) // 2
                if med <= 0 and -((-lo) // 2) < med:
                    med = -((-lo) // 2)
                elif med >= 0 and hi // 2 > med:
                    med = hi // 2
                r, mv = root(med, med + 1)
                if r <= med:
                    hi = r
                else:
                    lo = r
                    best = mv
        except _Abort:
            complete = False
        score = lo
        if weak and complete:
            score = (score > 0) - (score < 0)
            lo = hi = score
        if best is None:
            best = default_move
        return SolveResult(score, best, nodes, time.perf_counter() - start, complete, lo, hi if not complete else score)


def parse_moves(moves: str, width: int = 7, height: int = 6):
    g = _geometry(width, height)
    cur = mask = 0
    n = 0
    for ch in moves:
        c = int(ch) - 1
        m = (mask + g.bottom) & g.colmask[c]
        cur ^= mask
        mask |= m
        n += 1
    return cur, mask, n


def solve(moves: str = "", width: int = 7, height: int = 6, *, weak=False, max_nodes=None, time_limit=None):
    cur, mask, n = parse_moves(moves, width, height)
    return Solver(width, height).solve_bitboard(cur, mask, n, weak=weak, max_nodes=max_nodes, time_limit=time_limit)
