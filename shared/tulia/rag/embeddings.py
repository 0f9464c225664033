"""Text embeddings for the knowledge base's vector search.

One interface (LangChain's: ``embed_documents``/``embed_query``) with two implementations:

- :class:`HashingEmbedder`: deterministic feature hashing of the text's search terms and their
  character trigrams, offline and free (the local stack, tests, benchmarks). Texts that share words
  get similar vectors; it knows no synonyms.
- Amazon Titan Text Embeddings v2 on Bedrock through langchain-aws (:func:`bedrock_embedder`), in AWS.

Both give unit-length vectors of :data:`DIMENSIONS` numbers, the size the OpenSearch mapping declares.
"""

from __future__ import annotations

import hashlib
import math
from typing import TYPE_CHECKING, Any, Protocol

from tulia.search.text import terms

if TYPE_CHECKING:
    from tulia.config import Settings

DIMENSIONS = 512  # Titan v2 offers 256, 512 or 1024; 512 keeps nearly all of its retrieval quality
TRIGRAM_WEIGHT = 0.5  # trigrams let "deliveries" and "delivery" overlap; words count more


class Embedder(Protocol):
    def embed_documents(self, texts: list[str]) -> list[list[float]]: ...

    def embed_query(self, text: str) -> list[float]: ...


class HashingEmbedder:
    """Signed feature hashing (blake2b) of terms and character trigrams, L2-normalised."""

    def __init__(self, dimensions: int = DIMENSIONS) -> None:
        self.dimensions = dimensions

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._embed(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._embed(text)

    def _embed(self, text: str) -> list[float]:
        vector = [0.0] * self.dimensions
        for term in terms(text):
            self._add(vector, term, 1.0)
            padded = f"#{term}#"
            for i in range(len(padded) - 2):
                self._add(vector, padded[i : i + 3], TRIGRAM_WEIGHT)
        norm = math.sqrt(sum(v * v for v in vector))
        return [v / norm for v in vector] if norm else vector

    def _add(self, vector: list[float], feature: str, weight: float) -> None:
        digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
        slot = int.from_bytes(digest[:4], "big") % self.dimensions
        vector[slot] += weight if digest[4] & 1 else -weight


def bedrock_embedder(settings: Settings, *, client: Any = None) -> Embedder:
    """Titan Text Embeddings v2 (``settings.bedrock_embedding_model``), 512 dimensions, normalised."""
    from langchain_aws import BedrockEmbeddings

    embedder: Embedder = BedrockEmbeddings(
        client=client,
        model_id=settings.bedrock_embedding_model,
        region_name=settings.aws_region,
        dimensions=DIMENSIONS,
        normalize=True,
    )
    return embedder


def embedder_for(settings: Settings) -> Embedder:
    """The embedder the settings name (``TULIA_EMBEDDINGS``: ``local`` or ``bedrock``)."""
    return bedrock_embedder(settings) if settings.embeddings == "bedrock" else HashingEmbedder()
