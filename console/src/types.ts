// The admin API's shapes, as the console reads them: generated from /admin/openapi.json into api-schema.ts
// (`make console-types`; tests/unit/test_console_types.py fails when they drift from the API). Only routes that
// return free-form JSON keep a hand-written shape here.

import type { components } from "./api-schema";

type Schemas = components["schemas"];

export type CustomerBrief = Schemas["CustomerBrief"];
export type TranscriptEntry = Schemas["TranscriptEntry"];
export type Ticket = Schemas["TicketView"];
export type OrderLine = Schemas["OrderLine"];
export type Order = Schemas["Order"];
export type OrderRow = Schemas["OrderView"]; // an order in a list: with its customer
export type Payment = Schemas["Payment"];
export type HistoryEntry = Schemas["HistoryEntry"];
export type OrderDetail = Schemas["OrderDetail"];
export type UnmatchedPayment = Schemas["UnmatchedPayment"];
export type OwedBack = Schemas["OwedBack"];
export type VariantOption = Schemas["VariantOption-Output"];
export type VariantDimension = Schemas["VariantDimension-Output"];
export type CatalogItem = Schemas["CatalogItem"];
export type Offer = Schemas["Offer"];
export type OfferRow = Schemas["OfferView"]; // an offer in the list: with where it stands today
export type KbDocument = Schemas["KbDocument"];
export type Funnel = Schemas["Funnel"];
export type DayFigures = Schemas["DayFigures"];
export type Analytics = Schemas["Analytics"];
export type Me = Schemas["Me"];
export type StaffMember = Schemas["StaffUser"];
export type BookingMark = Schemas["BookingMark"];
export type Booking = Schemas["BookingView"];
export type BlockedTime = Schemas["BlockView"];
export type Calendar = Schemas["Calendar"];
export type CustomerChange = Schemas["CustomerChange"];
export type TryAnswer = Schemas["TryAnswer"];
export type Misread = Schemas["MisreadView"]; // a message the bot did not understand, and its label
export type CorpusExport = Schemas["CorpusExport"];
export type Customer = Schemas["Customer"];
export type MessageTemplate = Schemas["MessageTemplate"];
export type Broadcast = Schemas["Broadcast"];
export type BroadcastDetail = Schemas["BroadcastDetail"];
export type DryRun = Schemas["DryRun"];
export type CustomerDetail = Schemas["CustomerDetail"];
export type ConsentEvent = Schemas["ConsentEvent"];
export type ConversationSummary = Schemas["ConversationSummary"];
export type Conversation = Schemas["Conversation"];
export type ThreadEntry = Schemas["ThreadEntry"];
export type StaffNote = Schemas["StaffNote"];
export type QuickReply = Schemas["QuickReply"];
export type QuickReplies = Schemas["QuickReplies"];

export type Priority = Ticket["priority"];
export type TicketStatus = Ticket["status"];
export type OrderStatus = Order["status"];
export type PaymentState = Order["payment_status"];
export type Fulfilment = Order["fulfilment_status"];
export type BookingStatus = Booking["status"];
export type KbSource = TryAnswer["sources"][number];

// what a hand-over ticket's context_snapshot holds (the API keeps it a free-form object)
export interface TicketContext {
  summary?: string;
  order_id?: string | null;
  language?: string;
  last_messages?: unknown[];
  facts?: import("./logic/conversations").HandoffFacts; // worded in the console's language
}

// free-form JSON: GET /admin/tenant (the settings with secrets left out), POST /admin/catalog/import
export type LocalText = string | Partial<Record<"en" | "sw" | "sheng", string>>;

export interface Tenant {
  tenant_id: string;
  name: string;
  persona: { bot_name: string; bot_intro: string; tone_style: string; llm_wording: boolean };
  languages: { default: "en" | "sw" | "sheng"; allowed: ("en" | "sw" | "sheng")[]; sheng_replies?: string | null };
  payments: {
    mpesa_stk: {
      shortcode: string;
      passkey: string;
      transaction_type: string;
      party_b?: string | null;
      consumer_key?: string | null; // the Daraja app's, kept in the shop's secret (shown masked)
      consumer_secret?: string | null;
    } | null;
    mpesa_c2b: { paybill?: string | null; till?: string | null } | null;
    pesapal: { enabled: boolean; consumer_key?: string | null; consumer_secret?: string | null } | null;
  };
  delivery_zones: {
    name: string;
    fee: number;
    eta: LocalText;
    areas: string[];
    // on the map: a customer's location pin falls in the zone within radius_km of the centre, or inside the polygon
    centre?: { lat: number; lon: number } | null;
    radius_km?: number | null;
    polygon?: { lat: number; lon: number }[] | null;
  }[];
  pickup: { enabled: boolean; address: LocalText | null; eta: LocalText };
  hours?: string | null; // when the shop is open ("Mon-Sat 08:00-19:00"): customers who ask are told, in their language
  location?: LocalText | null; // where it is (else the pickup address)
  handoff: { enabled: boolean; response_time: LocalText; hours: string | null; contact: LocalText | null };
  bookings?: BookingSettings | null;
  messaging?: { marketing_hours: string; [key: string]: unknown };
  /** the Paybill/Till whose C2B URLs are registered; another value than the one listed: still registering */
  c2b_urls_for?: string | null;
}

// the tenant.yaml ``bookings`` section (validated by the API as the pack is)
export interface BookingStaffMember {
  id: string;
  name: string;
  hours?: string | null;
  breaks?: string | null;
  days_off?: string[];
}

export interface BookingSettings {
  hours: string;
  holidays?: string[];
  staff?: BookingStaffMember[];
  slot_minutes?: 15 | 30 | 60;
  buffer_minutes?: number;
  hold_minutes?: number;
  min_notice_minutes?: number;
  horizon_days?: number;
  deposit?: { percent?: number | null; amount?: number | null } | null;
  policy?: { notice_hours?: number; late_cancel?: string; early_cancel?: string; max_moves?: number; [key: string]: unknown };
  [key: string]: unknown;
}

export interface ImportReport {
  format: "csv" | "xlsx" | "json";
  partial: boolean;
  rows: number;
  written: number;
  invalid: number;
  problems: string[];
  invalid_rows: { row: number; sku: string; errors: { field: string | null; message: string | null }[] }[];
}
export type AlertFeed = Schemas["AlertFeed"];
export type AlertView = Schemas["AlertView"];
export type AlertSettings = Schemas["AlertSettings"];
export type AlertKind = AlertSettings["kinds"][number];
export type Trade = Schemas["Trade"];
export type ShopIdCheck = Schemas["ShopIdCheck"];
export type NewShop = Schemas["NewShop"];
export type MyShop = Schemas["MyShop"];
export type ShopMade = Schemas["ShopMade"];
export type SignupConfig = Schemas["SignupConfig"];
export type WhatsAppNumber = Schemas["WhatsAppNumber"];
export type WhatsAppConnect = Schemas["ConnectBody"];
export type Checklist = Schemas["Checklist"];
export type PaymentTest = Schemas["TestView"];
export type TrialSay = Schemas["TrialSay"];
export type TrialAnswer = Schemas["TrialAnswer"];
/** POST /admin/shop/pack (its body is a zip, so its answers are typed here, as admin/shop_pack.py defines them) */
export interface PackRead {
  items: number;
  categories: number;
  offers: number;
  documents: number;
}
export interface PackRefused {
  code: "pack_invalid";
  message: string;
  problems: { file: string; location: string | null; message: string }[];
}
export type ShopRow = Schemas["ShopRow"];
