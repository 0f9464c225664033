"""A shop's own layer over the global reader: what its owner said her customers' messages meant (issue 53, part 5).

The owner labels messages the bot did not understand (``tulia.domain.understanding``). From her labels the layer
learns weights of its own over the reader's hashed features (words, word pairs, character 3-5-grams), added to the
global reader's logits: a few passes of gradient descent on the softmax of the sum, in plain Python, until each of her
messages is read as she labelled it. What her messages share ("imesonga", "umesonga": has it moved?) carries the
weight, so after she labels three Sheng ways of asking where an order is, a fourth way that shares their words is read
as one. Her shop's reading changes with her next label: the layer is built again (``reading_version``), in
milliseconds for a few hundred labels; no retraining of the global reader.

The layer decides only where the global reader is unsure, or for a message she labelled herself (her word for her own
customers beats the reader's guess): it never overrules a sure reading because of a faint likeness.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from tulia.nlu.reader import MessageReader, feature_indexes, message_reader, normalize_for_reader

EPOCHS = 40  # passes over her labels at most ...
PASSES_OF_WORK = 2_000  # ... and fewer for many labels: about this many example-passes in all (500 labels: 4 passes)
MIN_EPOCHS = 4
STEP = 1.0  # gradient step
DECAY = 0.003  # L2 on the layer's weights: a word of one label is not a verdict
READ_RIGHT = 0.97  # each labelled message read at least this sure stops the passes


@dataclass(frozen=True)
class ShopReading:
    intent: str
    confidence: float  # the layered reading's probability of ``intent``
    labelled: bool  # the message is one she labelled (as written, case and spaces aside)
    item_id: str | None = None
    quantity: int | None = None


@dataclass(frozen=True)
class _Example:
    key: str
    indexes: tuple[int, ...]
    label: int
    item_id: str | None
    quantity: int | None


class ShopLayer:
    """The shop's labelled messages and the weights learned from them."""

    def __init__(
        self, labelled: Iterable[tuple[str, str, str | None, int | None]], reader: MessageReader | None = None
    ) -> None:
        """``labelled``: (message, intent, item id or None, quantity or None)."""
        self.reader = reader or message_reader()
        self._width = len(self.reader.labels)
        self._examples = [
            _Example(
                normalize_for_reader(text),
                tuple(feature_indexes(text, self.reader.bits)),
                self.reader.labels.index(intent),
                item_id,
                quantity,
            )
            for text, intent, item_id, quantity in labelled
            if intent in self.reader.labels
        ]
        self._by_key = {ex.key: ex for ex in self._examples}
        self._weights: dict[int, list[float]] = {}
        if self._examples:
            self._learn()

    def __len__(self) -> int:
        return len(self._examples)

    def _delta(self, indexes: Iterable[int]) -> list[float]:
        out = [0.0] * self._width
        found = [self._weights[i] for i in indexes if i in self._weights]
        if not found:
            return out
        norm = 1.0 / math.sqrt(len(found))
        for row in found:
            for c in range(self._width):
                out[c] += row[c] * norm
        return out

    def _probabilities(self, base: list[float], indexes: Iterable[int]) -> list[float]:
        delta = self._delta(indexes)
        logits = [(b + d) / self.reader.temperature for b, d in zip(base, delta, strict=True)]
        top = max(logits)
        exp = [math.exp(z - top) for z in logits]
        total = sum(exp)
        return [e / total for e in exp]

    def _learn(self) -> None:
        bases = {ex.key: self.reader.logits(ex.key) for ex in self._examples}
        for _ in range(min(EPOCHS, max(MIN_EPOCHS, PASSES_OF_WORK // len(self._examples)))):
            worst = 1.0
            for ex in self._examples:
                probabilities = self._probabilities(bases[ex.key], ex.indexes)
                worst = min(worst, probabilities[ex.label])
                norm = 1.0 / math.sqrt(len(ex.indexes)) if ex.indexes else 0.0
                for index in ex.indexes:
                    row = self._weights.setdefault(index, [0.0] * self._width)
                    for c in range(self._width):
                        gradient = probabilities[c] - (1.0 if c == ex.label else 0.0)
                        row[c] -= STEP * (gradient * norm + DECAY * row[c])
            if worst >= READ_RIGHT:
                break

    def read(self, text: str) -> ShopReading | None:
        """The reading with the shop's weights added, or None when none of its learned words is in the message."""
        if not self._examples:
            return None
        key = normalize_for_reader(text)
        own = self._by_key.get(key)
        indexes = feature_indexes(text, self.reader.bits)
        if own is None and not any(i in self._weights for i in indexes):
            return None
        probabilities = self._probabilities(self.reader.logits(text), indexes)
        best = max(range(self._width), key=probabilities.__getitem__)
        if own is not None:
            best = own.label
        return ShopReading(
            intent=self.reader.labels[best],
            confidence=round(probabilities[best], 4),
            labelled=own is not None,
            item_id=own.item_id if own is not None else None,
            quantity=own.quantity if own is not None else None,
        )

    @staticmethod
    def decides(reading: ShopReading, reader_confidence: float, sure: float) -> bool:
        """Whether the shop's reading replaces the global reader's: for a message she labelled, or where the reader
        was unsure and the shop's reading is sure."""
        return reading.labelled or (reader_confidence < sure and reading.confidence >= sure)
