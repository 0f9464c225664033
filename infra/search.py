"""OpenSearch Serverless: the vector-search collection of the knowledge base.

Encrypted with an AWS-owned key; reachable over HTTPS with SigV4 (the functions run outside a VPC),
no dashboards; the data-access policy names only the agent's (read), the admin's (read, delete a
tenant's documents) and the ingestion function's (create indexes, write) roles. Retrieval is
tenant-filtered in code (a ``tenant_id`` term filter the adapter always adds).
"""

from __future__ import annotations

import json

from aws_cdk import Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_opensearchserverless as aoss
from constructs import Construct

from infra.config import StageConfig

READ = ["aoss:ReadDocument", "aoss:DescribeIndex"]
WRITE = [*READ, "aoss:WriteDocument"]
MANAGE = [*WRITE, "aoss:CreateIndex", "aoss:UpdateIndex"]


class KnowledgeSearch(Construct):
    def __init__(
        self,
        scope: Construct,
        cid: str,
        *,
        config: StageConfig,
        readers: list[lambda_.Function],
        writers: list[lambda_.Function],
        indexers: list[lambda_.Function],
    ) -> None:
        super().__init__(scope, cid)
        name = config.name("kb")  # 3-32 lowercase characters
        resource = [f"collection/{name}"]
        encryption = aoss.CfnSecurityPolicy(
            self,
            "Encryption",
            name=f"{name}-enc",
            type="encryption",
            policy=json.dumps({"Rules": [{"ResourceType": "collection", "Resource": resource}], "AWSOwnedKey": True}),
        )
        network = aoss.CfnSecurityPolicy(
            self,
            "Network",
            name=f"{name}-net",
            type="network",
            policy=json.dumps(
                [{"Rules": [{"ResourceType": "collection", "Resource": resource}], "AllowFromPublic": True}]
            ),
        )
        self.collection = aoss.CfnCollection(
            self,
            "Collection",
            name=name,
            type="VECTORSEARCH",
            standby_replicas="ENABLED" if config.retain_data else "DISABLED",
            description=f"Tulia knowledge base ({config.stage}): chunks of every tenant, filtered by tenant_id",
        )
        self.collection.node.add_dependency(encryption)
        self.collection.node.add_dependency(network)

        def rule(functions: list[lambda_.Function], permissions: list[str], what: str) -> dict[str, object]:
            return {
                "Description": what,
                "Rules": [
                    {
                        "ResourceType": "collection",
                        "Resource": resource,
                        "Permission": ["aoss:DescribeCollectionItems"],
                    },
                    {"ResourceType": "index", "Resource": [f"index/{name}/*"], "Permission": permissions},
                ],
                "Principal": [fn.role.role_arn for fn in functions if fn.role is not None],
            }

        aoss.CfnAccessPolicy(
            self,
            "DataAccess",
            name=f"{name}-access",
            type="data",
            policy=Stack.of(self).to_json_string(  # resolves the role ARNs inside the JSON
                [
                    rule(readers, READ, "agent: retrieval"),
                    rule(writers, WRITE, "admin: delete a tenant's documents, try a question"),
                    rule(indexers, MANAGE, "kb_ingest: create the index, write chunks"),
                ]
            ),
        )
        for fn in (*readers, *writers, *indexers):
            fn.add_to_role_policy(
                iam.PolicyStatement(actions=["aoss:APIAccessAll"], resources=[self.collection.attr_arn])
            )
            fn.add_environment("TULIA_OPENSEARCH_ENDPOINT", self.collection.attr_collection_endpoint)
