// What a message the bot did not understand may have meant: the reader's intents, in the order an owner looks for
// them (a purchase first), and which of them name an item and a count.

import type { components } from "../api-schema";

export type Intent = components["schemas"]["LabelInput"]["intent"];

export const INTENTS: readonly Intent[] = [
  "sales_discovery",
  "product_question",
  "order_status",
  "payment_help",
  "support_question",
  "discounts_offers",
  "preferences_consent",
  "human_request",
  "spam_casual",
  "unknown",
];

/** An item and a count go with a purchase or a question about an item (the admin API refuses them otherwise). */
export function isPurchase(intent: Intent | ""): boolean {
  return intent === "sales_discovery" || intent === "product_question";
}
