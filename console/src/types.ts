// The admin API's shapes, as the console reads them (see /admin/openapi.json).

export type Priority = "low" | "normal" | "high" | "urgent";
export type TicketStatus = "open" | "claimed" | "resolved";

export interface CustomerBrief {
  customer_id: string;
  name: string | null;
  phone: string | null;
}

export interface TranscriptEntry {
  role: "customer" | "agent" | "bot";
  text: string;
  at: string;
  by?: string | null;
  message_id?: string | null;
}

export interface Ticket {
  ticket_id: string;
  customer_id: string;
  reason: string;
  priority: Priority;
  status: TicketStatus;
  context_snapshot: { summary?: string; order_id?: string | null; language?: string; last_messages?: unknown[] };
  assigned_to: string | null;
  transcript: TranscriptEntry[];
  last_customer_message_at: string | null;
  created_at: string;
  updated_at: string;
  customer: CustomerBrief | null;
}

export type OrderStatus = "draft" | "pending_payment" | "paid" | "fulfilled" | "cancelled" | "payment_failed";
export type PaymentState = "none" | "pending" | "paid" | "failed" | "cancelled" | "timeout";
export type Fulfilment = "not_started" | "processing" | "dispatched" | "delivered" | "ready_for_pickup";

export interface OrderLine {
  item_id: string;
  name: string;
  quantity: number;
  unit_price: number;
  line_total: number;
  variant_selection: Record<string, string>;
}

export interface Order {
  order_id: string;
  customer_id: string;
  status: OrderStatus;
  payment_status: PaymentState;
  fulfilment_status: Fulfilment;
  lines: OrderLine[];
  delivery: { mode: "delivery" | "pickup" | null; zone?: string | null; address_text?: string | null };
  totals: { subtotal: number; delivery_fee: number; discount: number; total: number };
  offer?: { code?: string | null; title?: string } | null;
  paid_amount: number;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
  customer?: CustomerBrief | null;
}

export interface Payment {
  payment_id: string;
  method: string;
  amount: number;
  status: string;
  receipt: string | null;
  created_at: string;
  updated_at: string;
}

export interface HistoryEntry {
  at: string;
  event: string;
  detail: string | null;
  method: string | null;
  by: string | null;
}

export interface OrderDetail {
  order: Order;
  payments: Payment[];
  customer: CustomerBrief | null;
  history: HistoryEntry[];
}

export interface UnmatchedPayment {
  trans_id: string;
  method: string;
  amount: string;
  bill_ref: string;
  payer_name: string;
  /** Daraja's MSISDN as sent: masked ("2547 ***** 126") or a hash */
  payer_phone: string;
  reason: string;
  order_id: string | null;
  status: string;
  received_at: string;
}

/** Money the shop owes back: an overpayment, or a paid deposit due back after a cancellation. */
export interface OwedBack {
  payment_id: string;
  order_id: string;
  method: string;
  provider_ref: string;
  amount: number;
  receipt: string | null;
  reason: string;
  booking_id: string | null;
  status: "open" | "refunded" | "applied";
  received_at: string;
  closed_at: string | null;
  closed_by: string | null;
  note: string | null;
}

export interface VariantOption {
  value: string;
  price_delta: number;
}

export interface VariantDimension {
  name: string;
  options: VariantOption[];
}

export interface CatalogItem {
  item_id: string;
  type: "product" | "service";
  name: string;
  category: string;
  price: number;
  stock: number | null;
  variants: VariantDimension[];
  tags: string[];
  brand: string | null;
  description: string;
  active: boolean;
}

export interface ImportReport {
  format: "csv" | "json";
  partial: boolean;
  rows: number;
  written: number;
  invalid: number;
  problems: string[];
  invalid_rows: { row: number; sku: string; errors: { field: string | null; message: string | null }[] }[];
}

export interface Offer {
  offer_id: string;
  code: string | null;
  title: string;
  description: string;
  kind: "percent" | "fixed";
  value: number;
  valid_from: string;
  valid_to: string;
  min_order: number;
  requires_opt_in: boolean;
  redemptions: number;
  active: boolean;
}

export interface KbDocument {
  doc_id: string;
  title: string;
  filename: string;
  source_type: string;
  status: "pending" | "processing" | "ready" | "failed" | string;
  chunk_count: number;
  error: string | null;
  flags: string[];
  updated_at: string;
}

export interface KbSource {
  doc_id: string;
  title: string;
  section: string | null;
  text: string;
  score: number;
  coverage: number; // the share of the question's words the passage holds
}

export interface TryAnswer {
  answer: string;
  answer_found: boolean;
  sources: KbSource[];
  withheld_numbers: string[];
  closest: KbSource[]; // when nothing answered: the nearest passages, each short of min_coverage
  min_coverage: number;
}

export interface Funnel {
  searches: number;
  orders_created: number;
  payment_prompts: number;
  orders_paid: number;
}

export interface DayFigures {
  date: string;
  conversations: number;
  messages: number;
  funnel: Funnel;
  revenue_kes: number;
  revenue_by_method: Record<string, number>;
  escalations: number;
  escalation_rate: number | null;
  llm_cost_kes: number;
}

export interface Analytics {
  date_from: string;
  date_to: string;
  conversations: number;
  orders_paid: number;
  revenue_kes: number;
  escalation_rate: number | null;
  llm_estimated_cost_kes: number;
  funnel: Funnel;
  revenue_by_method: Record<string, number>;
  days: DayFigures[];
}

export type LocalText = string | Partial<Record<"en" | "sw" | "sheng", string>>;

export interface Tenant {
  tenant_id: string;
  name: string;
  persona: { bot_name: string; bot_intro: string; tone_style: string; llm_wording: boolean };
  languages: { default: "en" | "sw" | "sheng"; allowed: ("en" | "sw" | "sheng")[]; sheng_replies?: string | null };
  payments: {
    mpesa_stk: { shortcode: string; passkey: string; transaction_type: string; party_b?: string | null } | null;
    mpesa_c2b: { paybill?: string | null; till?: string | null } | null;
    pesapal: { enabled: boolean } | null;
  };
  delivery_zones: { name: string; fee: number; eta: LocalText; areas: string[] }[];
  pickup: { enabled: boolean; address: LocalText | null; eta: LocalText };
  handoff: { enabled: boolean; response_time: LocalText; hours: string | null; contact: LocalText | null };
  /** the Paybill/Till whose C2B URLs are registered; another value than the one listed: still registering */
  c2b_urls_for?: string | null;
}

export interface Me {
  tenant_id: string;
  shop_name: string;
  email: string | null;
  roles: string[];
  languages: string[];
  default_language: string;
}

export interface StaffMember {
  email: string;
  role: "owner" | "agent";
  status: "invited" | "active" | "disabled" | "unknown";
  invited_at: string;
  invited_by: string | null;
}

export type BookingStatus = "held" | "confirmed" | "cancelled" | "expired" | "completed" | "no_show";

export interface BookingMark {
  event: string;
  at: string;
  by: string | null;
  note?: string | null;
}

export interface Booking {
  booking_id: string;
  customer_id: string;
  item_id: string;
  service_name: string;
  staff_id: string;
  staff_name: string;
  start: string;
  end: string;
  place: "shop" | "home";
  zone: string | null;
  address: string | null;
  price: number;
  travel_fee: number;
  deposit: number;
  order_id: string | null;
  status: BookingStatus;
  status_now: string;
  deposit_outcome: "none" | "kept" | "refund_due" | "refunded" | "applied" | "moved" | null;
  to_pay_there: number;
  marks: BookingMark[];
  customer: CustomerBrief | null;
}

export interface BlockedTime {
  block_id: string;
  staff_id: string;
  start: string;
  end: string;
  reason: string;
  by: string | null;
}

export interface Calendar {
  first_day: string;
  days: number;
  staff: { staff_id: string; name: string }[];
  bookings: Booking[];
  blocks: BlockedTime[];
}

export interface CustomerChange {
  booking: Booking;
  event: "moved" | "cancelled" | string;
  at: string;
}
