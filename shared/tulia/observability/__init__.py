"""Logger, Tracer and Metrics in one place, so domain code never imports from a handler."""

from __future__ import annotations

from aws_lambda_powertools import Logger

logger = Logger(service="tulia")
