"""The shop's console in the local stack, at ``/console/``: the built single-page app (``console/dist``,
``make console``), its run-time settings (``/console/config.json``: the staff user pool it signs in
to), and a same-origin door to the local Cognito stand-in (``/console/cognito``), so the console
needs only the stack's one origin (a port forward or tunnel to a phone carries all of it). In AWS,
CloudFront serves the same files and the console talks to Cognito directly."""

from __future__ import annotations

import base64
import gzip
import json
import mimetypes
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import httpx

from tulia.admin.auth import TENANT_CLAIM
from tulia.local.auth import LocalPool, cognito
from tulia.local.mailbox import DevMailbox
from tulia.pipeline.apigw import HttpRequest, request_of

PREFIX = "/console"
COGNITO_PATH = f"{PREFIX}/cognito"
CONFIG_PATH = f"{PREFIX}/config.json"
MAILBOX_PATH = "/dev/mailbox"  # the emails of the local stack (sign-up codes): a page, or JSON with ?to=
DEFAULT_DIST = Path(__file__).resolve().parents[3] / "console" / "dist"
NOT_BUILT = (
    "<!doctype html><title>Tulia console</title><h1>The console is not built</h1>"
    "<p>Build it with <code>make console</code> (or start the stack with <code>make dev</code>), then reload.</p>"
)
NO_STORE = {"cache-control": "no-store"}
NO_CACHE = {"cache-control": "no-cache"}
TokenTrigger = Callable[[dict[str, Any]], dict[str, Any]]  # Cognito's pre token generation event in, out
FORWARDED = ("content-type", "x-amz-target", "x-amz-user-agent", "cache-control")
# what CloudFront compresses for the console (its distribution has compress on): text, not images
COMPRESSIBLE = (".js", ".css", ".html", ".json", ".svg", ".webmanifest", ".txt", ".map")


def response(status: int, body: bytes, content_type: str, **headers: str) -> dict[str, Any]:
    return {
        "statusCode": status,
        "headers": {"content-type": content_type, **headers},
        "body": base64.b64encode(body).decode(),
        "isBase64Encoded": True,
    }


class ConsoleSite:
    def __init__(
        self,
        pool: LocalPool,
        http: httpx.Client,
        dist: Path | None = None,
        *,
        mailbox: DevMailbox | None = None,
        token_trigger: TokenTrigger | None = None,
    ) -> None:
        self.pool = pool
        self.http = http
        self.mailbox = mailbox or DevMailbox()
        self.token_trigger = token_trigger
        self.dist = (dist or DEFAULT_DIST).resolve()
        self._gzipped: dict[tuple[Path, float], bytes] = {}

    @property
    def built(self) -> bool:
        return (self.dist / "index.html").is_file()

    def config(self) -> dict[str, Any]:
        return {
            "region": self.pool.region,
            "userPoolId": self.pool.user_pool_id,
            "userPoolClientId": self.pool.client_id,
            "userPoolEndpoint": COGNITO_PATH,  # relative: the console resolves it against its own origin
            "apiBase": "",
            "authFlow": "USER_PASSWORD_AUTH",  # moto's Cognito has no SRP
        }

    def handle(self, event: dict[str, Any]) -> dict[str, Any]:
        request = request_of(event)
        path, method = request.path, request.method
        if path == PREFIX:
            return {"statusCode": 301, "headers": {"location": f"{PREFIX}/"}, "body": ""}
        if path == COGNITO_PATH:
            return self._cognito(request) if method == "POST" else response(405, b"", "text/plain")
        if method not in ("GET", "HEAD"):
            return response(405, b"", "text/plain")
        if path == CONFIG_PATH:
            return response(
                200, json.dumps(self.config()).encode(), "application/json", **{"cache-control": "no-store"}
            )
        if not self.built:
            return response(503, NOT_BUILT.encode(), "text/html; charset=utf-8")
        relative = path[len(PREFIX) + 1 :]
        target = (self.dist / relative).resolve() if relative else self.dist / "index.html"
        if not target.is_relative_to(self.dist):
            return response(404, b"", "text/plain")
        if target.is_file():
            kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
            cache = "public, max-age=31536000, immutable" if "/assets/" in path else "no-cache"
            return self._file(request, target, kind, cache)
        if "." in Path(relative).name:
            return response(404, b"", "text/plain")  # a missing file, not a screen of the app
        return self._file(request, self.dist / "index.html", "text/html; charset=utf-8", "no-cache")

    def mailbox_page(self, event: dict[str, Any]) -> dict[str, Any]:
        request = request_of(event)
        if "to" in request.params or request.params.get("format") == "json":
            mails = self.mailbox.mails(request.params.get("to") or None)
            return response(200, json.dumps({"mails": mails}).encode(), "application/json", **NO_STORE)
        return response(200, self.mailbox.page().encode(), "text/html; charset=utf-8", **NO_STORE)

    def _file(self, request: HttpRequest, target: Path, kind: str, cache: str) -> dict[str, Any]:
        """The file, gzipped when the browser takes it and it is text, as CloudFront sends it in AWS."""
        headers = {"cache-control": cache}
        body = target.read_bytes()
        if target.suffix in COMPRESSIBLE:
            headers["vary"] = "accept-encoding"
            if "gzip" in request.headers.get("accept-encoding", ""):
                key = (target, target.stat().st_mtime)
                if key not in self._gzipped:
                    self._gzipped[key] = gzip.compress(body, compresslevel=6)
                body = self._gzipped[key]
                headers["content-encoding"] = "gzip"
        return response(200, body, kind, **headers)

    def _cognito(self, request: HttpRequest) -> dict[str, Any]:
        target = request.headers.get("x-amz-target", "")
        action = target.rpartition(".")[2]
        if action == "RevokeToken":
            # signing out revokes the refresh token; moto has no RevokeToken (its tokens cannot be revoked),
            # so the stand-in accepts it as Cognito would, and the browser drops its tokens
            return response(200, b"{}", "application/x-amz-json-1.1")
        body = json.loads(request.body or b"{}")
        if action == "ConfirmSignUp":  # moto takes any code: the stand-in checks the one it mailed
            username = str(body.get("Username", ""))
            if not self.mailbox.code_matches(username, str(body.get("ConfirmationCode", ""))):
                return _cognito_error("CodeMismatchException", "Invalid verification code provided, please try again.")
        if action == "ResendConfirmationCode":
            username = str(body.get("Username", ""))
            self.mailbox.new_code(username)
            return _cognito_json(200, {"CodeDeliveryDetails": _delivery(username)})
        headers = {k: v for k, v in request.headers.items() if k in FORWARDED}
        content = request.body
        if action == "GetTokensFromRefreshToken":  # how the console renews its tokens; moto knows only the older way
            headers["x-amz-target"] = target.replace(action, "InitiateAuth")
            content = json.dumps(
                {
                    "ClientId": body.get("ClientId"),
                    "AuthFlow": "REFRESH_TOKEN_AUTH",
                    "AuthParameters": {"REFRESH_TOKEN": body.get("RefreshToken")},
                }
            ).encode()
        answer = self.http.post(f"{self.pool.endpoint}/", content=content, headers=headers)
        if answer.status_code != 200:
            return response(
                answer.status_code, answer.content, answer.headers.get("content-type", "application/x-amz-json-1.1")
            )
        result = answer.json() if answer.content else {}
        if action == "SignUp":  # as Cognito does with email verification on: a code is mailed
            username = str(body.get("Username", ""))
            self.mailbox.new_code(username)
            result["CodeDeliveryDetails"] = _delivery(username)
        elif action == "ConfirmSignUp":  # and the address is verified
            username = str(body.get("Username", ""))
            self.mailbox.used(username)
            cognito(self.pool.endpoint, self.pool.region).admin_update_user_attributes(
                UserPoolId=self.pool.user_pool_id,
                Username=username,
                UserAttributes=[{"Name": "email_verified", "Value": "true"}],
            )
        elif isinstance(result.get("AuthenticationResult"), dict) and self.token_trigger is not None:
            tokens = result["AuthenticationResult"]
            if tokens.get("IdToken"):
                tokens["IdToken"] = with_trigger(str(tokens["IdToken"]), self.token_trigger)
        return _cognito_json(200, result)


def _cognito_json(status: int, body: dict[str, Any]) -> dict[str, Any]:
    return response(status, json.dumps(body).encode(), "application/x-amz-json-1.1")


def _cognito_error(kind: str, message: str) -> dict[str, Any]:
    return _cognito_json(400, {"__type": kind, "message": message})


def _delivery(email: str) -> dict[str, str]:
    name, _, domain = email.partition("@")
    return {"Destination": f"{name[:1]}***@{domain[:1]}***", "DeliveryMedium": "EMAIL", "AttributeName": "email"}


@cache
def _pool_key() -> Any:
    """The key the local Cognito (moto) signs its tokens with: a token changed by the trigger is signed again with
    it, so the stack's token check (moto's published keys) accepts it as it would the original."""
    from joserfc import jwk
    from moto.utilities.utils import load_resource

    return jwk.RSAKey.import_key(load_resource("cognitoidp/resources/jwks-private.json"))


def with_trigger(id_token: str, trigger: TokenTrigger) -> str:
    """The ID token as Cognito issues it with the pool's pre token generation trigger attached: the trigger's
    event built from the token's claims, its claims and groups applied, the token signed again."""
    from joserfc import jwt

    token = jwt.decode(id_token, _pool_key())
    header, claims = token.header, dict(token.claims)
    attributes = {k: str(v) for k, v in claims.items() if k in ("sub", "email", "email_verified", "name", TENANT_CLAIM)}
    event = {
        "version": "1",
        "triggerSource": "TokenGeneration_Authentication",
        "request": {
            "userAttributes": attributes,
            "groupConfiguration": {"groupsToOverride": list(claims.get("cognito:groups") or [])},
        },
        "response": {"claimsOverrideDetails": None},
    }
    changes = (trigger(event).get("response") or {}).get("claimsOverrideDetails")
    if not changes:
        return id_token
    claims.update(changes.get("claimsToAddOrOverride") or {})
    groups = (changes.get("groupOverrideDetails") or {}).get("groupsToOverride")
    if groups is not None:
        claims["cognito:groups"] = list(groups)
    return str(jwt.encode({"kid": header.get("kid", "dummy"), "alg": "RS256"}, claims, _pool_key()))
