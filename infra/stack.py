"""The whole of Tulia in one stack per stage."""

from __future__ import annotations

from typing import Any

from aws_cdk import Duration, Stack, Tags
from constructs import Construct

from infra.config import StageConfig
from infra.data import DataTables, Queues
from tulia.store.queues import INBOUND, PAYMENT_CHECKS


class TuliaStack(Stack):
    def __init__(self, scope: Construct, cid: str, *, config: StageConfig, **kwargs: Any) -> None:
        super().__init__(scope, cid, **kwargs)
        self.config = config
        Tags.of(self).add("app", "tulia")
        Tags.of(self).add("stage", config.stage)
        self.tables = DataTables(self, "Tables", config=config)
        self.queues = Queues(
            self,
            "Queues",
            config=config,
            consumer_timeouts={
                INBOUND.logical_name: Duration.seconds(config.agent.timeout_seconds),
                PAYMENT_CHECKS.logical_name: Duration.seconds(config.payments.timeout_seconds),
            },
        )
