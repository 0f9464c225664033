"""CDK entry point (``cdk.json``): ``cdk synth|deploy --context stage=dev``.

``--context bundle=false`` synthesises the template without building the functions' packages (pip
needs the package index for the Lambda wheels), which is how the tests check it offline.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for path in (ROOT, ROOT / "shared"):  # the infra package, and tulia's table and queue definitions
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import aws_cdk as cdk  # noqa: E402

from infra.config import ContextError, stage_config  # noqa: E402
from infra.stack import TuliaStack  # noqa: E402

CONTEXT_KEYS = (
    "stage",
    "agentReservedConcurrency",
    "webhookReservedConcurrency",
    "agentBatchSize",
    "dlqMaxReceiveCount",
    "apiDomain",
    "apiCertificateArn",
    "consoleDomain",
    "consoleCertificateArn",
    "metaAppId",
    "embeddedSignupConfigId",
)


def build(app: cdk.App) -> TuliaStack:
    from cdk_nag import AwsSolutionsChecks

    from infra.nag import accept_findings

    bundle = app.node.try_get_context("bundle")
    if bundle not in (None, True, False, "true", "false"):
        raise ContextError(f"context value 'bundle' is {bundle!r}; allowed: true, false")
    if bundle in (False, "false"):
        # the template only (offline checks): functions and layers are not built
        app.node.set_context("aws:cdk:bundling-stacks", [])
    context = {key: app.node.try_get_context(key) for key in CONTEXT_KEYS}
    config = stage_config(context)
    stack = TuliaStack(app, f"Tulia-{config.stage}", config=config, description=f"Tulia ({config.stage})")
    accept_findings(stack)
    cdk.Aspects.of(app).add(AwsSolutionsChecks(verbose=True))  # every finding is an error or suppressed with a reason
    return stack


def main() -> None:
    app = cdk.App()
    try:
        build(app)
    except ContextError as exc:
        sys.stderr.write(f"cdk synth stopped: {exc}\n")
        raise SystemExit(2) from None
    app.synth()


if __name__ == "__main__":
    main()
