"""cdk-nag's AwsSolutions pack runs in synthesis: no unsuppressed finding, and every suppression says why."""

from __future__ import annotations

import json

import pytest

from tests.infra.conftest import synth_stack


@pytest.mark.parametrize("stage", ["dev", "prod"])
def test_no_awssolutions_finding_is_left_unsuppressed(stage: str) -> None:
    from aws_cdk.assertions import Annotations, Match, Template

    stack = synth_stack(stage=stage)
    template = Template.from_stack(stack)  # synthesis runs the nag aspect
    annotations = Annotations.from_stack(stack)
    findings = [
        f"{f.id}: {str(f.entry.data)[:120]}"
        for finder in (annotations.find_error, annotations.find_warning)
        for f in finder("*", Match.string_like_regexp("AwsSolutions-.*"))
    ]
    assert findings == []
    suppressions = [
        s
        for resource in template.to_json()["Resources"].values()
        for s in (resource.get("Metadata", {}).get("cdk_nag", {}).get("rules_to_suppress") or [])
    ]
    assert suppressions, "the nag pack ran and its accepted findings are recorded in the template"
    for s in suppressions:
        assert len(s["reason"]) >= 40, json.dumps(s)


def test_an_unreasoned_weakness_is_reported() -> None:
    """The pack really runs: a bucket without TLS enforcement added to the stack is flagged."""
    import aws_cdk as cdk
    from aws_cdk import aws_s3 as s3
    from aws_cdk.assertions import Annotations, Match
    from infra.app import build

    app = cdk.App(context={"aws:cdk:bundling-stacks": [], "stage": "dev"})
    stack = build(app)
    s3.Bucket(stack, "Careless")
    errors = Annotations.from_stack(stack).find_error(
        "/Tulia-dev/Careless/Resource", Match.string_like_regexp("AwsSolutions-S10.*")
    )
    assert errors
