"""Alarms on what breaks a shop's day: messages stuck in a dead-letter queue, function errors and
throttles, an agent close to its timeout, and the webhook answering Meta with 5xx. They notify one
SNS topic per stage (subscribe an email or a pager to it after deploy)."""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_apigatewayv2 as apigw
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_cloudwatch_actions as actions
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra.config import StageConfig

NEAR_TIMEOUT = 0.8  # the agent's slowest invocations above 80 % of its timeout


class Alarms(Construct):
    def __init__(
        self,
        scope: Construct,
        cid: str,
        *,
        config: StageConfig,
        functions: dict[str, lambda_.Function],
        dead_letters: dict[str, sqs.Queue],
        api: apigw.HttpApi,
    ) -> None:
        super().__init__(scope, cid)
        self.topic = sns.Topic(
            self,
            "Topic",
            topic_name=config.name("alarms"),
            master_key=kms.Alias.from_alias_name(self, "SnsKey", "alias/aws/sns"),
        )
        self.topic.add_to_resource_policy(
            iam.PolicyStatement(
                effect=iam.Effect.DENY,
                principals=[iam.AnyPrincipal()],
                actions=["sns:Publish"],
                resources=[self.topic.topic_arn],
                conditions={"Bool": {"aws:SecureTransport": "false"}},
            )
        )
        notify = actions.SnsAction(self.topic)
        self.alarms: list[cw.Alarm] = []

        def alarm(name: str, metric: cw.IMetric, threshold: float, what: str) -> None:
            made = cw.Alarm(
                self,
                name,
                alarm_name=config.name(name),
                alarm_description=what,
                metric=metric,
                threshold=threshold,
                evaluation_periods=1,
                comparison_operator=cw.ComparisonOperator.GREATER_THAN_THRESHOLD,
                treat_missing_data=cw.TreatMissingData.NOT_BREACHING,
            )
            made.add_alarm_action(notify)
            self.alarms.append(made)

        five_minutes = Duration.minutes(5)
        for logical, dlq in dead_letters.items():
            base = logical.removesuffix(".fifo")
            alarm(
                f"{base}-dlq-not-empty",
                dlq.metric_approximate_number_of_messages_visible(period=five_minutes, statistic="Maximum"),
                0,
                f"Messages of the {base} queue failed every retry and wait in its dead-letter queue.",
            )
        for name, fn in functions.items():
            alarm(f"{name}-errors", fn.metric_errors(period=five_minutes, statistic="Sum"), 0, f"{name} failed.")
            alarm(
                f"{name}-throttles",
                fn.metric_throttles(period=five_minutes, statistic="Sum"),
                0,
                f"{name} was throttled (concurrency exhausted).",
            )
        agent = functions["agent"]
        alarm(
            "agent-near-timeout",
            agent.metric_duration(period=five_minutes, statistic="Maximum"),
            config.agent.timeout_seconds * 1000 * NEAR_TIMEOUT,
            "The agent's slowest turn came within 20 % of its timeout.",
        )
        from tulia.observability.metrics import NAMESPACE

        alarm(
            "model-budget-exceeded",
            cw.Metric(
                namespace=NAMESPACE,
                metric_name="ModelBudgetExceeded",
                dimensions_map={"service": "tulia-agent"},
                statistic="Sum",
                period=five_minutes,
            ),
            0,
            "A shop spent its model budget for the day: its turns are answered by the rules engine.",
        )
        alarm(
            "api-5xx",
            api.metric_server_error(period=five_minutes, statistic="Sum"),
            0,
            "The API answered with 5xx (Meta retries webhooks; providers retry callbacks).",
        )


WEBHOOK_METRICS = ("InboundMessages", "DuplicateDeliveries", "UnroutedMessages")
PANELS: dict[str, tuple[str, ...]] = {
    "Conversations": ("Turns", *WEBHOOK_METRICS),
    "Sales": (
        "Searches",
        "OrdersCreated",
        "StkPushesStarted",
        "CardCheckoutsStarted",
        "PaybillInstructionsGiven",
        "CouponsApplied",
    ),
    "Payments": ("PaymentsPaid", "PaymentsFailed", "PaymentsCancelled", "PaymentsTimedOut"),
    "Care": ("Escalations", "ToolErrors"),
    "Model usage": ("LlmCalls", "LlmInputTokens", "LlmOutputTokens", "LlmCostMicroUsd"),
    "Fair use": ("RateLimited", "ModelBudgetExceeded"),
}


class Dashboard(Construct):
    """One CloudWatch dashboard per stage: the business metrics the functions publish
    (:mod:`tulia.observability.metrics`) over the health of the functions and queues."""

    def __init__(
        self,
        scope: Construct,
        cid: str,
        *,
        config: StageConfig,
        functions: dict[str, lambda_.Function],
        dead_letters: dict[str, sqs.Queue],
    ) -> None:
        super().__init__(scope, cid)
        from tulia.observability.metrics import NAMESPACE, UNITS

        hour = Duration.hours(1)

        def business(name: str) -> cw.Metric:
            service = "tulia-webhook" if name in WEBHOOK_METRICS else "tulia-agent"
            return cw.Metric(
                namespace=NAMESPACE, metric_name=name, dimensions_map={"service": service}, statistic="Sum", period=hour
            )

        drawn = {name for names in PANELS.values() for name in names}
        missing = set(UNITS) - drawn
        if missing:  # a metric the code publishes must be on the dashboard
            raise ValueError(f"metrics missing from the dashboard: {sorted(missing)}")
        self.dashboard = cw.Dashboard(self, "Dashboard", dashboard_name=config.name("overview"))
        self.dashboard.add_widgets(
            *[
                cw.GraphWidget(title=title, left=[business(n) for n in names], width=8, height=6)
                for title, names in PANELS.items()
            ],
        )
        five = Duration.minutes(5)
        self.dashboard.add_widgets(
            cw.GraphWidget(
                title="Function errors",
                left=[fn.metric_errors(period=five, label=name) for name, fn in functions.items()],
                width=8,
            ),
            cw.GraphWidget(
                title="Function p95 duration (ms)",
                left=[fn.metric_duration(period=five, statistic="p95", label=name) for name, fn in functions.items()],
                width=8,
            ),
            cw.GraphWidget(
                title="Dead-letter queues",
                left=[
                    q.metric_approximate_number_of_messages_visible(period=five, label=name)
                    for name, q in dead_letters.items()
                ],
                width=8,
            ),
        )
