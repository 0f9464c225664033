"""An appointment's reminders, through the real pipeline (signed webhooks, the agent, the outreach
worker, the Graph API simulator): the day before (outside WhatsApp's window, so the salon's
``booking_reminder`` template, whose quick reply moves it) and two hours before (inside the window: a
message with buttons); a moved booking is reminded of its new time only, each reminder once."""

from __future__ import annotations

import itertools
import time
from datetime import datetime
from typing import Any

from tests.conftest import SALON, Clock
from tests.integration.test_broadcasts import world  # noqa: F401 - the fixture
from tests.integration.test_reaching_customers import shown
from tests.integration.test_webhook import SALON_NUMBER, text_message, value
from tulia.domain.common import NAIROBI
from tulia.services import Services

PHONE = "254711000701"
_mid = itertools.count(1)


def say(scene: dict[str, Any], words: str) -> None:
    scene["pipe"].customer_sends(
        value(text_message(words, mid=f"wamid.rem{next(_mid)}", sender=PHONE), number=SALON_NUMBER, wa_id=PHONE)
    )
    scene["pipe"].run_agent()


def tap(scene: dict[str, Any], reply_id: str, title: str, *, kind: str = "button_reply") -> None:
    message = {
        "from": PHONE,
        "id": f"wamid.rem{next(_mid)}",
        "timestamp": str(int(time.time())),
        "type": "interactive",
        "interactive": {"type": kind, kind: {"id": reply_id, "title": title}},
    }
    scene["pipe"].customer_sends(value(message, number=SALON_NUMBER, wa_id=PHONE))
    scene["pipe"].run_agent()


def quick_reply(scene: dict[str, Any], text: str) -> None:
    """A template's quick reply button: Meta sends its text as the payload."""
    message = {
        "from": PHONE,
        "id": f"wamid.rem{next(_mid)}",
        "timestamp": str(int(time.time())),
        "type": "button",
        "button": {"text": text, "payload": text},
    }
    scene["pipe"].customer_sends(value(message, number=SALON_NUMBER, wa_id=PHONE))
    scene["pipe"].run_agent()


def sent_since(scene: dict[str, Any], before: int) -> list[dict[str, Any]]:
    return [m.payload for m in scene["pipe"].graph.sent[before:]]


def test_reminders_the_day_before_by_template_and_two_hours_before_with_buttons(
    world: dict[str, Any],  # noqa: F811
    clock: Clock,
    seeded: Services,
) -> None:
    graph = world["pipe"].graph
    say(world, "A kids haircut on Saturday at 3pm please")
    say(world, "yes")
    assert shown(graph, graph.sent[-1].payload).startswith("Booked! Kids' Haircut, Sat 28 Nov at 15:00 with Wanjiru.")
    queued = world["outreach"].run(rounds=2)  # not due yet: each goes back to wait
    assert sorted(q["which"] for q in queued if q["kind"] == "booking_reminder") == ["day_before", "hours_before"]
    before = len(graph.sent)
    clock.now = datetime(2026, 11, 27, 13, 1, tzinfo=NAIROBI)  # 26 hours before (still movable), days after
    world["outreach"].run(rounds=3)
    [reminder] = sent_since(world, before)
    assert reminder["type"] == "template"
    assert reminder["template"]["name"] == "booking_reminder"
    assert shown(graph, reminder) == (
        "Hello Wanjiku, a reminder of your appointment: Kids' Haircut, Sat 28 Nov at 15:00 with Wanjiru. Tap a "
        "button if you need to change it."
    )
    world["outreach"].run(rounds=3)
    assert len(graph.sent) == before + 1  # once

    # the template's "Change time": the nearest free times that day, a row tapped, the booking moved
    before = len(graph.sent)
    quick_reply(world, "Change time")
    [offered] = sent_since(world, before)
    assert offered["type"] == "interactive"
    rows = offered["interactive"]["action"]["sections"][0]["rows"]
    assert "Moving your Kids' Haircut (Sat 28 Nov at 15:00)" in offered["interactive"]["body"]["text"]
    sixteen = next(r for r in rows if r["title"] == "Sat 28 Nov 16:00")
    tap(world, sixteen["id"], sixteen["title"], kind="list_reply")
    assert shown(graph, graph.sent[-1].payload).startswith("Done: your Kids' Haircut is now Sat 28 Nov at 16:00")
    [booking] = seeded.bookings.list_for_customer(SALON, _customer(seeded), since=datetime(2026, 1, 1, tzinfo=NAIROBI))
    assert booking.start.astimezone(NAIROBI).hour == 16

    # two hours before the old time: nothing (the booking moved); two hours before the new one: buttons
    before = len(graph.sent)
    clock.now = datetime(2026, 11, 28, 13, 1, tzinfo=NAIROBI)
    world["outreach"].run(rounds=4)
    assert sent_since(world, before) == []
    clock.now = datetime(2026, 11, 28, 9, 0, tzinfo=NAIROBI)  # the customer checks in the morning
    say(world, "when is my appointment?")
    assert shown(graph, graph.sent[-1].payload).startswith("Your booking BK-")
    assert "Sat 28 Nov at 16:00 with Wanjiru" in shown(graph, graph.sent[-1].payload)
    before = len(graph.sent)
    clock.now = datetime(2026, 11, 28, 14, 1, tzinfo=NAIROBI)
    world["outreach"].run(rounds=4)
    [soon] = sent_since(world, before)
    assert soon["type"] == "interactive"  # the customer wrote within 24 hours: free-form with buttons
    assert soon["interactive"]["body"]["text"] == (
        "A reminder of your appointment: Kids' Haircut, Sat 28 Nov at 16:00 with Wanjiru."
    )
    assert [b["reply"]["title"] for b in soon["interactive"]["action"]["buttons"]] == [
        "I'll be there",
        "Change time",
        "Cancel booking",
    ]
    coming = soon["interactive"]["action"]["buttons"][0]["reply"]
    tap(world, coming["id"], coming["title"])
    assert shown(graph, graph.sent[-1].payload) == "Thank you! See you Sat 28 Nov at 16:00."


def test_a_cancelled_booking_is_not_reminded(
    world: dict[str, Any],  # noqa: F811
    clock: Clock,
    seeded: Services,
) -> None:
    graph = world["pipe"].graph
    say(world, "A kids haircut on Saturday at 3pm please")
    say(world, "yes")
    say(world, "cancel my booking")
    say(world, "yes")
    assert shown(graph, graph.sent[-1].payload).startswith("Booking BK-")
    before = len(graph.sent)
    clock.now = datetime(2026, 11, 28, 13, 30, tzinfo=NAIROBI)
    world["outreach"].run(rounds=4)
    assert sent_since(world, before) == []


def _customer(seeded: Services) -> str:
    return str(seeded.customers.find_id_by_phone(SALON, f"+{PHONE}"))
