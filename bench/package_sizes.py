"""Unzipped size of each Lambda function as deployed: its code plus its layers (limit 250 MB).

Method: synthesise the CDK app for a stage with real bundling (pip installs the layers' manylinux
arm64 wheels for Python 3.12, no Docker), then measure every asset folder in the cloud assembly and
add up, per function, the function's own code and the layers it carries.
Usage: python bench/package_sizes.py [stage]   (needs the package index for the wheels)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT_MB = 250


def size_mb(path: Path) -> float:
    """Unzipped size of an asset: a staged folder, or a zip CDK ships as it is (its own CLI layer)."""
    zipped = path.parent / (path.name + ".zip")
    if not path.exists() and zipped.exists():
        with zipfile.ZipFile(zipped) as z:
            return sum(i.file_size for i in z.infolist()) / 1_000_000
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1_000_000


def main(stage: str = "dev") -> None:
    with tempfile.TemporaryDirectory() as out:
        env = {
            **os.environ,
            "CDK_OUTDIR": out,
            "CDK_CONTEXT_JSON": json.dumps({"stage": stage}),
            "JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION": os.environ.get(
                "JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "18,20"
            ),
        }
        subprocess.run([sys.executable, str(ROOT / "infra" / "app.py")], env=env, check=True, cwd=ROOT)
        assembly = Path(out)
        template = json.loads((assembly / f"Tulia-{stage}.template.json").read_text())
        resources = template["Resources"]

        def asset_of(code: dict) -> Path:
            return assembly / ("asset." + code["S3Key"].removesuffix(".zip"))

        layers = {
            lid: (
                r["Properties"].get("LayerName", lid),
                size_mb(asset_of(r["Properties"]["Content"])),
            )  # CDK's own layers have no name
            for lid, r in resources.items()
            if r["Type"] == "AWS::Lambda::LayerVersion"
        }
        print(f"Unzipped sizes, stage {stage} (MB; Lambda's limit is {LIMIT_MB} MB for code + layers)\n")
        for name, size in sorted(layers.values()):
            print(f"- layer {name}: {size:.1f}")
        for r in resources.values():
            props = r["Properties"]
            if r["Type"] != "AWS::Lambda::Function" or "FunctionName" not in props:
                continue
            code = size_mb(asset_of(props["Code"]))
            carried = [layers[ref["Ref"]] for ref in props.get("Layers", [])]
            total = code + sum(s for _, s in carried)
            parts = " + ".join([f"code {code:.1f}"] + [f"{n} {s:.1f}" for n, s in carried])
            print(f"- {props['FunctionName']}: {total:.1f} ({parts}); headroom {LIMIT_MB - total:.0f}")


if __name__ == "__main__":
    main(*sys.argv[1:2])
