"""DynamoDB tables and SQS queues, generated from the definitions the code uses (one source of truth:
:mod:`tulia.store.tables` and :mod:`tulia.store.queues`)."""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra.config import StageConfig
from tulia.store.queues import ALL_QUEUES, QueueDef
from tulia.store.tables import ALL_TABLES, TableDef

# SQS: a visibility timeout of at least six times the consuming function's timeout (AWS's advice
# for event source mappings), so a slow batch is not delivered twice while it still runs.
VISIBILITY_FACTOR = 6


class DataTables(Construct):
    """Every table of :data:`tulia.store.tables.ALL_TABLES`: on-demand, point-in-time recovery,
    AWS-managed encryption, TTL where the code writes one."""

    def __init__(self, scope: Construct, cid: str, *, config: StageConfig) -> None:
        super().__init__(scope, cid)
        self.by_logical_name: dict[str, dynamodb.Table] = {}
        for definition in ALL_TABLES:
            self.by_logical_name[definition.logical_name] = self._table(definition, config)

    def _table(self, d: TableDef, config: StageConfig) -> dynamodb.Table:
        table = dynamodb.Table(
            self,
            d.logical_name.capitalize(),
            table_name=config.table_prefix + d.logical_name,
            partition_key=dynamodb.Attribute(name=d.pk, type=dynamodb.AttributeType.STRING),
            sort_key=dynamodb.Attribute(name=d.sk, type=dynamodb.AttributeType.STRING),
            billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
            point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
                point_in_time_recovery_enabled=True
            ),
            encryption=dynamodb.TableEncryption.AWS_MANAGED,
            time_to_live_attribute=d.ttl_attribute,
            removal_policy=RemovalPolicy.RETAIN if config.retain_data else RemovalPolicy.DESTROY,
        )
        for gsi in d.gsis:
            table.add_global_secondary_index(
                index_name=gsi.name,
                partition_key=dynamodb.Attribute(name=gsi.pk, type=dynamodb.AttributeType.STRING),
                sort_key=dynamodb.Attribute(name=gsi.sk, type=dynamodb.AttributeType.STRING),
                projection_type=dynamodb.ProjectionType.ALL,
            )
        return table

    def __getitem__(self, logical_name: str) -> dynamodb.Table:
        return self.by_logical_name[logical_name]


class Queues(Construct):
    """Every queue of :data:`tulia.store.queues.ALL_QUEUES`, each with a dead-letter queue of the same
    kind (FIFO for FIFO), encrypted, TLS only; deduplication ids come from the code."""

    def __init__(
        self, scope: Construct, cid: str, *, config: StageConfig, consumer_timeouts: dict[str, Duration]
    ) -> None:
        super().__init__(scope, cid)
        self.queues: dict[str, sqs.Queue] = {}
        self.dead_letters: dict[str, sqs.Queue] = {}
        for definition in ALL_QUEUES:
            timeout = consumer_timeouts[definition.logical_name]
            self._queue(definition, config, timeout)

    def _queue(self, d: QueueDef, config: StageConfig, consumer_timeout: Duration) -> None:
        base = d.logical_name.removesuffix(".fifo")
        suffix = ".fifo" if d.fifo else ""
        fifo = {"fifo": True, "content_based_deduplication": False} if d.fifo else {}
        dlq = sqs.Queue(
            self,
            f"{base.title().replace('-', '')}Dlq",
            queue_name=f"{config.table_prefix}{base}-dlq{suffix}",
            retention_period=Duration.days(14),
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            **fifo,
        )
        visibility = max(d.visibility_timeout_seconds, VISIBILITY_FACTOR * consumer_timeout.to_seconds())
        queue = sqs.Queue(
            self,
            base.title().replace("-", ""),
            queue_name=d.name(config.table_prefix),  # the name the code looks the queue up by
            visibility_timeout=Duration.seconds(visibility),
            retention_period=Duration.days(4),
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            dead_letter_queue=sqs.DeadLetterQueue(
                max_receive_count=config.dlq_max_receive_count + d.held_deliveries, queue=dlq
            ),
            **fifo,
        )
        self.queues[d.logical_name] = queue
        self.dead_letters[d.logical_name] = dlq

    def __getitem__(self, logical_name: str) -> sqs.Queue:
        return self.queues[logical_name]
