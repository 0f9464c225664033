// The words of the knowledge base screen, in English and Swahili: fetched with that screen only, as the "kb"
// namespace (the first load stays under its bar: BENCHMARKS.md, the console).
import i18next from "i18next";

const en = {
  title: "Knowledge base",
  upload: "Upload a document",
  help: "Policies, FAQs and guides (PDF, Word, Markdown or text). The bot answers customers' questions only from these.",
  none: "No documents yet.",
  chunks: "{{count}} parts",
  uploadFailed: "The upload failed",
  try: "Try a question",
  question: "Question",
  questionPlaceholder: "e.g. Do you deliver on Sunday?",
  ask: "Ask",
  botSays: "The bot would answer:",
  sources: "From:",
  closestWhy: "No part of your documents holds enough of the question's words (at least {{percent}}%). The closest parts:",
  closestScore: "score {{score}}, {{percent}}% of the words",
  flag: {
    payment_details_not_the_shops: "Names payment numbers that are not the shop's",
    instructions_removed: "{{count}} sentences that gave the bot orders were left out",
    no_swahili: "No Swahili: customers who ask in Swahili get a Swahili lead-in and these English words",
  },
};

const sw: typeof en = {
  title: "Hati za duka",
  upload: "Pakia hati",
  help: "Sera, maswali na miongozo (PDF, Word, Markdown au maandishi). Bot inajibu maswali ya wateja kutoka hapa tu.",
  none: "Bado hakuna hati.",
  chunks: "sehemu {{count}}",
  uploadFailed: "Kupakia kumeshindwa",
  try: "Jaribu swali",
  question: "Swali",
  questionPlaceholder: "mf. Mnaleta Jumapili?",
  ask: "Uliza",
  botSays: "Bot ingejibu:",
  sources: "Kutoka:",
  closestWhy: "Hakuna sehemu ya hati zako yenye maneno ya kutosha ya swali (angalau {{percent}}%). Sehemu zilizo karibu zaidi:",
  closestScore: "alama {{score}}, {{percent}}% ya maneno",
  flag: {
    payment_details_not_the_shops: "Inataja namba za malipo zisizo za duka",
    instructions_removed: "Sentensi {{count}} zilizoipa bot amri ziliachwa",
    no_swahili: "Haina Kiswahili: wateja wanaouliza kwa Kiswahili wanapata utangulizi wa Kiswahili na maneno haya ya Kiingereza",
  },
};

i18next.addResourceBundle("en", "kb", en);
i18next.addResourceBundle("sw", "kb", sw);
