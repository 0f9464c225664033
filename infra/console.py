"""The shop's console in AWS: the built single-page app (console/dist, ``make console``) in a private
S3 bucket behind CloudFront with origin access control, HTTPS only, security headers and a small
viewer-request function for the app's screens; its run-time settings (``/console/config.json``: the
staff user pool, the admin API's URL) written beside it at deploy time.

The console lives under ``/console/`` as it does in ``tulia dev``; ``/`` redirects there. The admin
API's CORS and the knowledge-base bucket's upload CORS name exactly this distribution's origin."""

from __future__ import annotations

from pathlib import Path

from aws_cdk import Duration, RemovalPolicy, Stack
from aws_cdk import aws_certificatemanager as acm
from aws_cdk import aws_cloudfront as cloudfront
from aws_cdk import aws_cloudfront_origins as origins
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_s3_deployment as deployment
from constructs import Construct

from infra.config import StageConfig

DIST = Path(__file__).resolve().parents[1] / "console" / "dist"
PREFIX = "console"

# Screens of the app are its index.html; files (with an extension) are served as they are.
ROUTING = """function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri === "/" || uri === "/console") {
    return { statusCode: 302, statusDescription: "Found", headers: { location: { value: "/console/" } } };
  }
  if (uri.indexOf("/console/") === 0 && uri.split("/").pop().indexOf(".") === -1) {
    request.uri = "/console/index.html";
  }
  return request;
}"""


class Console(Construct):
    def __init__(
        self,
        scope: Construct,
        cid: str,
        *,
        config: StageConfig,
        logs_bucket: s3.IBucket,
        pictures: s3.IBucket,
        settings: dict[str, str],
        api_origin: str,
        built: bool = True,
    ) -> None:
        """``settings``: the console's config.json; ``api_origin``: what the page may call besides its
        own origin and Cognito (the admin API); ``built``: whether console/dist must exist (an offline
        template check does not build it)."""
        super().__init__(scope, cid)
        region = Stack.of(self).region
        self.bucket = s3.Bucket(
            self,
            "Files",
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            encryption=s3.BucketEncryption.S3_MANAGED,
            enforce_ssl=True,
            removal_policy=RemovalPolicy.DESTROY,  # built files only: `make console` makes them again
            auto_delete_objects=True,
            server_access_logs_bucket=logs_bucket,
            server_access_logs_prefix="console/",
        )
        csp = "; ".join(
            [
                "default-src 'self'",
                # Meta's Embedded Signup: the Facebook SDK and its login window (when the stage has it)
                "script-src 'self'" + (" https://connect.facebook.net" if config.meta_app_id else ""),
                "style-src 'self' 'unsafe-inline'",  # the component library sets style attributes
                "img-src 'self' data:",
                "font-src 'self' data:",
                f"connect-src 'self' {api_origin} https://cognito-idp.{region}.amazonaws.com "
                f"https://s3.{region}.amazonaws.com"  # document uploads: presigned PUTs, path style
                + (" https://graph.facebook.com https://www.facebook.com" if config.meta_app_id else ""),
                "frame-ancestors 'none'",
                *(
                    ["frame-src https://www.facebook.com https://web.facebook.com https://staticxx.facebook.com"]
                    if config.meta_app_id
                    else []
                ),
                "base-uri 'self'",
                "form-action 'self'",
                "object-src 'none'",
            ]
        )
        headers = cloudfront.ResponseHeadersPolicy(
            self,
            "SecurityHeaders",
            response_headers_policy_name=config.name("console-headers"),
            security_headers_behavior=cloudfront.ResponseSecurityHeadersBehavior(
                content_security_policy=cloudfront.ResponseHeadersContentSecurityPolicy(
                    content_security_policy=csp, override=True
                ),
                strict_transport_security=cloudfront.ResponseHeadersStrictTransportSecurity(
                    access_control_max_age=Duration.days(365), include_subdomains=True, preload=True, override=True
                ),
                content_type_options=cloudfront.ResponseHeadersContentTypeOptions(override=True),
                frame_options=cloudfront.ResponseHeadersFrameOptions(
                    frame_option=cloudfront.HeadersFrameOption.DENY, override=True
                ),
                referrer_policy=cloudfront.ResponseHeadersReferrerPolicy(
                    referrer_policy=cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override=True
                ),
                xss_protection=cloudfront.ResponseHeadersXSSProtection(protection=True, mode_block=True, override=True),
            ),
        )
        routing = cloudfront.Function(
            self,
            "Routing",
            function_name=config.name("console-routing"),
            code=cloudfront.FunctionCode.from_inline(ROUTING),
            runtime=cloudfront.FunctionRuntime.JS_2_0,
            comment="/ -> /console/; the console's screens -> its index.html",
        )
        custom_domain: dict[str, object] = {}
        if config.console_domain and config.console_certificate_arn:
            custom_domain = {
                "domain_names": [config.console_domain],
                "certificate": acm.Certificate.from_certificate_arn(
                    self, "Certificate", config.console_certificate_arn
                ),
                "minimum_protocol_version": cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
            }
        self.distribution = cloudfront.Distribution(
            self,
            "Distribution",
            comment=f"Tulia console ({config.stage})",
            default_behavior=cloudfront.BehaviorOptions(
                origin=origins.S3BucketOrigin.with_origin_access_control(self.bucket),
                viewer_protocol_policy=cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
                allowed_methods=cloudfront.AllowedMethods.ALLOW_GET_HEAD,
                cache_policy=cloudfront.CachePolicy.CACHING_OPTIMIZED,
                response_headers_policy=headers,
                compress=True,
                function_associations=[
                    cloudfront.FunctionAssociation(
                        function=routing, event_type=cloudfront.FunctionEventType.VIEWER_REQUEST
                    )
                ],
            ),
            **custom_domain,
            http_version=cloudfront.HttpVersion.HTTP2_AND_3,
            price_class=cloudfront.PriceClass.PRICE_CLASS_100,
            enable_logging=True,
            log_bucket=logs_bucket,
            log_file_prefix="console-cdn/",
        )
        # items' pictures (keys pictures/<tenant_id>/...): public, cached, as WhatsApp and the console fetch them
        self.distribution.add_behavior(
            "/pictures/*",
            origins.S3BucketOrigin.with_origin_access_control(pictures),
            viewer_protocol_policy=cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
            allowed_methods=cloudfront.AllowedMethods.ALLOW_GET_HEAD,
            cache_policy=cloudfront.CachePolicy.CACHING_OPTIMIZED,
            response_headers_policy=headers,
            compress=False,  # pictures are compressed already
        )
        self.origin = f"https://{config.console_domain or self.distribution.distribution_domain_name}"
        files = (
            [deployment.Source.asset(str(DIST))]
            if built or DIST.is_dir()
            else [deployment.Source.data("index.html", "<!doctype html><title>Tulia console</title>")]
        )
        deployment.BucketDeployment(
            self,
            "Deploy",
            sources=[*files, deployment.Source.json_data("config.json", settings)],
            destination_bucket=self.bucket,
            destination_key_prefix=f"{PREFIX}/",
            distribution=self.distribution,
            # the files whose names do not change with their content (the built assets' names carry a hash)
            distribution_paths=[f"/{PREFIX}/{name}" for name in ("index.html", "config.json", "boot.js", "sw.js")],
            memory_limit=256,
        )
