"""The shop's console in the CDK app: a private bucket behind CloudFront (origin access control, HTTPS
only, security headers, the app's screens routed to its index.html), its config.json written at deploy
time, and the admin API's CORS and document uploads open to that origin only."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aws_cdk.assertions import Match
from infra.config import ContextError

from tests.infra.conftest import synth
from tests.infra.test_functions import _functions, _role_statements

CERT = "arn:aws:acm:us-east-1:123456789012:certificate/12345678-1234-1234-1234-123456789012"


def _one(t: Any, kind: str) -> dict[str, Any]:
    (resource,) = t.find_resources(kind).values()
    return dict(resource["Properties"])


def test_the_console_is_served_from_a_private_bucket_through_cloudfront_over_https(dev: Any) -> None:
    dist = _one(dev, "AWS::CloudFront::Distribution")["DistributionConfig"]
    behavior = dist["DefaultCacheBehavior"]
    assert behavior["ViewerProtocolPolicy"] == "redirect-to-https"
    assert behavior["AllowedMethods"] == ["GET", "HEAD"]
    assert behavior["Compress"] is True
    origins = dist["Origins"]  # the console's files, and the items' pictures (/pictures/*)
    assert len(origins) == 2
    for origin in origins:
        assert "OriginAccessControlId" in origin  # origin access control, not a public website bucket
        assert origin["S3OriginConfig"]["OriginAccessIdentity"] == ""
    for control in dev.find_resources("AWS::CloudFront::OriginAccessControl").values():
        oac = control["Properties"]["OriginAccessControlConfig"]
        assert oac["SigningBehavior"] == "always"
        assert oac["OriginAccessControlOriginType"] == "s3"
    buckets = dev.find_resources("AWS::S3::Bucket")
    files = next(b for lid, b in buckets.items() if lid.startswith("ConsoleFiles"))["Properties"]
    assert files["PublicAccessBlockConfiguration"] == {
        "BlockPublicAcls": True,
        "BlockPublicPolicy": True,
        "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True,
    }
    policies = [
        p["Properties"]["PolicyDocument"]["Statement"]
        for lid, p in dev.find_resources("AWS::S3::BucketPolicy").items()
        if lid.startswith("ConsoleFiles")
    ]
    [statements] = policies
    reads = [s for s in statements if s.get("Principal") == {"Service": "cloudfront.amazonaws.com"}]
    assert reads
    assert all("AWS:SourceArn" in json.dumps(s["Condition"]) for s in reads)  # this distribution only
    assert any(s["Effect"] == "Deny" and "aws:SecureTransport" in json.dumps(s) for s in statements)


def test_the_console_carries_security_headers(dev: Any) -> None:
    config = _one(dev, "AWS::CloudFront::ResponseHeadersPolicy")["ResponseHeadersPolicyConfig"]
    headers = config["SecurityHeadersConfig"]
    csp = json.dumps(headers["ContentSecurityPolicy"]["ContentSecurityPolicy"])  # joined with the region
    assert "default-src 'self'" in csp
    assert "script-src 'self';" in csp
    assert "frame-ancestors 'none'" in csp
    assert "https://cognito-idp." in csp
    assert headers["StrictTransportSecurity"]["AccessControlMaxAgeSec"] >= 31_536_000
    assert headers["FrameOptions"]["FrameOption"] == "DENY"
    assert headers["ContentTypeOptions"]["Override"] is True
    assert headers["ReferrerPolicy"]["ReferrerPolicy"] == "strict-origin-when-cross-origin"


def test_the_screens_of_the_app_are_its_index_and_the_root_goes_to_the_console(dev: Any) -> None:
    function = _one(dev, "AWS::CloudFront::Function")
    code = function["FunctionCode"]
    assert '"/console/index.html"' in code
    assert 'location: { value: "/console/" }' in code
    dist = _one(dev, "AWS::CloudFront::Distribution")["DistributionConfig"]
    [association] = dist["DefaultCacheBehavior"]["FunctionAssociations"]
    assert association["EventType"] == "viewer-request"


def test_the_built_console_and_its_config_are_deployed_under_console(dev: Any) -> None:
    deployment = _one(dev, "Custom::CDKBucketDeployment")
    assert deployment["DestinationBucketKeyPrefix"] == "console/"
    # what keeps its name when its content changes is fetched again after a deploy (the assets' names carry a hash)
    assert sorted(deployment["DistributionPaths"]) == [
        "/console/boot.js", "/console/config.json", "/console/index.html", "/console/sw.js",
    ]  # fmt: skip
    markers = json.dumps(deployment["SourceMarkers"])  # config.json's deploy-time values
    for token in ("StaffUsersAdminClient", "StaffUsers", "AWS::Region", "ApiEndpoint"):
        assert token in markers, token
    assert len(deployment["SourceObjectKeys"]) == 2  # the built app and config.json


def test_the_admin_api_and_document_uploads_accept_only_the_consoles_origin(dev: Any) -> None:
    cors = _one(dev, "AWS::ApiGatewayV2::Api")["CorsConfiguration"]
    [origin] = cors["AllowOrigins"]
    assert "https://" in json.dumps(origin)
    assert "DomainName" in json.dumps(origin)  # the distribution's own domain, nothing wider
    assert "*" not in json.dumps(origin)
    assert {"authorization", "content-type", "idempotency-key"} <= set(cors["AllowHeaders"])
    buckets = dev.find_resources("AWS::S3::Bucket")
    kb = next(b for lid, b in buckets.items() if lid.startswith("BucketsKnowledgeBase"))["Properties"]
    [rule] = kb["CorsConfiguration"]["CorsRules"]
    assert rule["AllowedMethods"] == ["PUT"]
    assert rule["AllowedOrigins"] == [origin]


def test_owners_invite_staff_into_the_stacks_pool_only(dev: Any) -> None:
    env = _functions(dev)["tulia-dev-admin"]["Environment"]["Variables"]
    assert "Ref" in env["TULIA_STAFF_USER_POOL_ID"]
    cognito = [s for s in _role_statements(dev, "tulia-dev-admin") if "cognito-idp:" in json.dumps(s["Action"])]
    [statement] = cognito
    assert set(statement["Action"]) == {
        "cognito-idp:AdminCreateUser",
        "cognito-idp:AdminAddUserToGroup",
        "cognito-idp:AdminGetUser",
        "cognito-idp:AdminDeleteUser",
        "cognito-idp:AdminUserGlobalSignOut",  # a removed person's refresh tokens revoked
    }
    assert "StaffUsers" in json.dumps(statement["Resource"])
    assert "*" not in json.dumps(statement["Resource"])


def test_a_console_domain_of_the_deployer_requires_tls_1_2() -> None:
    own = synth(stage="dev", consoleDomain="console.dukabora.example", consoleCertificateArn=CERT)
    dist = _one(own, "AWS::CloudFront::Distribution")["DistributionConfig"]
    assert dist["Aliases"] == ["console.dukabora.example"]
    assert dist["ViewerCertificate"]["MinimumProtocolVersion"] == "TLSv1.2_2021"
    own.has_resource_properties(
        "AWS::ApiGatewayV2::Api",
        {"CorsConfiguration": Match.object_like({"AllowOrigins": ["https://console.dukabora.example"]})},
    )


@pytest.mark.parametrize(
    ("context", "says"),
    [
        ({"consoleDomain": "console.dukabora.example"}, "'consoleDomain' and 'consoleCertificateArn' go together"),
        (
            {
                "consoleDomain": "console.dukabora.example",
                "consoleCertificateArn": CERT.replace("us-east-1", "eu-west-1"),
            },
            "in us-east-1",
        ),
        ({"consoleDomain": "Console!", "consoleCertificateArn": CERT}, "'consoleDomain' is 'Console!'"),
    ],
)
def test_a_bad_console_domain_stops_synthesis(context: dict[str, str], says: str) -> None:
    with pytest.raises(ContextError, match=says):
        synth(stage="dev", **context)


def test_embedded_signup_is_a_deploy_time_setting_that_opens_the_console_to_facebooks_sdk_only_when_set(
    dev: Any,
) -> None:
    """Issue 34, part 2: the app id and the signup configuration id come from context; the admin function gets
    them, and the console's policy lets the Facebook SDK and its login window in. Unset, neither."""
    plain = json.dumps(_one(dev, "AWS::CloudFront::ResponseHeadersPolicy"))
    assert "facebook" not in plain
    admin = next(
        f["Properties"]
        for f in dev.find_resources("AWS::Lambda::Function").values()
        if f["Properties"].get("FunctionName") == "tulia-dev-admin"
    )
    assert "TULIA_META_APP_ID" not in admin["Environment"]["Variables"]

    signup = synth(stage="dev", metaAppId="123456789012345", embeddedSignupConfigId="987654321098765")
    variables = next(
        f["Properties"]
        for f in signup.find_resources("AWS::Lambda::Function").values()
        if f["Properties"].get("FunctionName") == "tulia-dev-admin"
    )["Environment"]["Variables"]
    assert (variables["TULIA_META_APP_ID"], variables["TULIA_META_EMBEDDED_SIGNUP_CONFIG_ID"]) == (
        "123456789012345",
        "987654321098765",
    )
    csp = json.dumps(_one(signup, "AWS::CloudFront::ResponseHeadersPolicy"))
    assert "script-src 'self' https://connect.facebook.net;" in csp
    assert "frame-src https://www.facebook.com" in csp
    assert "frame-ancestors 'none'" in csp  # the console itself is still never framed


@pytest.mark.parametrize(
    ("context", "says"),
    [
        ({"metaAppId": "123456789012345"}, "go together"),
        ({"metaAppId": "my-app", "embeddedSignupConfigId": "987654321098765"}, "'metaAppId' is 'my-app'"),
    ],
)
def test_a_half_or_bad_embedded_signup_setting_stops_synthesis(context: dict[str, str], says: str) -> None:
    with pytest.raises(ContextError, match=says):
        synth(stage="dev", **context)
