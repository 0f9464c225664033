"""The console's trial chat (issue 34, part 5): the owner talks to her shop's own engine as a test customer
before (or after) going live. The turn runs here, in the admin function, through the same conversation graph,
tools and catalog as a customer's, with three differences: nothing goes to WhatsApp (the replies come back to the
console with the turn's trace), no money moves (:mod:`tulia.payments.trial`), and the shop need not be live.

Each person who tries gets their own test customer: a number in E.164's reserved +999 range derived from their
account, which no WhatsApp user can have, named "Test customer". Starting over forgets the conversation."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tulia.channel.whatsapp import conversation_id_for, customer_key
from tulia.payments.trial import TrialDaraja, TrialPesapal

if TYPE_CHECKING:  # the graph is imported on the first trial turn, not when the admin function starts
    from tulia.graph.conversation import Conversations, TurnResult
    from tulia.nlu.engine import UnderstandingEngine
    from tulia.services import Services

TRIAL_NAME = "Test customer"


def trial_phone(subject: str) -> str:
    """The test customer's number for the person with this account id: +999 (reserved by the ITU, never a
    subscriber's) and nine digits of the id's hash."""
    digits = int(hashlib.sha256(subject.encode()).hexdigest(), 16) % 10**9
    return f"+999{digits:09d}"


@dataclass
class TrialTurn:
    customer: str  # the test customer's number
    result: TurnResult
    prompts: list[dict[str, Any]]  # M-Pesa prompts the turn would have sent
    checkouts: list[dict[str, Any]]  # card checkouts it would have opened


@dataclass
class TrialChats:
    services: Services
    engine: Callable[[], UnderstandingEngine]  # the engine the agent runs (built on first use)
    checkpointer: Callable[[], Any]
    _conversations: Conversations | None = field(default=None, init=False)

    def _graph(self) -> Conversations:
        if self._conversations is None:
            from tulia.graph.conversation import Conversations

            self._conversations = Conversations(self.services, self.engine(), self.checkpointer())
        return self._conversations

    def turn(self, tenant_id: str, subject: str, inbound: dict[str, Any]) -> TrialTurn:
        daraja, pesapal = TrialDaraja(), TrialPesapal()
        # the stand-ins answer the calls the payment tools make (as build_services' unconfigured providers do)
        stand_ins: dict[str, Any] = {"daraja": daraja, "pesapal": pesapal}
        trial_services = dataclasses.replace(self.services, **stand_ins)
        phone = trial_phone(subject)
        result = self._graph().handle(
            tenant_id=tenant_id,
            phone_e164=phone,
            inbound=inbound,
            display_name=TRIAL_NAME,
            services=trial_services,
        )
        return TrialTurn(phone, result, daraja.prompts, pesapal.checkouts)

    def forget(self, tenant_id: str, subject: str) -> None:
        """A new conversation: the next message starts afresh (the test customer's orders stay on record)."""
        thread = conversation_id_for(tenant_id, customer_key(trial_phone(subject), None))
        self._graph().checkpointer.delete_thread(thread)
