"""Which of a fixed set of prices a player can pay, answered for all of them at once.

Every state of a turn checks the same prices: taking a tile from each crane position, refreshing each
row, buying the extra action, claiming a seal, an up move bought at any time. Most are constant
amounts, whose answers depend only on what the player holds of the few resources they name; so they
are worked out together once for such holdings and remembered as a bit mask (bit i: price i can be
paid). A price that reads the game is not in the book: the caller evaluates it each time.
"""

from __future__ import annotations

from interpreter.runtime.machine import constant_amounts

_MEMO_LIMIT = 1 << 16  # distinct holdings remembered before the memo starts again


class PriceBook:
    def __init__(self) -> None:
        self._prices: list[tuple[tuple[str, int], ...]] = []
        self._bits: dict[tuple, int] = {}  # a constant price -> its bit
        self._resources: tuple[str, ...] = ()
        self._zeros: tuple[int, ...] = ()  # one 0 per resource: the default of each read in payable
        self._memo: dict[tuple[int, ...], int] = {}

    def bit(self, amounts) -> int | None:
        """The bit of compiled amounts whose values are constant (added on first sight), else None."""
        values = constant_amounts(amounts)
        if values is None:
            return None
        values = tuple((r, n) for r, n in values if n > 0)
        bit = self._bits.get(values)
        if bit is None:
            bit = self._bits[values] = len(self._prices)
            self._prices.append(values)
            self._resources = tuple(sorted({r for price in self._prices for r, _ in price}))
            self._zeros = (0,) * len(self._resources)
            self._memo.clear()
        return bit

    def payable(self, holdings: dict[str, int]) -> int:
        """Bit mask of the prices these holdings pay (compiled amounts name each resource once)."""
        key = tuple(map(holdings.get, self._resources, self._zeros))  # holdings.get(r, 0) for each, without a Python loop
        mask = self._memo.get(key)
        if mask is None:
            mask = 0
            for bit, price in enumerate(self._prices):
                if all(holdings.get(r, 0) >= n for r, n in price):
                    mask |= 1 << bit
            if len(self._memo) >= _MEMO_LIMIT:
                self._memo.clear()
            self._memo[key] = mask
        return mask
