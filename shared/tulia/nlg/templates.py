"""Every customer-facing sentence, in English and Swahili, and in Sheng for the main journeys
(greeting, shortlist, item, order summary, payment prompt, paid, handoff, opt-out); a shop chooses
whether Sheng speakers are answered in Sheng, Swahili or English (``languages.sheng_replies``).
Facts are filled in from tool output only, as named fields."""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Any

from tulia.domain.common import NAIROBI, format_kes

# fmt: off
TEMPLATES: dict[str, dict[str, str]] = {
    # greetings, menus, governance
    "welcome": {
        "en": "Hi{name}! I'm {bot_name} from {shop}. I can help you find products, place an order, pay, "
              "check an order, and answer questions about our services.",
        "sw": "Habari{name}! Mimi ni {bot_name} wa {shop}. Naweza kukusaidia kupata bidhaa, kuagiza, kulipa, "
              "kufuatilia oda, na kujibu maswali kuhusu huduma zetu.",
        "sheng": "Niaje{name}! Mi ni {bot_name} wa {shop}. Naeza kukusaidia kupata vitu, kuorder, kulipa, kucheki "
                 "order yako na kujibu maswali.",
    },
    "thanks": {
        "en": "You're welcome! I'm here whenever you need anything else.",
        "sw": "Karibu sana! Niko hapa wakati wowote ukihitaji kitu kingine.",
        "sheng": "Sawa sawa! Niko hapa ukinihitaji tena.",
    },
    "goodbye": {
        "en": "Goodbye, and thank you for chatting with {shop}!",
        "sw": "Kwaheri, asante kwa kuzungumza na {shop}!",
        "sheng": "Poa, tuonane! Asante kwa kuchat na {shop}.",
    },
    "small_talk": {
        "en": "I'm doing well, thank you! What can I help you with today?",
        "sw": "Niko poa, asante! Nikusaidie na nini leo?",
        "sheng": "Niko fiti, thanks! Nikusaidie na nini leo?",
    },
    "redirect": {
        "en": "Happy to chat, but I'm here for {shop}. I can help with products, orders, payments, offers and "
              "support. What would you like?",
        "sw": "Ni vizuri kuongea, lakini niko hapa kwa ajili ya {shop}. Naweza kusaidia na bidhaa, oda, malipo, "
              "ofa na msaada. Ungependa nini?",
    },
    "disengage": {
        "en": "I can only help with {shop}'s products, orders, payments, offers and support.",
        "sw": "Naweza kusaidia tu na bidhaa, oda, malipo, ofa na msaada wa {shop}.",
    },
    "abuse": {
        "en": "I'm here to help, but I won't continue this conversation in that tone. "
              "Send a message about products, orders or payments whenever you're ready.",
        "sw": "Niko hapa kusaidia, lakini siwezi kuendelea kwa lugha hiyo. "
              "Tuma ujumbe kuhusu bidhaa, oda au malipo ukiwa tayari.",
    },
    "injection": {
        "en": "I can't change how I work, but I'm glad to help with products, orders, payments, offers or support.",
        "sw": "Siwezi kubadilisha jinsi ninavyofanya kazi, lakini nafurahi kusaidia na bidhaa, oda, malipo, "
              "ofa au msaada.",
    },
    "menu_prompt": {
        "en": "What would you like to do?",
        "sw": "Ungependa kufanya nini?",
        "sheng": "Unataka kufanya nini?",
    },
    "clarify_intent": {
        "en": "Just to be sure I help with the right thing: what would you like to do?",
        "sw": "Ili nikusaidie ipasavyo: ungependa kufanya nini?",
    },
    "unknown": {
        "en": "Sorry, I didn't quite get that. I can help you with:",
        "sw": "Samahani, sijaelewa vizuri. Naweza kukusaidia na:",
    },
    "menu_buy": {"en": "Buy something", "sw": "Kununua"},
    "menu_order": {"en": "My order", "sw": "Oda yangu"},
    "menu_help": {"en": "Questions/help", "sw": "Maswali/msaada"},
    "menu_offers": {"en": "Offers", "sw": "Ofa"},
    "menu_button": {"en": "Options", "sw": "Chaguo"},
    "language_switched": {
        "en": "Sure, I'll reply in English from now on.",
        "sw": "Sawa, nitakujibu kwa Kiswahili kuanzia sasa.",
    },
    "language_not_offered": {
        "en": "Sorry, I can only reply in {languages} here.",
        "sw": "Samahani, hapa naweza kujibu kwa {languages} tu.",
    },
    # consent
    "opted_out": {
        "en": "You're unsubscribed: you won't get offers or marketing messages from {shop} anymore. "
              "You'll still get updates about orders you place. Reply START anytime to subscribe again.",
        "sw": "Umejiondoa: hutapokea tena ofa wala matangazo kutoka {shop}. Bado utapata taarifa za oda "
              "utakazoweka. Tuma START wakati wowote kujiunga tena.",
        "sheng": "Umetoka: hautapata offers ama marketing messages kutoka {shop} tena. Bado utapata updates za "
                 "orders zako. Tuma START wakati wowote kurudi.",
    },
    "opted_in": {
        "en": "You're subscribed to offers from {shop} on WhatsApp. Reply STOP anytime to unsubscribe.",
        "sw": "Umejiunga kupokea ofa za {shop} kwenye WhatsApp. Tuma STOP wakati wowote kujiondoa.",
        "sheng": "Uko in: utapata offers za {shop} kwa WhatsApp. Tuma STOP wakati wowote kutoka.",
    },
    "order_updates_off": {
        "en": "Done: {shop} won't send you order updates on WhatsApp anymore. You can still ask me about an "
              "order any time; say \"send me order updates\" to turn them back on.",
        "sw": "Sawa: {shop} haitakutumia tena taarifa za oda kwenye WhatsApp. Bado unaweza kuniuliza kuhusu oda "
              "wakati wowote; sema \"nitumie taarifa za oda\" kuziwasha tena.",
    },
    "order_updates_on": {
        "en": "Done: {shop} will send you updates about your orders here on WhatsApp.",
        "sw": "Sawa: {shop} itakutumia taarifa za oda zako hapa WhatsApp.",
    },
    "prefs_status": {
        "en": "Your settings with {shop}: offers on WhatsApp: {offers}; order updates: {updates}. Say \"send me "
              "offers\", \"stop offers\" or \"stop order updates\" to change them.",
        "sw": "Mipangilio yako na {shop}: ofa kwenye WhatsApp: {offers}; taarifa za oda: {updates}. Sema "
              "\"nitumie ofa\", \"sitaki ofa\" au \"usinitumie taarifa za oda\" kubadilisha.",
    },
    "pref_on": {"en": "on", "sw": "zimewashwa"},
    "pref_off": {"en": "off", "sw": "zimezimwa"},
    "prefs_updated": {
        "en": "Done, your preferences are updated.",
        "sw": "Tayari, mapendeleo yako yamesasishwa.",
    },
    # handoff
    "handoff": {
        "en": "I'm passing you to a person from our team (ticket {ticket}). They'll reply here {eta}.",
        "sw": "Nakuunganisha na mtu wa timu yetu (tiketi {ticket}). Atakujibu hapa {eta}.",
        "sheng": "Nakuunganisha na mtu wa team yetu (ticket {ticket}). Atakujibu hapa {eta}.",
    },
    "handoff_after_hours": {
        "en": "I'm passing you to a person from our team (ticket {ticket}). The team is away now; they're "
              "back {back} and will reply here then.",
        "sw": "Nakuunganisha na mtu wa timu yetu (tiketi {ticket}). Timu haipo kwa sasa; watarudi {back} "
              "na watakujibu hapa.",
        "sheng": "Nakuunganisha na mtu wa team yetu (ticket {ticket}). Team iko off saa hii; watarudi {back} "
                 "wakujibu hapa.",
    },
    "handoff_disabled": {
        "en": "I can't pass you to a person in this chat. You can reach {shop} directly: {contact}.",
        "sw": "Siwezi kukuunganisha na mtu kwenye mazungumzo haya. Unaweza kuwasiliana na {shop} moja kwa "
              "moja: {contact}.",
        "sheng": "Siwezi kukuunganisha na mtu kwa hii chat. Unaeza fikia {shop} direct: {contact}.",
    },
    "kb_no_answer_contact": {
        "en": "I don't have that information. You can ask {shop} directly: {contact}.",
        "sw": "Sina taarifa hiyo. Unaweza kuuliza {shop} moja kwa moja: {contact}.",
    },
    "not_getting_it_contact": {
        "en": "Sorry, I'm not getting it. You can reach {shop} directly: {contact}. Or tell me what you "
              "need in other words.",
        "sw": "Samahani, sijaelewa vizuri. Unaweza kuwasiliana na {shop} moja kwa moja: {contact}. Au "
              "niambie unachohitaji kwa maneno mengine.",
    },
    "handoff_ended": {
        "en": "Our team has finished with your request. I'm {bot_name} again: write here any time for "
              "products, orders or payments.",
        "sw": "Timu yetu imemaliza kushughulikia ombi lako. Mimi ni {bot_name} tena: niandikie hapa wakati "
              "wowote kuhusu bidhaa, oda au malipo.",
        "sheng": "Team yetu imemaliza na request yako. Ni mimi {bot_name} tena: niandikie hapa wakati wowote kuhusu "
                 "vitu, orders ama malipo.",
    },
    # order updates staff make in the admin API (sent unasked; order_update templates outside 24 h)
    "order_update_confirmed": {
        "en": "Your order {ref} is confirmed and being prepared. We'll tell you when it's ready.",
        "sw": "Oda yako {ref} imethibitishwa na inaandaliwa. Tutakujulisha ikiwa tayari.",
        "sheng": "Order yako {ref} iko confirmed, inapangwa. Tutakushtua ikiwa ready.",
    },
    "order_update_dispatched": {
        "en": "Good news: your order {ref} is on its way.{eta}",
        "sw": "Habari njema: oda yako {ref} iko njiani.{eta}",
        "sheng": "Good news: order yako {ref} iko njiani.{eta}",
    },
    "order_update_ready_for_pickup": {
        "en": "Your order {ref} is ready for pickup{address}. Bring the order number with you.",
        "sw": "Oda yako {ref} iko tayari kuchukuliwa{address}. Kuja na namba ya oda.",
        "sheng": "Order yako {ref} iko ready uichukue{address}. Kuja na namba ya order.",
    },
    "order_update_delivered": {
        "en": "Your order {ref} has been delivered. Thank you for shopping with {shop}!",
        "sw": "Oda yako {ref} imefikishwa. Asante kwa kununua kutoka {shop}!",
        "sheng": "Order yako {ref} imefika. Asante kwa kushop na {shop}!",
    },
    "order_update_refunded": {
        "en": "We have sent back {amount} for your order {ref}. Reply here if you have a question.",
        "sw": "Tumekurudishia {amount} za oda yako {ref}. Jibu hapa kama una swali.",
        "sheng": "Tumekurudishia {amount} za order yako {ref}. Jibu hapa kama uko na swali.",
    },
    "order_update_credit_applied": {
        "en": "We have put {amount} you paid before (order {source}) towards your order {ref}. Still to pay: {due}.",
        "sw": "Tumeweka {amount} ulizolipa awali (oda {source}) kwenye oda yako {ref}. Kiasi kilichobaki: {due}.",
        "sheng": "Tumeweka {amount} ulizolipa before (order {source}) kwa order yako {ref}. Bado kulipa: {due}.",
    },
    "order_update_eta": {"en": "Expected: {eta}.", "sw": "Inatarajiwa: {eta}."},
    "order_update_at": {"en": "at {address}", "sw": "({address})"},
    "order_update_cancelled": {
        "en": "Your order {ref} has been cancelled. Reply here if you have a question.",
        "sw": "Oda yako {ref} imeghairiwa. Jibu hapa kama una swali.",
        "sheng": "Order yako {ref} imecancelliwa. Jibu hapa kama uko na swali.",
    },
    "unpaid_reminder": {
        "en": "Your order {ref} of {amount} is still waiting for payment. Reply PAY to pay now, or STOP to "
              "stop these messages.",
        "sw": "Oda yako {ref} ya {amount} bado inasubiri malipo. Jibu LIPA kulipa sasa, au STOP kusimamisha "
              "ujumbe huu.",
    },
    # a shop that is not answering on WhatsApp (getting ready, paused by its owner, suspended): told once
    "shop_closed": {
        "en": "Thank you for your message. {shop} is not answering on WhatsApp right now. To reach us: {contact}",
        "sw": "Asante kwa ujumbe wako. {shop} haijibu kwenye WhatsApp kwa sasa. Kutufikia: {contact}",
        "sheng": "Asante kwa message yako. {shop} haijibu kwa WhatsApp saa hii. Kutupata: {contact}",
    },
    # fair use (spec 8.4)
    "rate_slow_down": {
        "en": "You're sending messages faster than I can answer. Please wait a minute, then send your "
              "question again in one message.",
        "sw": "Unatuma jumbe kwa kasi kuliko ninavyoweza kujibu. Tafadhali subiri dakika moja, kisha tuma "
              "swali lako tena kwa ujumbe mmoja.",
        "sheng": "Unatuma messages haraka kushinda naeza jibu. Subiri dakika moja, alafu tuma swali yako "
                 "kwa message moja.",
    },
    "rate_busy": {
        "en": "We're receiving a lot of messages right now. Please write again in a minute or two.",
        "sw": "Tunapokea jumbe nyingi sasa hivi. Tafadhali andika tena baada ya dakika moja au mbili.",
    },
    "handoff_holding_after_hours": {
        "en": "Thanks, I've added this to your request. Our team is away now; they're back {back} and will "
              "reply here.",
        "sw": "Asante, nimeongeza hili kwenye ombi lako. Timu yetu haipo kwa sasa; watarudi {back} na "
              "watakujibu hapa.",
        "sheng": "Asante, nimeongeza hii kwa request yako. Team iko off saa hii; watarudi {back} wakujibu hapa.",
    },
    "handoff_holding": {
        "en": "Thanks, a person from our team has your conversation and will reply here shortly.",
        "sw": "Asante, mtu wa timu yetu ana mazungumzo yako na atakujibu hapa hivi karibuni.",
        "sheng": "Asante, mtu wa team yetu ako na convo yako na atakujibu hapa soon.",
    },
    "handoff_unavailable": {
        "en": "Sorry, I couldn't reach our team right now. Please try again in a few minutes.",
        "sw": "Samahani, sijaweza kufikia timu yetu sasa hivi. Tafadhali jaribu tena baada ya dakika chache.",
    },
    # orders
    "no_orders": {
        "en": "I can't find any orders for this number yet. If you have an order reference (like ORD-XXXXX), "
              "send it and I'll check.",
        "sw": "Sijapata oda yoyote kwa namba hii bado. Kama una namba ya oda (kama ORD-XXXXX), itume nitaangalia.",
    },
    "order_not_found": {
        "en": "I couldn't find order {ref} for this number. Please check the reference.",
        "sw": "Sijapata oda {ref} kwa namba hii. Tafadhali hakikisha namba ya oda.",
    },
    "order_status": {
        "en": "Order {ref} ({date})\nItems: {items}\nTotal: {total}\nPayment: {payment}\nStatus: {status}{eta}",
        "sw": "Oda {ref} ({date})\nBidhaa: {items}\nJumla: {total}\nMalipo: {payment}\nHali: {status}{eta}",
    },
    "which_order": {
        "en": "You have {count} recent orders. Which one do you mean?",
        "sw": "Una oda {count} za karibuni. Unamaanisha ipi?",
    },
    # support
    "kb_answer": {"en": "{answer}\n\n(From our {source})", "sw": "{answer}\n\n(Chanzo: {source})"},
    "kb_answer_other_language": {
        "en": "Our {source} is written in Swahili. It says:\n\n{answer}",
        "sw": "Hati yetu ({source}) imeandikwa kwa Kiingereza. Inasema:\n\n{answer}",
    },
    # the shop's stated facts (its settings), said in the customer's language (tulia.rag.shop_facts)
    "fact_hours": {"en": "We're open {hours}.", "sw": "Tunafungua {hours}."},
    "fact_location": {"en": "You'll find us at {place}.", "sw": "Tunapatikana {place}."},
    "fact_delivery": {"en": "We deliver to:\n{zones}", "sw": "Tunaleta:\n{zones}"},
    "fact_zone": {"en": "- {zone}{areas}: {fee}, {eta}", "sw": "- {zone}{areas}: {fee}, {eta}"},
    "fact_free": {"en": "free", "sw": "bure"},
    "fact_pickup": {"en": "Or pick it up at {place}.", "sw": "Au uchukue {place}."},
    "fact_payment": {"en": "You can pay by {methods}.", "sw": "Unaweza kulipa kwa {methods}."},
    "fact_pay_stk": {
        "en": "M-Pesa (I send a payment prompt to your phone)",
        "sw": "M-Pesa (nakutumia ombi la malipo kwenye simu yako)",
    },
    "fact_pay_till": {"en": "M-Pesa Till {till}", "sw": "Till ya M-Pesa {till}"},
    "fact_pay_paybill": {
        "en": "M-Pesa Paybill {paybill} (the account is your order number)",
        "sw": "Paybill ya M-Pesa {paybill} (akaunti ni namba ya oda yako)",
    },
    "fact_pay_card": {"en": "card (a secure payment link)", "sw": "kadi (kiungo salama cha malipo)"},
    "fact_deposit": {
        "en": "To book, you pay a deposit of {deposit}; the rest is paid at the appointment.",
        "sw": "Kuweka miadi, unalipa amana ya {deposit}; kinachobaki unalipa siku ya miadi.",
    },
    "fact_share_of_price": {"en": "{percent}% of the price", "sw": "{percent}% ya bei"},
    "fact_no_deposit": {"en": "Booking needs no deposit.", "sw": "Kuweka miadi hakuhitaji amana."},
    "fact_change_rule": {
        "en": "You can change or cancel on WhatsApp up to {hours} hours before; then the deposit is {early}, later "
              "it is {late}.",
        "sw": "Unaweza kubadilisha au kughairi kwenye WhatsApp hadi saa {hours} kabla; hapo amana {early}, baada "
              "ya hapo {late}.",
    },
    "fact_refunded": {"en": "refunded", "sw": "inarudishwa"},
    "fact_kept": {"en": "kept", "sw": "haitarudishwa"},
    "fact_day_range": {"en": "{first} to {last}", "sw": "{first} hadi {last}"},
    "fact_span": {"en": "{opens} to {closes}", "sw": "{opens} hadi {closes}"},
    "fact_and": {"en": " and ", "sw": " na "},
    "fact_closed": {"en": "; closed on {days}", "sw": "; tumefunga {days}"},
    "offer_person": {
        "en": "Sorry, I'm not getting it. Shall I get someone from the team to help you?",
        "sw": "Samahani, sijaelewa vizuri. Nimwite mtu wa timu yetu akusaidie?",
    },
    "kb_no_answer": {
        "en": "I don't have that information. Would you like me to ask a person from our team?",
        "sw": "Sina taarifa hiyo. Ungependa nimuulize mtu wa timu yetu?",
    },
    "kb_payment_details_withheld": {
        "en": "For payment, please use only the steps I send with your order (our own Paybill/Till or M-Pesa "
              "prompt); don't pay to any other number.",
        "sw": "Kwa malipo, tafadhali tumia tu maelekezo ninayokutumia pamoja na oda yako (Paybill/Till yetu au "
              "ombi la M-Pesa); usilipe kwa namba nyingine yoyote.",
    },
    "ask_person": {"en": "Ask a person", "sw": "Ongea na mtu"},
    "no_thanks": {"en": "No, thanks", "sw": "Hapana, asante"},
    # sales
    "ask_what": {
        "en": "Sure! What are you looking for?",
        "sw": "Sawa! Unatafuta nini?",
        "sheng": "Poa! Unatafuta nini?",
    },
    "shortlist": {
        "en": "Here's what I found{more}:",
        "sw": "Hivi ndivyo nimepata{more}:",
        "sheng": "Hizi ndio nimepata{more}:",
    },
    "shortlist_more": {
        "en": " (the best {n} of {total} matches)",
        "sw": " (bora {n} kati ya {total})",
        "sheng": " (best {n} kati ya {total})",
    },
    "shortlist_footer": {
        "en": "Reply with the number (1-{n}) or tell me your budget/use-case.",
        "sw": "Jibu kwa namba (1-{n}) au niambie bajeti/matumizi yako.",
        "sheng": "Nijibu na namba (1-{n}) ama uniambie budget yako.",
    },
    "which_of_them": {
        "en": "Several of these fit \"{option}\". Which one would you like?",
        "sw": "Kadhaa kati ya hizi zinalingana na \"{option}\". Ungependa ipi?",
        "sheng": "Kadhaa ziko \"{option}\". Unataka ipi?",
    },
    "shortlist_footer_one": {
        "en": "Reply 1 to choose it, or tell me your budget/use-case.",
        "sw": "Jibu 1 kuichagua, au niambie bajeti/matumizi yako.",
        "sheng": "Nijibu 1 kuichagua, ama uniambie budget yako.",
    },
    "shortlist_button": {"en": "See options", "sw": "Ona chaguo", "sheng": "Cheki options"},
    "catalog_link": {
        "en": "You can also browse everything here: {link}",
        "sw": "Unaweza pia kuona bidhaa zote hapa: {link}",
    },
    "no_results": {
        "en": "Sorry, I couldn't find \"{query}\" in our shop. Could you describe it differently, or tell me the "
              "brand or budget?",
        "sw": "Samahani, sijapata \"{query}\" dukani kwetu. Unaweza kueleza kwa njia nyingine, au niambie brand "
              "au bajeti?",
        "sheng": "Sorry, sijapata \"{query}\" kwa shop. Ieleze tofauti, ama uniambie brand ama budget?",
    },
    "item_details": {
        "en": "{name}: {price}{stock}",
        "sw": "{name}: {price}{stock}",
    },
    "in_stock_few": {"en": " (only {n} left)", "sw": " (zimebaki {n} tu)"},
    "basket": {
        "en": "Your basket:\n{lines}",
        "sw": "Kikapu chako:\n{lines}",
        "sheng": "Kikapu yako:\n{lines}",
    },
    "basket_line_unsure": {"en": "{item} (how many?)", "sw": "{item} (ngapi?)", "sheng": "{item} (ngapi?)"},
    "not_sold": {
        "en": "Sorry, we don't sell {words}.",
        "sw": "Samahani, hatuuzi {words}.",
        "sheng": "Sorry, hatuuzi {words}.",
    },
    "book_separately": {
        "en": "{name} is booked for a day and time: once this order is done, tell me when you'd like it.",
        "sw": "{name} hupangiwa siku na saa: ukimaliza oda hii, niambie ungependa lini.",
    },
    "which_item": {
        "en": "Which {words} would you like?",
        "sw": "Ungependa {words} ipi?",
        "sheng": "Unataka {words} ipi?",
    },
    "substitute_refused": {
        "en": "Okay, nothing added in place of {name}.",
        "sw": "Sawa, sijaongeza kitu badala ya {name}.",
        "sheng": "Sawa, sijaongeza kitu badala ya {name}.",
    },
    "out_of_stock_instead": {
        "en": "Sorry, {name} is out of stock right now. This is what we have in stock:",
        "sw": "Samahani, {name} imeisha kwa sasa. Hizi ndizo tulizo nazo:",
        "sheng": "Sorry, {name} imeisha saa hii. Hizi ndio ziko:",
    },
    "out_of_stock": {
        "en": "Sorry, {name} is out of stock right now. Would you like to see similar items?",
        "sw": "Samahani, {name} imeisha kwa sasa. Ungependa kuona bidhaa zinazofanana?",
    },
    "only_n_left": {
        "en": "Sorry, we only have {n} of {name} right now. Tell me how many you'd like, or choose something else.",
        "sw": "Samahani, tuna {name} {n} tu kwa sasa. Niambie ungependa ngapi, au chagua kitu kingine.",
    },
    "cart_items_unknown": {
        "en": "{count} item(s) in your cart are no longer in our catalog, so I left them out.",
        "sw": "Bidhaa {count} kwenye kikapu chako hazipo tena kwenye katalogi yetu, kwa hivyo nimeziacha.",
    },
    "cart_empty": {
        "en": "I couldn't make an order from that cart: none of its items can be ordered right now. "
              "Tell me what you're looking for and I'll find it.",
        "sw": "Sikuweza kutengeneza oda kutoka kikapu hicho: hakuna bidhaa inayoweza kuagizwa sasa hivi. "
              "Niambie unatafuta nini nikusaidie.",
    },
    "ask_variant": {
        "en": "Which {dimension} would you like?",
        "sw": "Ungependa {dimension} gani?",
        "sheng": "Unataka {dimension} gani?",
    },
    "variant_also": {
        "en": "You can tell me the {dimension} too: {options}.",
        "sw": "Unaweza pia kuniambia {dimension}: {options}.",
    },
    "qty_other": {"en": "Another number", "sw": "Idadi nyingine"},
    "qty_button": {"en": "Quantity", "sw": "Idadi"},
    "ask_quantity_number": {
        "en": "How many would you like? Send the number (for example 4).",
        "sw": "Ungependa ngapi? Tuma idadi (mfano 4).",
    },
    "resume_sale": {"en": "Back to your order:", "sw": "Turudi kwenye oda yako:"},
    "resume_payment": {
        "en": "To finish order {ref}, how would you like to pay {amount}?",
        "sw": "Kukamilisha oda {ref}, ungependa kulipa {amount} vipi?",
    },
    "option_not_offered": {
        "en": "Sorry, {name} doesn't come in \"{said}\".",
        "sw": "Samahani, {name} haipatikani kwa \"{said}\".",
    },
    "option_left_out": {
        "en": (
            "Sorry, {name} doesn't come in \"{said}\" (only {options}), so I've left it out. Tell me if you want "
            "it in one of those."
        ),
        "sw": (
            "Samahani, {name} haipatikani kwa \"{said}\" (ni {options} tu), kwa hivyo nimeiondoa. Niambie kama "
            "unaitaka kwa mojawapo ya hizo."
        ),
    },
    "pickup_not_offered": {
        "en": "Sorry, we don't offer pickup; we deliver.",
        "sw": "Samahani, hatuna huduma ya kuchukua dukani; tunaleta.",
    },
    "delivery_not_offered": {
        "en": "Sorry, we don't deliver; you can pick your order up at {address}.",
        "sw": "Samahani, hatuleti; unaweza kuchukua oda yako {address}.",
    },
    "pin_place": {"en": "the place you pinned", "sw": "mahali ulipobandika"},
    "pin_zone_noted": {
        "en": "Got it, we deliver there ({zone}): your order will come to the place you pinned.",
        "sw": "Sawa, tunaleta huko ({zone}): oda yako italetwa mahali ulipobandika.",
    },
    "zone_not_served": {
        "en": "Sorry, we don't deliver to \"{place}\". These are the areas we deliver to:",
        "sw": "Samahani, hatuleti \"{place}\". Haya ndiyo maeneo tunayoleta:",
    },
    "method_not_offered": {
        "en": "Sorry, we don't take {method} payments. Here are the ways you can pay:",
        "sw": "Samahani, hatupokei malipo ya {method}. Hizi ndizo njia za kulipa:",
    },
    "edit_refused": {
        "en": "Payment for order {ref} has already started, so I can't change it now. Once it's settled I can start "
              "a new order for you, or ask for a person if something is wrong.",
        "sw": "Malipo ya oda {ref} yameshaanza, kwa hivyo siwezi kuibadilisha sasa. Yakikamilika naweza kukuanzishia "
              "oda mpya, au uombe kuongea na mtu kama kuna tatizo.",
    },
    "line_removed": {"en": "Removed {name}.", "sw": "Nimeondoa {name}."},
    "not_in_basket": {"en": "{name} is not in your basket.", "sw": "{name} haiko kwenye kikapu chako."},
    "which_line": {
        "en": "Your basket has more than one of those. Which one should I take out?",
        "sw": "Kikapu chako kina zaidi ya moja ya hizo. Niondoe ipi?",
    },
    "order_cancelled": {
        "en": "Done: order {ref} ({items}) is cancelled. Nothing was paid, so nothing is owed. If you change your "
              "mind, just tell me what you'd like.",
        "sw": "Sawa: oda {ref} ({items}) imefutwa. Hakuna kilicholipwa, kwa hivyo hakuna deni. Ukibadilisha nia, "
              "niambie tu unachotaka.",
        "sheng": "Poa: oda {ref} ({items}) imecancel. Hakuna doo ililipwa, so hakuna deni. Ukichange mind, niambie "
                 "tu unataka nini.",
    },
    "basket_let_go": {
        "en": "OK, I've let that order go: nothing was made or paid. Tell me whenever you'd like something.",
        "sw": "Sawa, nimeiacha oda hiyo: hakuna kilichowekwa wala kulipwa. Niambie wakati wowote ukihitaji kitu.",
        "sheng": "Poa, nimeiwacha hiyo oda: hakuna kitu imewekwa ama kulipwa. Niambie tu ukitaka kitu.",
    },
    "order_cancel_none": {
        "en": "You have no open order to cancel. Anything else I can help with?",
        "sw": "Huna oda iliyo wazi ya kufuta. Nikusaidie na nini kingine?",
    },
    "order_cancel_paid": {
        "en": "Order {ref} is already paid, so a person at the shop will cancel it and sort out your money as the "
              "shop's policy says.",
        "sw": "Oda {ref} imeshalipwa, kwa hivyo mtu wa duka ataifuta na kushughulikia pesa yako kulingana na sera ya "
              "duka.",
    },
    "order_cancel_is_deposit": {
        "en": "Order {ref} is the deposit of a booking: say \"cancel my booking\" to cancel the booking with it.",
        "sw": "Oda {ref} ni amana ya miadi: sema \"futa miadi yangu\" ili kuifuta pamoja na miadi.",
    },
    "order_updated": {
        "en": "Your order is updated (it replaces {old}):",
        "sw": "Oda yako imebadilishwa (inachukua nafasi ya {old}):",
    },
    "coupon_noted": {
        "en": "Code {code} noted: I'll apply it to your order.",
        "sw": "Code {code} nimeipokea: nitaiweka kwenye oda yako.",
    },
    "stale_paid": {
        "en": "Order {ref} is already paid, thank you! Nothing more to pay for it.",
        "sw": "Oda {ref} imeshalipwa, asante! Hakuna zaidi cha kulipa.",
    },
    "stale_replaced": {
        "en": "That button was for order {ref}, which has been replaced by order {current}.",
        "sw": "Kitufe hicho kilikuwa cha oda {ref}, ambayo imebadilishwa na oda {current}.",
    },
    "stale_cancelled": {
        "en": "Order {ref} was cancelled, so it can't be paid. Tell me what you'd like and I'll make a new order.",
        "sw": "Oda {ref} ilighairiwa, kwa hivyo haiwezi kulipwa. Niambie unachotaka nikuandalie oda mpya.",
    },
    "no_open_sale": {
        "en": "That choice was for an order that's no longer open. What would you like to buy?",
        "sw": "Chaguo hilo lilikuwa la oda ambayo haiko wazi tena. Ungependa kununua nini?",
    },
    "item_gone": {
        "en": "Sorry, that item is no longer in our catalog. What else can I find for you?",
        "sw": "Samahani, bidhaa hiyo haipo tena kwenye katalogi yetu. Nikutafutie nini kingine?",
    },
    "not_paid_yet": {
        "en": "Order {ref} ({amount}) hasn't been paid yet, and no payment has been started for it.",
        "sw": "Oda {ref} ({amount}) bado haijalipwa, na hakuna malipo yaliyoanzishwa.",
    },
    "ask_quantity": {"en": "How many would you like?", "sw": "Ungependa ngapi?", "sheng": "Unataka ngapi?"},
    "ask_delivery_mode": {
        "en": "Would you like delivery or will you pick it up at our shop?",
        "sw": "Ungependa tukuletee au utachukua dukani?",
        "sheng": "Tukuletee ama utakuja kuchukua kwa shop?",
    },
    "delivery": {"en": "Delivery", "sw": "Tukuletee"},
    "pickup": {"en": "Pickup", "sw": "Nitachukua"},
    "ask_address": {
        "en": "Where should we deliver? Choose your area, or send it with a landmark.",
        "sw": "Tukuletee wapi? Chagua eneo lako, au litume pamoja na alama ya karibu.",
    },
    "ask_zone": {
        "en": "Which of our delivery zones is that in?",
        "sw": "Hapo ni katika eneo lipi kati ya haya ya usafirishaji?",
    },
    "order_summary": {
        "en": "Order {ref}\n{lines}\nSubtotal: {subtotal}\n{delivery_line}{discount_line}Total: {total}",
        "sw": "Oda {ref}\n{lines}\nJumla ndogo: {subtotal}\n{delivery_line}{discount_line}Jumla: {total}",
        "sheng": "Oda yako {ref}\n{lines}\nSubtotal: {subtotal}\n{delivery_line}{discount_line}Total ni: {total}",
    },
    "delivery_line": {
        "en": "Delivery ({zone}, {eta}): {fee}\n",
        "sw": "Usafirishaji ({zone}, {eta}): {fee}\n",
        "sheng": "Delivery ya {zone} ({eta}): {fee}\n",
    },
    "pickup_line": {
        "en": "Pickup at the shop: free ({eta})\n",
        "sw": "Kuchukua dukani: bure ({eta})\n",
        "sheng": "Pickup kwa shop: free ({eta})\n",
    },
    "discount_line": {
        "en": "Discount ({offer}): -{discount}\n",
        "sw": "Punguzo ({offer}): -{discount}\n",
        "sheng": "Discount ya {offer}: -{discount}\n",
    },
    "offer_hint": {
        "en": "Tip: you can use code {code} ({title}).",
        "sw": "Kidokezo: unaweza kutumia code {code} ({title}).",
    },
    "ask_payment_method": {
        "en": "How would you like to pay {amount}?",
        "sw": "Ungependa kulipa {amount} vipi?",
        "sheng": "Utalipa {amount} aje?",
    },
    "method_mpesa_stk": {"en": "M-Pesa prompt", "sw": "M-Pesa (prompt)"},
    "method_mpesa_c2b": {"en": "M-Pesa Paybill", "sw": "M-Pesa Paybill"},
    "method_mpesa_till": {"en": "M-Pesa Till", "sw": "M-Pesa Till"},
    "method_pesapal": {"en": "Card / other", "sw": "Kadi / nyingine"},
    "confirm_stk": {
        "en": "Please confirm: send an M-Pesa prompt for {amount} (order {ref}) to {phone}?",
        "sw": "Tafadhali thibitisha: nitume ombi la M-Pesa la {amount} (oda {ref}) kwa {phone}?",
        "sheng": "Confirm: nikutumie M-Pesa prompt ya {amount} (order {ref}) kwa {phone}?",
    },
    "confirm_yes": {"en": "Yes, send it", "sw": "Ndiyo, tuma", "sheng": "Ee, tuma"},
    "retry_prompt": {"en": "Yes, try again", "sw": "Ndiyo, jaribu tena"},
    "confirm_other_number": {"en": "Other number", "sw": "Namba nyingine"},
    "ask_mpesa_number": {
        "en": "Which M-Pesa number should I send the prompt to? (for example 0712 345 678)",
        "sw": "Nitume ombi la M-Pesa kwa namba gani? (mfano 0712 345 678)",
    },
    "bad_mpesa_number": {
        "en": "That doesn't look like a Kenyan M-Pesa number. Please send it like 0712 345 678.",
        "sw": "Hiyo haionekani kama namba ya M-Pesa ya Kenya. Tafadhali itume kama 0712 345 678.",
    },
    "stk_sent": {
        "en": "I've sent an M-Pesa prompt for {amount} to {phone}. Enter your M-Pesa PIN on your phone to pay for "
              "order {ref}.",
        "sw": "Nimetuma ombi la M-Pesa la {amount} kwa {phone}. Weka PIN yako ya M-Pesa kwenye simu kulipia "
              "oda {ref}.",
        "sheng": "Nimetuma M-Pesa prompt ya {amount} kwa {phone}. Weka PIN yako ya M-Pesa kwa simu ulipie order {ref}.",
    },
    "stk_pending_already": {
        "en": "An M-Pesa prompt for order {ref} is already on its way to your phone. Please check your phone.",
        "sw": "Ombi la M-Pesa la oda {ref} tayari limetumwa kwenye simu yako. Tafadhali angalia simu yako.",
    },
    "c2b_paybill": {
        "en": "Pay with M-Pesa Paybill:\n1. Lipa na M-Pesa > Pay Bill\n2. Business number: {business}\n"
              "3. Account number: {account}\n4. Amount: {amount}\nWe'll confirm here as soon as it arrives.",
        "sw": "Lipa kwa M-Pesa Paybill:\n1. Lipa na M-Pesa > Pay Bill\n2. Business number: {business}\n"
              "3. Account number: {account}\n4. Kiasi: {amount}\nTutathibitisha hapa mara tu malipo yakifika.",
    },
    "c2b_till": {
        "en": "Pay with M-Pesa Buy Goods:\n1. Lipa na M-Pesa > Buy Goods and Services\n2. Till number: {business}\n"
              "3. Amount: {amount}\nThen send us the M-Pesa confirmation code here for order {ref}.",
        "sw": "Lipa kwa M-Pesa Buy Goods:\n1. Lipa na M-Pesa > Buy Goods and Services\n2. Till number: {business}\n"
              "3. Kiasi: {amount}\nKisha tutumie code ya uthibitisho ya M-Pesa hapa kwa oda {ref}.",
    },
    "card_link": {
        "en": "Pay {amount} for order {ref} securely here: {link}",
        "sw": "Lipa {amount} kwa oda {ref} kwa usalama hapa: {link}",
    },
    "payment_unavailable": {
        "en": "I couldn't reach {provider} just now, so nothing was charged. Reply YES to try again, or pick "
              "another way to pay.",
        "sw": "Sikuweza kufikia {provider} sasa hivi, kwa hivyo hakuna kilichokatwa. Jibu NDIYO kujaribu tena, au "
              "chagua njia nyingine ya kulipa.",
    },
    "payment_unavailable_again": {
        "en": "{provider} still isn't answering, and nothing was charged.",
        "sw": "{provider} bado haijibu, na hakuna kilichokatwa.",
    },
    "payment_cancelled_ok": {
        "en": "No problem, I haven't started any payment. Order {ref} is saved; tell me when you're ready.",
        "sw": "Sawa, sijaanzisha malipo yoyote. Oda {ref} imehifadhiwa; niambie ukiwa tayari.",
    },
    "payment_status_paid": {
        "en": "Yes! We received {amount} for order {ref} (M-Pesa receipt {receipt}).",
        "sw": "Ndiyo! Tumepokea {amount} kwa oda {ref} (risiti ya M-Pesa {receipt}).",
        "sheng": "Safi! Tumepata {amount} ya order {ref} (M-Pesa receipt {receipt}).",
    },
    "payment_status_paid_card": {
        "en": "Yes! We received {amount} for order {ref} (payment confirmation {receipt}).",
        "sw": "Ndiyo! Tumepokea {amount} kwa oda {ref} (uthibitisho wa malipo {receipt}).",
        "sheng": "Safi! Tumepata {amount} ya order {ref} (payment confirmation {receipt}).",
    },
    "payment_status_paid_no_receipt": {
        "en": "Yes! We received {amount} for order {ref}.",
        "sw": "Ndiyo! Tumepokea {amount} kwa oda {ref}.",
        "sheng": "Safi! Tumepata {amount} ya order {ref}.",
    },
    "payment_status_pending": {
        "en": "Your payment for order {ref} is still pending. If you've entered your PIN, it usually confirms within "
              "a minute.",
        "sw": "Malipo ya oda {ref} bado yanasubiri. Kama umeweka PIN, kwa kawaida yanathibitishwa ndani ya "
              "dakika moja.",
    },
    "payment_status_failed": {
        "en": "The last payment attempt for order {ref} didn't go through. Would you like to try again?",
        "sw": "Jaribio la mwisho la malipo ya oda {ref} halikufanikiwa. Ungependa kujaribu tena?",
    },
    "payment_status_cancelled": {
        "en": "The M-Pesa prompt for order {ref} was cancelled, so nothing was paid. Would you like to try again?",
        "sw": "Ombi la M-Pesa la oda {ref} lilighairiwa, kwa hivyo hakuna kilicholipwa. Ungependa kujaribu tena?",
    },
    "payment_status_timeout": {
        "en": "The M-Pesa prompt for order {ref} expired before it was completed, so nothing was paid. Would you "
              "like to try again?",
        "sw": "Ombi la M-Pesa la oda {ref} liliisha muda kabla ya kukamilika, kwa hivyo hakuna kilicholipwa. "
              "Ungependa kujaribu tena?",
    },
    "payment_overpaid": {
        "en": "We received {amount} for order {ref}, but that order was already paid or cancelled, so this payment "
              "was not applied to it. We'll refund it or apply it to another order: a person from our team will "
              "contact you shortly.",
        "sw": "Tumepokea {amount} kwa oda {ref}, lakini oda hiyo ilikuwa imeshalipwa au kughairiwa, kwa hivyo malipo "
              "haya hayajatumika kwake. Tutakurudishia au kuyatumia kwa oda nyingine: mtu wa timu yetu atawasiliana "
              "nawe hivi karibuni.",
    },
    # an M-Pesa confirmation code sent by the customer (Till payments carry no order number)
    "code_no_order": {
        "en": "Thanks for the code {code}. I don't see an order of yours waiting for payment, so I can't match it "
              "to one.",
        "sw": "Asante kwa code {code}. Sioni oda yako inayosubiri malipo, kwa hivyo siwezi kuilinganisha na oda.",
    },
    "code_wrong_amount": {
        "en": "The M-Pesa payment {code} is {received}, but order {ref} is {due}, so I can't apply it to the "
              "order.",
        "sw": "Malipo ya M-Pesa {code} ni {received}, lakini oda {ref} ni {due}, kwa hivyo siwezi kuyatumia "
              "kwa oda hii.",
    },
    "code_order_paid": {
        "en": "Order {ref} is already paid, so the payment {code} was not applied to it.",
        "sw": "Oda {ref} tayari imelipwa, kwa hivyo malipo {code} hayakutumika kwayo.",
    },
    "code_order_closed": {
        "en": "Order {ref} is closed, so the payment {code} was not applied to it.",
        "sw": "Oda {ref} imefungwa, kwa hivyo malipo {code} hayakutumika kwayo.",
    },
    "code_used": {
        "en": "The M-Pesa payment {code} has already been used for another payment.",
        "sw": "Malipo ya M-Pesa {code} tayari yametumika kwa malipo mengine.",
    },
    "turn_failed": {
        "en": "Sorry, I couldn't handle your last message. Please send it again in other words, or ask for a "
              "person.",
        "sw": "Samahani, sikuweza kushughulikia ujumbe wako wa mwisho. Tafadhali utume tena kwa maneno mengine, "
              "au uombe kuongea na mtu.",
    },
    "code_which_phone": {
        "en": "The M-Pesa payment {code} was made from another phone number. Which number paid it? Send it "
              "like 0712 345 678.",
        "sw": "Malipo ya M-Pesa {code} yalifanywa kwa namba nyingine ya simu. Ni namba gani iliyolipa? "
              "Itume hivi: 0712 345 678.",
    },
    "code_other_payer": {
        "en": "The M-Pesa payment {code} did not come from that number either, so I can't apply it to your "
              "order.",
        "sw": "Malipo ya M-Pesa {code} hayakutoka kwa namba hiyo pia, kwa hiyo siwezi kuyaweka kwenye oda yako.",
    },
    "code_unknown": {
        "en": "I can't find an M-Pesa payment with the code {code} yet. Please check the code in your M-Pesa "
              "message; a payment can take a minute or two to reach us, so send it again shortly. Order {ref} "
              "is waiting for {due}.",
        "sw": "Sijapata malipo ya M-Pesa yenye code {code} bado. Tafadhali angalia code kwenye ujumbe wako wa "
              "M-Pesa; malipo yanaweza kuchukua dakika moja au mbili kutufikia, kwa hivyo itume tena baadaye "
              "kidogo. Oda {ref} inasubiri {due}.",
    },
    "code_unknown_order_paid": {
        "en": "I can't find an M-Pesa payment with the code {code}, and order {ref} is already paid: nothing more "
              "is due on it.",
        "sw": "Sijapata malipo ya M-Pesa yenye code {code}, na oda {ref} tayari imelipwa: hakuna kinachodaiwa "
              "zaidi.",
    },
    "code_offer_person": {
        "en": "If you're sure it's right, send the code again or ask for a person and our team will check it.",
        "sw": "Kama una uhakika ni sahihi, tuma code tena au omba kuongea na mtu na timu yetu itaiangalia.",
    },
    "no_open_order": {
        "en": "I don't see an order waiting for payment. What would you like to buy?",
        "sw": "Sioni oda inayosubiri malipo. Ungependa kununua nini?",
    },
    # bookings (services with a duration)
    "booking_slots": {
        "en": "Free times for {service}{days}:",
        "sw": "Nafasi zilizo wazi za {service}{days}:",
        "sheng": "Time ziko free za {service}{days}:",
    },
    "booking_slots_button": {"en": "Times", "sw": "Nyakati"},
    "booking_slots_footer": {"en": "Or tell me another day or time", "sw": "Au niambie siku au saa nyingine"},
    "booking_none_asked": {
        "en": "Nothing is free for {service}{days}. The nearest free times:",
        "sw": "Hakuna nafasi ya {service}{days}. Nafasi zilizo karibu zaidi:",
        "sheng": "Hakuna time iko free ya {service}{days}. Zile ziko karibu:",
    },
    "booking_time_taken": {
        "en": "{service} on {when}{with_staff} is not free. The nearest free times:",
        "sw": "{service} {when}{with_staff} haiko wazi. Nafasi zilizo karibu zaidi:",
        "sheng": "{service} {when}{with_staff} haiko free. Zile ziko karibu:",
    },
    "booking_with_staff": {"en": " with {staff}", "sw": " na {staff}"},
    "booking_closed": {"en": "We're closed on {days}.", "sw": "Tumefunga {days}."},
    "booking_too_far": {
        "en": "We take bookings up to {n} days ahead.",
        "sw": "Tunapokea booking hadi siku {n} mbele.",
    },
    "booking_none_at_all": {
        "en": "There's no free time for {service} in the next {n} days. Send \"agent\" and a person from our team "
              "will help.",
        "sw": "Hakuna nafasi ya {service} katika siku {n} zijazo. Tuma \"agent\" na mtu wa timu yetu atakusaidia.",
    },
    "booking_staff_unable": {
        "en": "{staff} doesn't do {service}; these are the times with our team.",
        "sw": "{staff} hafanyi {service}; hizi ni nafasi za timu yetu.",
    },
    "booking_staff_free": {"en": "with {staff}", "sw": "na {staff}"},
    "booking_ask_zone": {
        "en": "{service} is done at your place. Which area are you in? (the travel fee is shown)",
        "sw": "{service} hufanywa kwako. Uko eneo gani? (nauli ya kufika imeonyeshwa)",
    },
    "booking_zone_button": {"en": "Areas", "sw": "Maeneo"},
    "booking_zone_not_served": {
        "en": "Sorry, we don't come to \"{place}\". These are the areas we serve:",
        "sw": "Samahani, hatufiki \"{place}\". Haya ndiyo maeneo tunayohudumia:",
    },
    "booking_taken": {
        "en": "Sorry, {when} was just taken.",
        "sw": "Samahani, {when} imechukuliwa sasa hivi.",
    },
    "booking_summary": {
        "en": "Please confirm your booking:\n{service}\n{when} with {staff}\n{place}\nPrice: {price}{travel}",
        "sw": "Tafadhali thibitisha booking yako:\n{service}\n{when} na {staff}\n{place}\nBei: {price}{travel}",
        "sheng": "Confirm booking yako:\n{service}\n{when} na {staff}\n{place}\nBei: {price}{travel}",
    },
    "booking_at_shop": {"en": "At {shop}", "sw": "Mahali: {shop}"},
    "booking_at_home": {"en": "At your place: {address}", "sw": "Kwako: {address}"},
    "booking_travel": {"en": " + travel {fee}", "sw": " + nauli {fee}"},
    "booking_deposit_line": {
        "en": "Deposit to pay now: {deposit} (the rest, {balance}, at the appointment).",
        "sw": "Deposit ya kulipa sasa: {deposit} (kiasi kilichobaki, {balance}, siku ya miadi).",
    },
    "booking_no_deposit_line": {
        "en": "Nothing to pay now: you pay {balance} at the appointment.",
        "sw": "Hakuna malipo sasa: utalipa {balance} siku ya miadi.",
    },
    "booking_held_until": {
        "en": "I'm holding this time for you until {until}.",
        "sw": "Nakushikilia nafasi hii hadi {until}.",
    },
    "booking_stk_offer": {
        "en": "Tap \"{button}\" and I'll send an M-Pesa prompt for {deposit} to {phone}.",
        "sw": "Bonyeza \"{button}\" nami nitatuma ombi la M-Pesa la {deposit} kwa {phone}.",
    },
    "booking_btn_pay_stk": {"en": "Pay deposit M-Pesa", "sw": "Lipa deposit M-Pesa"},
    "booking_btn_pay_other": {"en": "Other ways to pay", "sw": "Njia nyingine"},
    "booking_btn_confirm": {"en": "Confirm", "sw": "Thibitisha"},
    "booking_btn_other_time": {"en": "Another time", "sw": "Saa nyingine"},
    "booking_btn_cancel": {"en": "Cancel", "sw": "Ghairi"},
    "booking_deposit_order": {
        "en": "Deposit for booking {booking}: order {ref}.",
        "sw": "Deposit ya booking {booking}: oda {ref}.",
    },
    "booking_confirmed": {
        "en": "Booked! {service}, {when} with {staff}. {place}. Booking {ref}.",
        "sw": "Imewekwa! {service}, {when} na {staff}. {place}. Booking {ref}.",
        "sheng": "Imebook! {service}, {when} na {staff}. {place}. Booking {ref}.",
    },
    "booking_balance_line": {
        "en": "You pay the balance of {balance} at the appointment.",
        "sw": "Utalipa kiasi kilichobaki cha {balance} siku ya miadi.",
    },
    "booking_released": {
        "en": "Okay, I've let that time go. Message me whenever you'd like to book.",
        "sw": "Sawa, nimeachilia nafasi hiyo. Niandikie wakati wowote ungependa kubook.",
    },
    "booking_slot_released": {
        "en": "The time you chose for booking {ref} was released before your deposit arrived.",
        "sw": "Nafasi uliyochagua kwa booking {ref} iliachiliwa kabla deposit yako haijafika.",
    },
    "booking_none_upcoming": {
        "en": "You have no upcoming booking with us. Would you like to book something?",
        "sw": "Huna booking inayokuja nasi. Ungependa kubook kitu?",
    },
    "booking_details": {
        "en": "Your booking {ref}: {service}, {when} with {staff}. {place}.",
        "sw": "Booking yako {ref}: {service}, {when} na {staff}. {place}.",
    },
    "booking_awaiting_deposit": {
        "en": "It's waiting for the deposit of {amount} (order {order}).",
        "sw": "Inasubiri deposit ya {amount} (oda {order}).",
    },
    "booking_btn_move": {"en": "Change time", "sw": "Badilisha saa"},
    "booking_btn_cancel_booking": {"en": "Cancel booking", "sw": "Ghairi booking"},
    "booking_btn_coming": {"en": "I'll be there", "sw": "Nitafika"},
    "booking_btn_keep": {"en": "Keep it", "sw": "Iache ilivyo"},
    "booking_btn_yes_cancel": {"en": "Yes, cancel it", "sw": "Ndiyo, ghairi"},
    "booking_move_inside_notice": {
        "en": "Your appointment is less than {hours} hours away, so it can't be moved here: I'm asking our team.",
        "sw": "Miadi yako iko chini ya saa {hours} kutoka sasa, kwa hivyo haiwezi kubadilishwa hapa: ninawaomba "
              "wenzetu wakusaidie.",
    },
    "booking_move_max": {
        "en": "This booking has already been moved as many times as we allow, so it can't be moved again here. "
              "{contact}",
        "sw": "Booking hii imeshabadilishwa mara zote tunazoruhusu, kwa hivyo haiwezi kubadilishwa tena hapa. "
              "{contact}",
    },
    "booking_move_which": {
        "en": "Moving your {service} ({when}). Here are the nearest free times:",
        "sw": "Tunabadilisha {service} yako ({when}). Hizi ni nafasi zilizo karibu zaidi:",
    },
    "booking_moved": {
        "en": "Done: your {service} is now {when} with {staff}. Booking {ref}.",
        "sw": "Sawa: {service} yako sasa ni {when} na {staff}. Booking {ref}.",
        "sheng": "Poa: {service} yako sasa ni {when} na {staff}. Booking {ref}.",
    },
    "booking_cancel_ask": {
        "en": "Cancel your {service}, {when}? {deposit}",
        "sw": "Ghairi {service} yako, {when}? {deposit}",
    },
    "booking_deposit_refund": {
        "en": "Your deposit of {amount} will be refunded.",
        "sw": "Deposit yako ya {amount} itarudishwa.",
    },
    "booking_deposit_kept": {
        "en": "Your deposit of {amount} is kept: our policy keeps it for cancellations less than {hours} hours "
              "before.",
        "sw": "Deposit yako ya {amount} haitarudishwa: sera yetu haiirudishi kwa kughairi chini ya saa {hours} "
              "kabla.",
    },
    "booking_cancelled": {
        "en": "Booking {ref} is cancelled. {deposit}",
        "sw": "Sawa, booking yako {ref} imeghairiwa. {deposit}",
        "sheng": "Poa, booking yako {ref} imecancel. {deposit}",
    },
    "booking_kept": {
        "en": "Okay, your booking stays as it is.",
        "sw": "Sawa, booking yako inabaki ilivyo.",
    },
    "booking_see_you": {
        "en": "Thank you! See you {when}.",
        "sw": "Asante! Tutaonana {when}.",
    },
    "booking_stale": {
        "en": "That button is for a booking that is no longer waiting. Tell me the service and the day you'd like.",
        "sw": "Kitufe hicho ni cha booking ambayo haisubiri tena. Niambie huduma na siku ungependa.",
    },
    "booking_reminder": {
        "en": "A reminder of your appointment: {service}, {when} with {staff}.",
        "sw": "Kumbukumbu ya miadi yako: {service}, {when} na {staff}.",
        "sheng": "Kumbuka appointment yako: {service}, {when} na {staff}.",
    },
    "booking_cancelled_by_shop": {
        "en": "Sorry, {shop} has cancelled your {service}, {when} (booking {ref}).{deposit} Message us to book "
              "another time.",
        "sw": "Samahani, {shop} imeghairi {service} yako, {when} (booking {ref}).{deposit} Tuandikie kubook "
              "wakati mwingine.",
    },
    "booking_deposit_kept_shop": {
        "en": "Your deposit of {amount} is kept, as our policy says.",
        "sw": "Deposit yako ya {amount} haitarudishwa, kama sera yetu inavyosema.",
    },
    "booking_moved_by_shop": {
        "en": "{shop} has moved your {service} to {when} with {staff} (booking {ref}). Reply here if that time "
              "doesn't suit you.",
        "sw": "{shop} imehamisha {service} yako hadi {when} na {staff} (booking {ref}). Jibu hapa kama wakati huo "
              "haukufai.",
    },
    "booking_moved_words": {"en": "has moved to {when}", "sw": "imehamishwa hadi {when}"},
    "booking_made_by_shop": {
        "en": "{shop} has booked your {service} for {when} with {staff} (booking {ref}). Reply here if you need "
              "to change it.",
        "sw": "{shop} imekuwekea {service} {when} na {staff} (booking {ref}). Jibu hapa ukihitaji kuibadilisha.",
    },
    "booking_deposit_asked": {
        "en": "It is confirmed when the deposit of {amount} (order {order}) is paid.{how}",
        "sw": "Itathibitishwa deposit ya {amount} (oda {order}) ikilipwa.{how}",
    },
    "booking_deposit_no_prompt": {
        "en": "We could not send an M-Pesa prompt to your phone just now: reply here and we will help you pay it.",
        "sw": "Hatukuweza kutuma ombi la M-Pesa kwenye simu yako sasa hivi: jibu hapa tukusaidie kulipa.",
    },
    "booking_deposit_prompt": {
        "en": "An M-Pesa prompt is on your phone: enter your PIN to pay.",
        "sw": "Ombi la M-Pesa liko kwenye simu yako: weka PIN kulipa.",
    },
    "booking_made_words": {"en": "is booked for {when}", "sw": "imewekwa {when}"},
    "booking_held_words": {
        "en": "is held for {when} until the deposit of {amount} is paid",
        "sw": "imeshikiliwa {when} hadi deposit ya {amount} ilipwe",
    },
    "resume_booking": {"en": "Back to your booking:", "sw": "Turudi kwenye booking yako:"},
    # offers
    "offers_list": {"en": "Current offers for you:\n{offers}", "sw": "Ofa zilizopo kwako:\n{offers}"},
    "no_offers": {
        "en": "There are no offers available for you right now.",
        "sw": "Hakuna ofa inayopatikana kwako kwa sasa.",
    },
    "offers_apply_hint": {
        "en": "Send the code when you're ordering and I'll apply it.",
        "sw": "Tuma code unapoagiza na nitaiweka.",
    },
    "coupon_applied": {
        "en": "Code {code} applied to order {ref}: -{discount}. New total: {total}.",
        "sw": "Code {code} imewekwa kwenye oda {ref}: -{discount}. Jumla mpya: {total}.",
    },
    "coupon_rejected": {"en": "Sorry, code {code} can't be used: {reason}", "sw": "Samahani, code {code} haiwezi "
                                                                                     "kutumika: {reason}"},
    "coupon_no_order": {
        "en": "Code {code} noted. I'll apply it as soon as we've put your order together. What would you like?",
        "sw": "Code {code} nimeipokea. Nitaiweka tukishaandaa oda yako. Ungependa nini?",
    },
    # failures
    "tool_error": {
        "en": "Sorry, something went wrong on our side. Please try again in a moment.",
        "sw": "Samahani, kuna hitilafu upande wetu. Tafadhali jaribu tena baada ya muda mfupi.",
    },
    "media_unsupported": {
        "en": "I can read text, photos and voice notes, but not this kind of file. Please type what you need.",
        "sw": "Naweza kusoma maandishi, picha na sauti, lakini si faili ya aina hii. Tafadhali andika unachohitaji.",
    },
    "media_too_large": {
        "en": "That file is too large for me to open (photos up to 5 MB, voice notes up to 16 MB). "
        "Please send a smaller one or type what you need.",
        "sw": "Faili hiyo ni kubwa mno kwangu kufungua (picha hadi MB 5, sauti hadi MB 16). "
        "Tafadhali tuma ndogo zaidi au uandike unachohitaji.",
    },
    "media_unavailable": {
        "en": "I couldn't open that file. Please send it again, or type what you need.",
        "sw": "Sikuweza kufungua faili hiyo. Tafadhali itume tena, au uandike unachohitaji.",
    },
    "photo_what_is_it": {
        "en": "Thanks for the photo! I can't tell from it what you're looking for. What is it called? "
        "(The name or brand on it helps.) If it's an M-Pesa message, please type its code.",
        "sw": "Asante kwa picha! Siwezi kujua kutoka kwayo unachotafuta. Inaitwaje? "
        "(Jina au brand iliyo juu yake inasaidia.) Kama ni ujumbe wa M-Pesa, tafadhali andika code yake.",
    },
    "voice_unavailable": {
        "en": "I can't listen to voice notes right now. Please type what you need.",
        "sw": "Siwezi kusikiliza ujumbe wa sauti kwa sasa. Tafadhali andika unachohitaji.",
    },
    "voice_listening": {
        "en": "🎧 Listening to your voice note…",
        "sw": "🎧 Ninasikiliza ujumbe wako wa sauti…",
    },
    "voice_unclear": {
        "en": "Sorry, I couldn't make out your voice note. Could you type it for me?",
        "sw": "Samahani, sikuweza kusikia vizuri ujumbe wako wa sauti. Unaweza kuniandikia?",
    },
    "screenshot_unread": {
        "en": "I couldn't read the M-Pesa code in that picture. Please type the code (like SKL4ABC123).",
        "sw": "Sikuweza kusoma code ya M-Pesa kwenye picha hiyo. Tafadhali andika code (kama SKL4ABC123).",
    },
    "screenshot_other_number": {
        "en": "That M-Pesa message shows a payment to {number}, not to our number {ours}, so it can't pay "
        "your order.",
        "sw": "Ujumbe huo wa M-Pesa unaonyesha malipo kwa {number}, si kwa namba yetu {ours}, kwa hivyo hauwezi "
        "kulipia oda yako.",
    },
}

COUPON_REASONS: dict[str, dict[str, str]] = {
    "unknown_code": {"en": "there is no offer with that code.", "sw": "hakuna ofa yenye code hiyo."},
    "expired": {"en": "that offer has ended.", "sw": "ofa hiyo imeisha."},
    "not_started": {"en": "that offer hasn't started yet.", "sw": "ofa hiyo bado haijaanza."},
    "not_today": {"en": "that offer isn't valid today.", "sw": "ofa hiyo si halali leo."},
    "usage_limit_reached": {"en": "it has been fully redeemed.", "sw": "imeshatumika yote."},
    "already_used": {"en": "you've already used it.", "sw": "umeshaitumia."},
    "requires_opt_in": {"en": "it's for customers subscribed to our WhatsApp offers.",
                        "sw": "ni ya wateja waliojiunga na ofa zetu za WhatsApp."},
    "first_order_only": {"en": "it's for a first order only.", "sw": "ni ya oda ya kwanza tu."},
    "below_min_order": {"en": "the order is below the minimum for it.", "sw": "oda iko chini ya kiwango cha chini."},
    "no_eligible_items": {"en": "it doesn't cover the items in this order.",
                          "sw": "haihusu bidhaa zilizo kwenye oda hii."},
    "one_code_per_order": {"en": "this order already uses another code.", "sw": "oda hii tayari ina code nyingine."},
    "better_offer_applied": {"en": "this order already has a bigger discount.",
                             "sw": "oda hii tayari ina punguzo kubwa zaidi."},
    "equal_offer_applied": {"en": "this order already has the same discount.",
                            "sw": "oda hii tayari ina punguzo sawa na hilo."},
}

# what happened to an order, as the third parameter of the order_update template
ORDER_UPDATE_WORDS: dict[str, dict[str, str]] = {
    "confirmed": {"en": "is confirmed and being prepared", "sw": "imethibitishwa na inaandaliwa"},
    "dispatched": {"en": "is on its way", "sw": "iko njiani"},
    "ready_for_pickup": {"en": "is ready for pickup", "sw": "iko tayari kuchukuliwa"},
    "delivered": {"en": "has been delivered", "sw": "imefikishwa"},
    "cancelled": {"en": "has been cancelled", "sw": "imeghairiwa"},
    "refunded": {"en": "has had {amount} sent back to you", "sw": "imekurudishia {amount}"},
    "credit_applied": {"en": "has had {amount} you paid before put towards it",
                       "sw": "imewekewa {amount} ulizolipa awali"},
}

STATUS_WORDS: dict[str, dict[str, str]] = {
    "draft": {"en": "waiting for you to choose how to pay", "sw": "inasubiri uchague njia ya kulipa"},
    "pending_payment": {"en": "waiting for payment", "sw": "inasubiri malipo"},
    "payment_failed": {"en": "payment not completed", "sw": "malipo hayajakamilika"},
    "paid": {"en": "paid, being prepared", "sw": "imelipwa, inaandaliwa"},
    "fulfilled": {"en": "completed", "sw": "imekamilika"},
    "cancelled": {"en": "cancelled", "sw": "imeghairiwa"},
    "none": {"en": "not paid yet", "sw": "bado haijalipwa"},
    "pending": {"en": "pending", "sw": "inasubiri"},
    "failed": {"en": "failed", "sw": "imeshindikana"},
    "timeout": {"en": "not completed (timed out)", "sw": "haikukamilika (muda uliisha)"},
}
# fmt: on


def template_language(lang: str, sheng_replies: str = "sw") -> str:
    """The templates a reply in ``lang`` uses: Sheng speakers get what the shop chose (Sheng, Swahili
    or English); mixed messages get Swahili, or English if the shop answers Sheng in English."""
    if lang in ("en", "sw"):
        return lang
    if sheng_replies not in ("sheng", "sw", "en"):
        return "en"
    return sheng_replies if lang == "sheng" or sheng_replies == "en" else "sw"


def _in(texts: dict[str, str], language: str) -> str:
    """A Sheng reply uses a template's Sheng text where it has one, else its Swahili."""
    if language == "sheng" and "sheng" not in texts:
        language = "sw"
    return texts.get(language) or texts["en"]


def render(key: str, lang: str, sheng_fallback: str = "sw", **facts: Any) -> str:
    """Fill template ``key`` in ``lang`` (Sheng as the shop chose, mixed in English) with facts."""
    return _in(TEMPLATES[key], template_language(lang, sheng_fallback)).format_map(_Facts(facts))


def word(table: dict[str, dict[str, str]], key: str, lang: str, sheng_fallback: str = "sw") -> str:
    entry = table.get(key)
    return _in(entry, template_language(lang, sheng_fallback)) if entry else key


def payment_outcome(status: str, lang: str, sheng_fallback: str = "sw", **facts: Any) -> str:
    """What the customer is told about a payment in ``status`` (paid, pending, failed, cancelled,
    timeout): after "did it go through?" and when a provider's outcome arrives. Facts: ``amount``,
    ``ref``, ``receipt``; ``method`` names the receipt (an M-Pesa receipt, or a card payment's
    confirmation code)."""
    method = facts.pop("method", None)
    key = {
        "paid": ("payment_status_paid_card" if method == "pesapal" else "payment_status_paid")
        if facts.get("receipt") not in (None, "", "-")
        else "payment_status_paid_no_receipt",
        "pending": "payment_status_pending",
        "cancelled": "payment_status_cancelled",
        "timeout": "payment_status_timeout",
    }.get(status, "payment_status_failed")
    return render(key, lang, sheng_fallback, **facts)


def c2b_instructions(c2b: dict[str, Any], lang: str, sheng_fallback: str = "sw") -> str:
    """The Paybill or Till steps, from ``payment_get_c2b_instructions`` output."""
    return render(
        "c2b_paybill" if c2b["method"] == "paybill" else "c2b_till",
        lang,
        sheng_fallback,
        business=c2b["business_number"],
        account=c2b["account_reference"] or "",
        amount=money(c2b["amount"]),
        ref=c2b["order_ref"],
    )


_WEEKDAYS = {
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "sw": ("Jumatatu", "Jumanne", "Jumatano", "Alhamisi", "Ijumaa", "Jumamosi", "Jumapili"),
}


def when_back(at: datetime, now: datetime, lang: str, sheng_replies: str = "sw") -> str:
    """'tomorrow at 8:00 am' / 'kesho saa 2 asubuhi': when the team is next in, said the way the
    customer's language says time (Swahili counts hours from 6 am and 6 pm)."""
    language = "en" if template_language(lang, sheng_replies) == "en" else "sw"
    local, today = at.astimezone(NAIROBI), now.astimezone(NAIROBI).date()
    days = (local.date() - today).days
    if language == "en":
        clock = local.strftime("%I:%M %p").lstrip("0").lower()
        day = "today" if days == 0 else "tomorrow" if days == 1 else f"on {_WEEKDAYS['en'][local.weekday()]}"
        return f"{day} at {clock}"
    day = "leo" if days == 0 else "kesho" if days == 1 else _WEEKDAYS["sw"][local.weekday()]
    return f"{day} {_swahili_clock(local)}"


def clock_words(at: time, lang: str, sheng_replies: str = "sw") -> str:
    """'8:00 am' / 'saa 2 asubuhi': a time of day as the customer's language says it."""
    local = datetime.combine(date(2026, 1, 5), at)
    if template_language(lang, sheng_replies) == "en":
        return local.strftime("%I:%M %p").lstrip("0").lower()
    return _swahili_clock(local)


def weekday_name(day: int, lang: str, sheng_replies: str = "sw") -> str:
    """'Monday' / 'Jumatatu' (0 is Monday)."""
    return _WEEKDAYS["en" if template_language(lang, sheng_replies) == "en" else "sw"][day]


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _swahili_clock(local: datetime) -> str:
    """Swahili time: hours counted from 6 am and 6 pm ("saa 4 asubuhi" is 10:00)."""
    hour = (local.hour - 6) % 12 or 12
    minutes = f":{local.minute:02d}" if local.minute else ""
    part = (
        "asubuhi" if 5 <= local.hour < 12 else "mchana" if local.hour < 16 else "jioni" if local.hour < 19 else "usiku"
    )
    return f"saa {hour}{minutes} {part}"


def day_name(day: date, lang: str, sheng_replies: str = "sw", *, short: bool = False) -> str:
    """'Sat 28 Nov' / 'Jumamosi 28 Nov': a day named with its date, so a different reading is visible."""
    if template_language(lang, sheng_replies) == "en":
        return f"{_WEEKDAYS['en'][day.weekday()][:3]} {day.day} {_MONTHS[day.month - 1]}"
    name = _WEEKDAYS["sw"][day.weekday()]
    return f"{name} {day.day}/{day.month}" if short else f"{name} {day.day} {_MONTHS[day.month - 1]}"


def slot_when(at: datetime, lang: str, sheng_replies: str = "sw") -> str:
    """'Sat 28 Nov at 10:00' / 'Jumamosi 28 Nov saa 4 asubuhi (10:00)': an appointment's day and time in
    the shop's time, the way the customer's language says it."""
    local = at.astimezone(NAIROBI)
    day = day_name(local.date(), lang, sheng_replies)
    if template_language(lang, sheng_replies) == "en":
        return f"{day} at {local:%H:%M}"
    return f"{day} {_swahili_clock(local)} ({local:%H:%M})"


def slot_row(at: datetime, lang: str, sheng_replies: str = "sw") -> tuple[str, str | None]:
    """A list row for a free time: its title (at most 24 characters) and, in Swahili, the Swahili time."""
    local = at.astimezone(NAIROBI)
    title = f"{day_name(local.date(), lang, sheng_replies, short=True)} {local:%H:%M}"
    return title, (None if template_language(lang, sheng_replies) == "en" else _swahili_clock(local))


def day_names(days: list[date], lang: str, sheng_replies: str = "sw") -> str:
    """'Sat 28 Nov, Sun 29 Nov' (the first three)."""
    return ", ".join(day_name(d, lang, sheng_replies) for d in days[:3]) + (", ..." if len(days) > 3 else "")


def days_named(days: list[date], lang: str, sheng_replies: str = "sw") -> str:
    """' on Sat 28 Nov' / ' Jumamosi 28 Nov' (empty when no day was asked)."""
    if not days:
        return ""
    names = day_names(days, lang, sheng_replies)
    return f" on {names}" if template_language(lang, sheng_replies) == "en" else f" {names}"


def money(amount: int) -> str:
    return format_kes(amount)


class _Facts(dict[str, Any]):
    """Missing facts render as empty text rather than failing a whole reply."""

    def __missing__(self, key: str) -> str:
        return ""
