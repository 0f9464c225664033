"""Lambda functions and their dependency layers, bundled on this machine without Docker.

- A dependency layer per need (``layers/<name>/requirements.txt``, pinned with hashes in its
  ``requirements.lock`` by ``make lock``): pip installs exactly the locked manylinux wheels for Lambda's
  platform (arm64, CPython 3.12) into the layer, then tests and caches are trimmed.
- Each function's code is its thin handler plus the ``tulia`` package.
Each function gets only the layers it imports (the webhook never carries LangGraph), which keeps
every function well under Lambda's 250 MB unzipped limit.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aws_cdk as cdk
import jsii
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra.config import FunctionSize, StageConfig

ROOT = Path(__file__).resolve().parents[1]
RUNTIME = lambda_.Runtime.PYTHON_3_12
ARCHITECTURE = lambda_.Architecture.ARM_64
PIP_PLATFORM = (  # Lambda's Python 3.12 runs on Amazon Linux 2023 (glibc 2.34): manylinux_2_28 wheels and older
    *("--platform", "manylinux_2_28_aarch64", "--platform", "manylinux2014_aarch64"),
    *("--python-version", "3.12", "--implementation", "cp"),
)
# never used: every asset here is bundled locally; CDK's API asks for an image all the same
NO_DOCKER = cdk.DockerImage.from_registry("tulia/bundled-locally-without-docker")
TRIM_DIRS = ("tests", "test", "__pycache__")


def _tree_digest(*paths: Path) -> str:
    """A content hash of files (the asset hash, so unchanged code is not uploaded again)."""
    digest = hashlib.sha256()
    for base in paths:
        files = (
            sorted(p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
            if base.is_dir()
            else [base]
        )
        for f in files:
            digest.update(str(f.relative_to(ROOT)).encode())
            digest.update(f.read_bytes())
    return digest.hexdigest()


def trim(tree: Path) -> None:
    """Drop what Lambda never runs: test folders, bytecode caches."""
    for name in TRIM_DIRS:
        for found in sorted(tree.rglob(name), key=lambda p: len(p.parts), reverse=True):
            if found.is_dir():
                shutil.rmtree(found, ignore_errors=True)


@jsii.implements(cdk.ILocalBundling)
class PipLayer:
    """``pip install`` a layer's lock file (``make lock``) for Lambda's platform into ``python/``."""

    def __init__(self, lock: Path) -> None:
        self.lock = lock

    def try_bundle(self, output_dir: str, *args: Any, **options: Any) -> bool:
        target = Path(output_dir) / "python"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "--quiet",
                "--no-compile",
                "--only-binary=:all:",
                "--no-deps",  # exactly the lock: every package is pinned there, with its hashes
                "--require-hashes",
                *PIP_PLATFORM,
                "--target",
                str(target),
                "-r",
                str(self.lock),
            ],
            check=True,
        )
        trim(target)
        return True


# parts of ``tulia`` no Lambda imports: the local stack and the command line, the evaluation harness, the tests'
# scripted chat model and the reader's training corpus (build time); so the functions stay no larger than they
# were before the reader's weights
NOT_DEPLOYED = shutil.ignore_patterns(
    "local", "cli.py", "evaluation.py", "corpus.py", "labelled_sets.py", "scripted.py"
)


@jsii.implements(cdk.ILocalBundling)
class FunctionCode:
    """The function's handler and the ``tulia`` package, copied as Lambda will import them."""

    def __init__(self, function: str) -> None:
        self.function = function

    def try_bundle(self, output_dir: str, *args: Any, **options: Any) -> bool:
        out = Path(output_dir)
        shutil.copy2(ROOT / "functions" / self.function / "handler.py", out / "handler.py")
        shutil.copytree(ROOT / "shared" / "tulia", out / "tulia", dirs_exist_ok=True, ignore=NOT_DEPLOYED)
        trim(out)
        return True


def layer(scope: Construct, cid: str, name: str, config: StageConfig) -> lambda_.LayerVersion:
    lock = ROOT / "layers" / name / "requirements.lock"  # pinned with hashes from requirements.txt
    return lambda_.LayerVersion(
        scope,
        cid,
        layer_version_name=config.name(f"{name}-deps"),
        description=f"Tulia {name} dependencies ({lock.relative_to(ROOT)})",
        compatible_runtimes=[RUNTIME],
        compatible_architectures=[ARCHITECTURE],
        code=lambda_.Code.from_asset(
            str(lock.parent),
            asset_hash=_tree_digest(lock),  # the layer is rebuilt exactly when its lock changes
            asset_hash_type=cdk.AssetHashType.CUSTOM,
            bundling=cdk.BundlingOptions(image=NO_DOCKER, local=PipLayer(lock)),
        ),
        removal_policy=cdk.RemovalPolicy.RETAIN if config.retain_data else cdk.RemovalPolicy.DESTROY,
    )


@dataclass(frozen=True)
class FunctionSpec:
    name: str  # the folder under functions/
    size: FunctionSize
    layers: tuple[str, ...]
    description: str


def function(
    scope: Construct,
    cid: str,
    spec: FunctionSpec,
    *,
    config: StageConfig,
    layers: dict[str, lambda_.LayerVersion],
    environment: dict[str, str],
) -> lambda_.Function:
    code_dir = ROOT / "functions" / spec.name
    log_group = logs.LogGroup(
        scope,
        f"{cid}Logs",
        log_group_name=f"/aws/lambda/{config.name(spec.name)}",
        retention=logs.RetentionDays.ONE_MONTH if config.retain_data else logs.RetentionDays.ONE_WEEK,
        removal_policy=cdk.RemovalPolicy.RETAIN if config.retain_data else cdk.RemovalPolicy.DESTROY,
    )
    return lambda_.Function(
        scope,
        cid,
        function_name=config.name(spec.name),
        description=spec.description,
        runtime=RUNTIME,
        architecture=ARCHITECTURE,
        handler="handler.handler",
        code=lambda_.Code.from_asset(
            str(code_dir),
            asset_hash=_tree_digest(code_dir, ROOT / "shared" / "tulia"),
            asset_hash_type=cdk.AssetHashType.CUSTOM,
            bundling=cdk.BundlingOptions(image=NO_DOCKER, local=FunctionCode(spec.name)),
        ),
        layers=[layers[name] for name in spec.layers],
        memory_size=spec.size.memory_mb,
        timeout=cdk.Duration.seconds(spec.size.timeout_seconds),
        reserved_concurrent_executions=spec.size.reserved_concurrency,
        tracing=lambda_.Tracing.ACTIVE,
        log_group=log_group,
        environment={
            "POWERTOOLS_SERVICE_NAME": f"tulia-{spec.name}",
            "POWERTOOLS_LOG_LEVEL": config.log_level,
            "POWERTOOLS_METRICS_NAMESPACE": "Tulia",
            "TULIA_STAGE": config.stage,
            "TULIA_LOG_LEVEL": config.log_level,
            "TULIA_TABLE_PREFIX": config.table_prefix,
            **environment,
        },
    )
