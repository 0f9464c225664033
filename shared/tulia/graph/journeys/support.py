"""The support journey (RAG, spec Appendix C): kb_retrieve, answer only from the snippets, or say so
and offer a person; the escalation itself is the orchestrator's handoff node."""

from __future__ import annotations

import re
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command

from tulia.graph.buttons import tap_id
from tulia.graph.calls import END, Turn
from tulia.graph.context import EngineContext
from tulia.graph.nodes import ESCALATION_OFFER, inbound_text, menu, shop_contact, t
from tulia.graph.state import ConversationState, Scratch
from tulia.graph.subgraph import as_node, command_journey
from tulia.graph.wording import worded
from tulia.nlg.messages import buttons, text
from tulia.nlg.payment_guard import FOREIGN_PAYMENT_FLAG, guard_payment_details, own_numbers
from tulia.nlu.lexicon import NO, YES, normalize
from tulia.rag.answer import best_sentences, source_of, written_in
from tulia.rag.shop_facts import ABOUT, answer_from_facts, covered_by
from tulia.search.text import terms


def support_start(
    state: ConversationState, runtime: Runtime[EngineContext]
) -> Command[Literal["kb_retrieve", "__end__"]]:
    """An answer to "shall I pass you to a person?", or a new question for the documents."""
    turn = Turn(state, runtime, "support_start")
    if not (state.route in ("answer", "maybe_answer") and state.pending == "escalation_offer"):
        return turn.goto("kb_retrieve")
    fast = state.understanding.get("fast")
    reply_id = state.inbound.get("reply_id")
    if fast == "yes" or reply_id == tap_id("esc", "yes") or state.understanding.get("choice") == 1:
        turn.set(route="handoff", escalation_reason="missing_information", question=None, question_options=[])
    elif fast == "no" or reply_id == tap_id("esc", "no") or state.understanding.get("choice") == 2:
        turn.set(question=None, question_options=[])
        turn.say(text(t(turn, "menu_prompt")))
    else:
        turn.set(route="reclassify")
    return turn.goto(END)


_ASKED = re.compile(r"[^.!?\n]*\?")  # a sentence that ends with its question mark


def what_is_asked(message: str) -> str:
    """The questions of a message, without what she says around them and what leads into them ("Quick one before I
    pay: what time do you open on Monday? I'd like to pick it up on my way to work": what time do you open on
    Monday?); the message itself when it asks nothing with a question mark."""
    asked = [sentence.rsplit(":", 1)[-1].strip() for sentence in _ASKED.findall(message)]
    return " ".join(a for a in asked if len(a) > 1) or message


def kb_retrieve(
    state: ConversationState, runtime: Runtime[EngineContext]
) -> Command[Literal["support_rag_answer", "__end__"]]:
    turn = Turn(state, runtime, "kb_retrieve")
    asked = what_is_asked(inbound_text(state))
    result = turn.tool("kb_retrieve", query=asked, top_k=3)
    snippets = result["data"]["snippets"] if result["ok"] else []
    if _said_a_shop_fact(turn, asked, snippets):
        turn.set(question=None, question_options=[])
        return turn.goto(END)
    if not result["ok"]:
        turn.say(text(t(turn, "tool_error")))
        return turn.goto(END)
    turn.set(
        kb_snippets=[{k: s[k] for k in ("doc_id", "title", "section", "score")} for s in snippets],
        scratch=Scratch(snippets=snippets),
    )
    return turn.goto("support_rag_answer")


def support_rag_answer(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    """Answer only from the snippets; without any, say so and offer a person."""
    turn = Turn(state, runtime, "support_rag_answer")
    snippets = state.scratch.get("snippets", [])
    if not snippets and not state.handoff.get("enabled", True):  # no person to offer: how to reach the shop
        turn.say(text(t(turn, "kb_no_answer_contact", shop=state.tenant_name or "", contact=shop_contact(turn))))
        turn.set(question=None, question_options=[])
        return turn.goto(END)
    if not snippets:
        turn.say(
            buttons(
                t(turn, "kb_no_answer"),
                [(tap_id("esc", "yes"), t(turn, "ask_person")), (tap_id("esc", "no"), t(turn, "no_thanks"))],
            )
        )
        turn.set(question="escalation_offer", question_options=ESCALATION_OFFER)
        return turn.goto(END)
    _answer(turn, snippets, inbound_text(state))
    turn.set(question=None, question_options=[])
    return turn.goto(END)


def _said_a_shop_fact(turn: Turn, question: str, snippets: list[dict[str, Any]]) -> bool:
    """A question the shop's settings answer (its hours, where it is, where it delivers and for how much, how to pay):
    said from them in the customer's language, before any document that answers no more of it (tulia.rag.shop_facts:
    "How are refunds paid?" is the returns policy's, not the ways to pay)."""
    tenant = turn.ctx.services.tenants.get(turn.ctx.tenant_id)
    fact = answer_from_facts(tenant, question, turn.lang)
    if fact is None:
        return False
    best_document = max(
        (covered_by(f"{s['title']} {s.get('section') or ''} {s['text']}", question) for s in snippets), default=0.0
    )
    if best_document > fact.coverage:
        return False
    turn.trace.append({"kind": "route", "node": turn.node, "route": "shop_fact", "fact": fact.kind})
    # worded by the model where the shop allows it, from the fact alone, and checked by the fact guard
    shown = [{"title": ABOUT[fact.kind], "section": None, "text": fact.text}]
    turn.say(text(worded(turn, "support_rag_answer", fact.text, [shown], user_message=question, snippets_json=shown)))
    return True


def _answer(turn: Turn, snippets: list[dict[str, Any]], question: str) -> None:
    """The answer from the best snippet, worded (and fact-guarded) when the tenant allows, without
    payment details that are not the shop's."""
    top = snippets[0]
    # her language's sentences of a document written in both; a document in the other language only is said so
    hers = "en" if turn.text_lang == "en" else "sw"
    said_text = best_sentences(top["text"], question, lang=hers)
    written = written_in(said_text)
    key = "kb_answer" if written in (None, hers) else "kb_answer_other_language"
    answer = t(turn, key, answer=said_text, source=source_of(top))
    shown = [{"title": s["title"], "section": s["section"], "text": s["text"]} for s in snippets]
    said = worded(turn, "support_rag_answer", answer, [shown], user_message=question, snippets_json=shown)
    services = turn.ctx.services
    said, foreign = guard_payment_details(said, own_numbers(services.tenants.get(turn.ctx.tenant_id)))
    if foreign:
        # a document names payment or phone numbers that are not the shop's: never passed on as they are
        turn.trace.append({"kind": "guard", "node": "support_rag_answer", "verdict": "payment_details_removed"})
        _flag_documents(turn, {s["doc_id"] for s in snippets})
        if not re.sub(r"\([^()]*\)\s*$", "", said).strip():  # nothing left but the source line
            said = t(turn, "kb_payment_details_withheld")
        else:
            said += "\n" + t(turn, "kb_payment_details_withheld")
    turn.say(text(said))


def answer_beside(turn: Turn, question: str) -> bool:
    """A question she asks beside her wish ("... a valve for the outlet. Do you deliver that far?"): answered from the
    shop's stated facts or its best passage, as any question is, before the sale goes on; nothing said (and
    ``False``) when neither holds an answer, so the sale is not interrupted by "I don't have that"."""
    result = turn.tool("kb_retrieve", query=question, top_k=3)
    snippets = result["data"]["snippets"] if result["ok"] else []
    if _said_a_shop_fact(turn, question, snippets):
        return True
    if not snippets:
        return False
    turn.trace.append({"kind": "route", "node": turn.node, "route": "kb_answer_beside"})
    _answer(turn, snippets, question)
    return True


def unknown(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """A message no journey claims: the shop's documents may still answer it ("what time do you close
    today?", "my phone is not charging"); only when they don't, "I didn't get that" and the menu."""
    turn = Turn(state, runtime, "unknown")
    question = inbound_text(state)
    plain = normalize(question)
    if terms(question) and plain not in YES and plain not in NO and state.understanding.get("governor") != "spam":
        # a bare "yes", "ok" or "no" asks nothing of the documents (searched, "yes" finds a passage that starts with it)
        result = turn.tool("kb_retrieve", query=question, top_k=3)
        snippets = result["data"]["snippets"] if result["ok"] else []
        if _said_a_shop_fact(turn, question, snippets):
            turn.set(question=None, question_options=[])
            return turn.done()
        if snippets:
            turn.trace.append({"kind": "route", "node": "unknown", "route": "kb_answer"})
            turn.set(kb_snippets=[{k: s[k] for k in ("doc_id", "title", "section", "score")} for s in snippets])
            _answer(turn, snippets, question)
            turn.set(question=None, question_options=[])
            return turn.done()
    turn.say(menu(turn, "unknown"))
    turn.set(question="menu", clarification_loops=state.clarification_loops + 1)
    return turn.done()


def _flag_documents(turn: Turn, doc_ids: set[str]) -> None:
    """Tell the shop (the admin API shows document flags) which documents carry foreign payment details."""
    kb = turn.ctx.services.kb
    for doc_id in sorted(doc_ids):
        doc = kb.document(turn.ctx.tenant_id, doc_id)
        if doc is not None and FOREIGN_PAYMENT_FLAG not in doc.flags:
            kb.put_document(doc.model_copy(update={"flags": [*doc.flags, FOREIGN_PAYMENT_FLAG]}))


support = as_node(
    "support",
    command_journey(
        "support",
        [("support_start", support_start), ("kb_retrieve", kb_retrieve), ("support_rag_answer", support_rag_answer)],
        entry="support_start",
    ),
)
