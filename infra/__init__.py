"""The AWS CDK v2 app that deploys Tulia (``cdk synth`` / ``cdk deploy --context stage=dev``)."""
