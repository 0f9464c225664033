"""Try the bot (issue 34, part 5): the shop's owner chats with her shop's own engine as a test customer, from the
console, before going live or at any time after. The replies come back as a phone would show them, with the turn's
trace (nodes, routing, tools with latency, model calls); nothing is sent on WhatsApp and no money moves: an M-Pesa
prompt or card checkout is simulated and said so (``tulia.pipeline.trial``, given as ``AdminDeps.trial``). Owner
only."""

from __future__ import annotations

import uuid
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints, model_validator

from tulia.admin.common import AdminDeps, Deps, Owner, View, admin_router
from tulia.errors import ProviderUnavailable

router = admin_router()
TRY_PATH = "/admin/try"


class TrialSay(View):
    text: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=4096)] | None = Field(
        default=None, description="What the test customer types"
    )
    reply_id: Annotated[str, StringConstraints(min_length=1, max_length=256)] | None = Field(
        default=None, description="A button or list row the test customer taps: its id..."
    )
    reply_title: Annotated[str, StringConstraints(min_length=1, max_length=72)] | None = Field(
        default=None, description="...and its title"
    )

    @model_validator(mode="after")
    def _one(self) -> TrialSay:
        if (self.text is None) == (self.reply_id is None) or (self.reply_id is None) != (self.reply_title is None):
            raise ValueError("send text, or the reply_id and reply_title of a button or row")
        return self


class TrialChoice(View):
    id: str
    title: str
    description: str | None = None


class TrialReply(View):
    kind: Literal["text", "buttons", "list"]
    body: str
    header: str | None = None
    footer: str | None = None
    choices: list[TrialChoice]
    list_button: str | None = None


class TrialAnswer(View):
    customer: str = Field(description="The test customer's number (+999: no WhatsApp user has it)")
    replies: list[TrialReply]
    trace: list[dict[str, Any]]
    simulated: list[str] = Field(description="What would have happened for real (a prompt sent, a checkout opened)")


class TrialForgotten(View):
    forgotten: bool


def _trial(deps: AdminDeps) -> Any:
    if deps.trial is None:
        raise ProviderUnavailable("Trying the bot is not set up on this server.", code="trial_off")
    return deps.trial


@router.post(TRY_PATH, tags=["shop"], summary="Say something to your shop's bot as a test customer")
def say(body: TrialSay, who: Owner, deps: Deps) -> TrialAnswer:
    message_id = f"trial-{uuid.uuid4().hex[:16]}"
    if body.text is not None:
        inbound: dict[str, Any] = {"type": "text", "text": body.text, "reply_id": None, "message_id": message_id}
    else:
        inbound = {"type": "interactive", "text": body.reply_title, "reply_id": body.reply_id, "message_id": message_id}
    turn = _trial(deps).turn(who.tenant_id, who.subject, inbound)
    if deps.stats is not None:  # the model's cost counts; the test customer is nobody's conversation
        deps.stats.record_trial(who.tenant_id, at=deps.services.clock(), trace=turn.result.trace)
    simulated = [
        f"M-Pesa prompt of KES {p['amount']:,} for {p['account']}: simulated, nothing was sent to a phone."
        for p in turn.prompts
    ] + [
        f"Card checkout of KES {c['amount']:,} for {c['reference']}: simulated, no payment page was opened."
        for c in turn.checkouts
    ]
    return TrialAnswer(
        customer=turn.customer,
        replies=[
            TrialReply(
                kind=m.kind,
                body=m.body,
                header=m.header,
                footer=m.footer,
                choices=[TrialChoice(id=c.id, title=c.title, description=c.description) for c in m.choices],
                list_button=m.list_button if m.kind == "list" else None,
            )
            for m in turn.result.replies
        ],
        trace=turn.result.trace,
        simulated=simulated,
    )


@router.delete(TRY_PATH, tags=["shop"], summary="Start the trial over: the test customer's chat is forgotten")
def start_over(who: Owner, deps: Deps) -> TrialForgotten:
    _trial(deps).forget(who.tenant_id, who.subject)
    return TrialForgotten(forgotten=True)
