"""*Not understood* (issue 53, part 5): the messages the shop's bot did not understand, and what the owner says they
meant. Her label changes her shop's reading at once (``reading_version``: the reading layer is built again on the
next message) and the labelled messages export as lines of the corpus the global reader is trained on."""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import Field

from tulia.admin.common import Deps, Owner, Page, Staff, View, admin_router, audit
from tulia.domain.literals import Intent
from tulia.domain.understanding import CorpusLang, Misread, MisreadLabel, MisreadWhy
from tulia.errors import InvalidInput, NotFound

router = admin_router()
TAG = "understanding"
Shown = Literal["open", "labelled", "all"]


class LabelView(View):
    intent: Intent
    item_id: str | None
    item_name: str | None
    quantity: int | None
    by: str
    at: str


class MisreadView(View):
    misread_id: str
    text: str
    lang: CorpusLang
    why: MisreadWhy
    read_as: str
    confidence: float
    times: int
    first_at: str
    last_at: str
    label: LabelView | None


class LabelInput(View):
    intent: Intent = Field(description="What the message meant")
    item_id: str | None = Field(default=None, max_length=64, description="For a purchase: the item meant")
    quantity: int | None = Field(default=None, ge=1, le=1000, description="For a purchase: how many")


class CorpusExport(View):
    """The labelled messages as lines of ``eval/corpus/messages.txt`` (``label | lang | message``)."""

    lines: list[str]


def _view(m: Misread, names: dict[str, str]) -> MisreadView:
    label = None
    if m.label is not None:
        label = LabelView(
            intent=m.label.intent,
            item_id=m.label.item_id,
            item_name=names.get(m.label.item_id or ""),
            quantity=m.label.quantity,
            by=m.label.by,
            at=m.label.at.isoformat(),
        )
    return MisreadView(
        misread_id=m.misread_id,
        text=m.text,
        lang=m.lang,
        why=m.why,
        read_as=m.read_as,
        confidence=m.confidence,
        times=m.times,
        first_at=m.first_at.isoformat(),
        last_at=m.last_at.isoformat(),
        label=label,
    )


def _item_names(deps: Deps, tenant_id: str) -> dict[str, str]:
    return {item.item_id: item.name for item in deps.services.catalog.iter_all(tenant_id)}


@router.get("/admin/understanding/not-understood", tags=[TAG], summary="Messages the bot did not understand")
def list_not_understood(
    who: Staff, deps: Deps, shown: Annotated[Shown, Query(description="open: not labelled yet")] = "open"
) -> Page[MisreadView]:
    """The most often sent first: read below the threshold, answered with the menu or "I didn't get that", sent
    again right after, or handed to a person after a misreading."""
    found = deps.services.misreads.all(who.tenant_id)
    if shown != "all":
        found = [m for m in found if (m.label is None) == (shown == "open")]
    names = _item_names(deps, who.tenant_id) if any(m.label and m.label.item_id for m in found) else {}
    return Page[MisreadView](items=[_view(m, names) for m in found])


@router.put(
    "/admin/understanding/not-understood/<misread_id>/label",
    tags=[TAG],
    summary="Say what a message meant (the shop's reading changes at once)",
)
def label_message(misread_id: str, body: LabelInput, who: Owner, deps: Deps) -> MisreadView:
    names: dict[str, str] = {}
    if body.item_id is not None:
        names = _item_names(deps, who.tenant_id)
        if body.item_id not in names:
            raise InvalidInput(f"No item '{body.item_id}' in this shop's catalog.", field="item_id")
    if (body.item_id or body.quantity) and body.intent not in ("sales_discovery", "product_question"):
        raise InvalidInput("An item and a count go with a purchase or a question about an item.", field="intent")
    label = MisreadLabel(
        intent=body.intent,
        item_id=body.item_id,
        quantity=body.quantity,
        by=who.actor,
        at=deps.services.clock(),
    )
    labelled = deps.services.misreads.set_label(who.tenant_id, misread_id, label)
    deps.services.tenants.bump_version(who.tenant_id, "reading_version")
    audit(deps, who, "understanding.label", misread_id, intent=body.intent)
    return _view(labelled, names)


@router.delete(
    "/admin/understanding/not-understood/<misread_id>/label", tags=[TAG], summary="Take a message's label back"
)
def unlabel_message(misread_id: str, who: Owner, deps: Deps) -> MisreadView:
    found = deps.services.misreads.get(who.tenant_id, misread_id)
    if found is None:
        raise NotFound(f"No message '{misread_id}' in this shop's list.", field="misread_id")
    unlabelled = deps.services.misreads.set_label(who.tenant_id, misread_id, None)
    deps.services.tenants.bump_version(who.tenant_id, "reading_version")
    audit(deps, who, "understanding.unlabel", misread_id)
    return _view(unlabelled, {})


@router.get("/admin/understanding/corpus", tags=[TAG], summary="The labelled messages as lines of the reader's corpus")
def export_corpus(who: Owner, deps: Deps) -> CorpusExport:
    lines = [line for m in deps.services.misreads.labelled(who.tenant_id) if (line := m.corpus_line())]
    return CorpusExport(lines=sorted(lines))
