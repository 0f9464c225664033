"""Shared output shapes and helpers for the tool implementations."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Output(BaseModel):
    model_config = ConfigDict(extra="forbid")
