// The words of a shop's start (creating the account, making the shop, getting it ready), in English and Swahili:
// fetched with those screens only (most people sign in to a shop that exists), as the "start" namespace; the
// screens' other words come from the console's own (i18n.ts: fallbackNS).
import i18next from "i18next";

const en = {
  join: {
    title: "Create an account",
    intro: "Start your shop's WhatsApp assistant: your account first, then your shop.",
    name: "Your name",
    submit: "Create account",
    codeSent: "We emailed a 6-digit code to {{email}}. Type it here.",
    code: "Code from the email",
    confirm: "Verify and continue",
    resend: "Send the code again",
    haveAccount: "Already have an account?",
    exists: "An account with this email exists already: sign in instead.",
    badCode: "That code is not right, or too old. Check the newest email, or send the code again.",
  },
  newShop: {
    title: "Your shop",
    intro: "Tell us about your shop. You can change everything but its id later, in Settings.",
    name: "Shop name (as customers know it)",
    id: "Shop id",
    idHelp: "Small letters, numbers and dashes. It cannot change later.",
    idProblem: {
      taken: "Another shop has this id: choose another.",
      reserved: "This id is kept for Tulia: choose another.",
      malformed: "Use small letters, numbers and single dashes (2 to 48).",
    },
    trade: "What do you sell?",
    pickTrade: "Choose…",
    languages: "Languages your customers write in",
    language: { en: "English", sw: "Swahili", sheng: "Sheng" },
    defaultLanguage: "Answer new customers in",
    botName: "Your assistant's name",
    tone: "How it speaks",
    tones: { friendly_concise: "Friendly and short", warm_chatty: "Warm and chatty", formal_polite: "Formal and polite" },
    submit: "Create my shop",
  },
  setup: {
    title: "Get your shop ready",
    whatsapp: "WhatsApp number",
    whatsappIntro: "Connect the WhatsApp Business number your customers write to. Meta's window opens: choose or create your business and number there.",
    connect: "Connect WhatsApp",
    connecting: "Finish in the window that opened…",
    connected: "Connected: {{number}}",
    templates: "{{approved}} message templates approved; {{pending}} sent to Meta for review.",
    cancelled: "The WhatsApp window was closed before the number was chosen.",
    blocked: "Your browser blocked the WhatsApp window: allow pop-ups for this site and try again.",
    off: "Connecting WhatsApp here is not set up on this server. Ask the person who runs Tulia for you.",
  },
};

const sw = {
  join: {
    title: "Fungua akaunti",
    intro: "Anzisha msaidizi wa WhatsApp wa duka lako: akaunti yako kwanza, kisha duka lako.",
    name: "Jina lako",
    submit: "Fungua akaunti",
    codeSent: "Tumetuma namba ya siri ya tarakimu 6 kwa {{email}}. Iandike hapa.",
    code: "Namba kutoka kwa barua pepe",
    confirm: "Thibitisha uendelee",
    resend: "Tuma namba tena",
    haveAccount: "Una akaunti tayari?",
    exists: "Akaunti ya barua pepe hii ipo tayari: ingia badala yake.",
    badCode: "Namba hiyo si sahihi, au imepitwa na wakati. Angalia barua pepe mpya zaidi, au tuma namba tena.",
  },
  newShop: {
    title: "Duka lako",
    intro: "Tueleze kuhusu duka lako. Unaweza kubadilisha kila kitu isipokuwa kitambulisho chake baadaye, kwenye Mipangilio.",
    name: "Jina la duka (wateja wanavyolijua)",
    id: "Kitambulisho cha duka",
    idHelp: "Herufi ndogo, namba na vistari. Hakiwezi kubadilishwa baadaye.",
    idProblem: {
      taken: "Duka lingine lina kitambulisho hiki: chagua kingine.",
      reserved: "Kitambulisho hiki ni cha Tulia: chagua kingine.",
      malformed: "Tumia herufi ndogo, namba na kistari kimoja kimoja (2 hadi 48).",
    },
    trade: "Unauza nini?",
    pickTrade: "Chagua…",
    languages: "Lugha wateja wako wanaandika",
    language: { en: "Kiingereza", sw: "Kiswahili", sheng: "Sheng" },
    defaultLanguage: "Jibu wateja wapya kwa",
    botName: "Jina la msaidizi wako",
    tone: "Anavyoongea",
    tones: { friendly_concise: "Kirafiki na kwa ufupi", warm_chatty: "Kwa uchangamfu na maneno mengi", formal_polite: "Rasmi na kwa heshima" },
    submit: "Fungua duka langu",
  },
  setup: {
    title: "Tayarisha duka lako",
    whatsapp: "Nambari ya WhatsApp",
    whatsappIntro: "Unganisha nambari ya WhatsApp Business ambayo wateja wako wanaiandikia. Dirisha la Meta litafunguka: chagua au unda biashara na nambari yako hapo.",
    connect: "Unganisha WhatsApp",
    connecting: "Maliza kwenye dirisha lililofunguka…",
    connected: "Imeunganishwa: {{number}}",
    templates: "Jumbe {{approved}} za kiolezo zimeidhinishwa; {{pending}} zimetumwa kwa Meta zikaguliwe.",
    cancelled: "Dirisha la WhatsApp lilifungwa kabla ya kuchagua nambari.",
    blocked: "Kivinjari chako kilizuia dirisha la WhatsApp: ruhusu madirisha ibukizi kwa tovuti hii ujaribu tena.",
    off: "Kuunganisha WhatsApp hapa hakujawekwa kwenye seva hii. Muulize anayekuendeshea Tulia.",
  },
};

i18next.addResourceBundle("en", "start", en);
i18next.addResourceBundle("sw", "start", sw);
