"""The parts of staff alerts that need no stack: quiet hours across midnight, the alert's words in both console
languages, which endpoints a device may name, and the push service stand-in refusing what a real one would."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from tulia.channel.webpush import VapidKey, WebPushSender, b64url, check_endpoint, encrypt
from tulia.domain.alerts import AlertPreferences, alert_words, handoff_alert, kinds_for_role
from tulia.domain.common import NAIROBI
from tulia.errors import InvalidInput
from tulia.local.simulators.push import PushService


def at(hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 11, 27, hour, minute, tzinfo=NAIROBI)


def test_quiet_hours_cross_midnight_and_can_be_turned_off() -> None:
    night = AlertPreferences(quiet_hours="21:00-07:00")
    assert [night.quiet_at(at(h)) for h in (20, 21, 23, 0, 6)] == [False, True, True, True, True]
    assert night.quiet_at(at(7)) is False
    lunch = AlertPreferences(quiet_hours=" 13:00 - 14:00 ")
    assert (lunch.quiet_hours, lunch.quiet_at(at(13, 30)), lunch.quiet_at(at(14))) == ("13:00-14:00", True, False)
    assert AlertPreferences(quiet_hours=None).quiet_at(at(23)) is False
    with pytest.raises(ValidationError, match="HH:MM-HH:MM"):
        AlertPreferences(quiet_hours="9pm-7am")


def test_a_number_is_a_phone_number_and_agents_are_not_told_of_money_without_an_order() -> None:
    assert AlertPreferences(whatsapp_number="0712 345 678").whatsapp_number == "+254712345678"
    with pytest.raises(ValidationError):
        AlertPreferences(whatsapp_number="call me")
    assert "unmatched_payment" in kinds_for_role("owner")
    assert "unmatched_payment" not in kinds_for_role("agent")


def test_the_words_of_an_alert_in_english_and_swahili() -> None:
    alert = handoff_alert("demo-shop", "HND-ABCDE", None, at(10))
    assert alert_words(alert, "en") == (
        "A customer is waiting for a person",
        "Asked to talk to a person. Open the chat (HND-ABCDE).",
    )
    assert alert_words(alert, "sw")[0] == "Mteja anasubiri mtu"


def test_a_device_must_name_a_push_service() -> None:
    hosts = ("fcm.googleapis.com", "push.apple.com")
    assert check_endpoint("https://fcm.googleapis.com/fcm/send/abc", hosts)
    assert check_endpoint("https://web.push.apple.com/QGu", hosts)  # a subdomain of a listed host
    for endpoint in (
        "http://fcm.googleapis.com/fcm/send/abc",  # not HTTPS
        "https://fcm.googleapis.com.evil.example/x",
        "https://169.254.169.254/latest/meta-data",
        "http://127.0.0.1:9/push/x",  # loopback only when listed
    ):
        with pytest.raises(InvalidInput):
            check_endpoint(endpoint, hosts)


def send_raw(push: PushService, subscription: dict[str, Any], headers: dict[str, str], body: bytes) -> int:
    return httpx.post(subscription["endpoint"], content=body, headers=headers, timeout=5).status_code


def test_the_push_service_stand_in_refuses_what_a_real_one_would() -> None:
    key, other = VapidKey.generate(), VapidKey.generate()
    with PushService() as push:
        device = push.subscribe()
        keys = device["keys"]
        body = encrypt(b'{"title": "x"}', keys["p256dh"], keys["auth"])
        now = datetime.now(NAIROBI)
        good = {
            "Authorization": key.authorization(device["endpoint"], now),
            "Content-Encoding": "aes128gcm",
            "TTL": "60",
        }
        # signed by one key, presented with another's public key
        forged = good["Authorization"].rsplit("k=", 1)[0] + "k=" + other.public_key
        assert send_raw(push, device, {**good, "Authorization": forged}, body) == 401
        elsewhere = key.authorization("https://fcm.googleapis.com/x", now)  # a token for another push service
        assert send_raw(push, device, {**good, "Authorization": elsewhere}, body) == 401
        assert send_raw(push, device, {**good, "Content-Encoding": "aesgcm"}, body) == 400
        someone_else = push.subscribe()["keys"]
        assert send_raw(push, device, good, encrypt(b"{}", someone_else["p256dh"], someone_else["auth"])) == 400
        assert push.received == []
        assert send_raw(push, device, good, body) == 201
        assert push.messages_to(device) == [{"title": "x"}]
        sender = WebPushSender(httpx.Client(timeout=5), key, ("127.0.0.1",))
        assert sender.send(device["endpoint"], keys["p256dh"], keys["auth"], {"title": "y"}) == 201
        assert push.messages_to(device)[-1] == {"title": "y"}
        assert b64url(b"\xff\xfe") == "__4"


def test_our_encryption_is_rfc_8291s_worked_example_and_reads_with_mozillas_http_ece() -> None:
    import http_ece
    from cryptography.hazmat.primitives.asymmetric import ec

    from tulia.channel.webpush import b64url_decode

    def private(raw: str) -> ec.EllipticCurvePrivateKey:
        return ec.derive_private_key(int.from_bytes(b64url_decode(raw), "big"), ec.SECP256R1())

    # RFC 8291, Appendix A: the same keys, salt and secret give exactly the RFC's message
    sender = private("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")
    device_public = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    auth = "BTBZMqHH6r4Tts7J_aSIgg"
    salt = b64url_decode("DGv6ra1nlYgDCS1FRnbzlw")
    message = encrypt(b"When I grow up, I want to be a watermelon", device_public, auth, sender=sender, salt=salt)
    assert b64url(message) == (
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK"
        "6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    )
    # and any message of ours decrypts with Mozilla's implementation, given the device's private key
    device = private("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94")
    words = "Wanjiku anasubiri mtu: KES 2,500 ✓".encode()
    ours = encrypt(words, device_public, auth)
    assert http_ece.decrypt(ours, private_key=device, auth_secret=b64url_decode(auth), version="aes128gcm") == words


def test_the_local_stacks_push_key_is_kept_in_its_data_directory(tmp_path: Any) -> None:
    from types import SimpleNamespace

    from tulia.local.stack import local_vapid_key

    journal = SimpleNamespace(directory=tmp_path / "data")  # not made yet: the stack makes it later
    first = local_vapid_key(journal).get_secret_value()
    assert local_vapid_key(journal).get_secret_value() == first  # devices subscribed before a restart still work
    assert (tmp_path / "data" / "webpush-vapid.key").stat().st_mode & 0o077 == 0  # the owner's only
    assert local_vapid_key(None).get_secret_value() != first  # no data directory: a key for this run
    assert len(VapidKey(first).public_key) == 87
