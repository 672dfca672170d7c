/**
 * @module Reminders offered from free text (docs/telegram.md: without a model, a message that reads as a reminder is
 * offered as one): each waits here, under a random id its Create and Cancel buttons carry, until one is pressed.
 * Only the newest are kept: an offer is a question about the message just written.
 */
import * as z from "zod";
import { lazy } from "../../lazy";
import type { ReminderOffer } from "../../telegram/offer";
import type { Db } from "./db";

/** How many offers a chat keeps; an older one's buttons answer that it is gone. */
export const OFFERS_KEPT = 20;

const offerRow = lazy(() =>
  z.object({ id: z.string(), at_ms: z.number().int(), text: z.string(), created_at: z.number().int(), schedule: z.string().nullable() }),
);

export class OfferStore {
  constructor(private readonly db: Db) {}

  add(offer: ReminderOffer): void {
    this.db.sql.exec(
      "INSERT INTO offers (id, at_ms, text, created_at, schedule) VALUES (?, ?, ?, ?, ?)",
      offer.id,
      offer.at,
      offer.text,
      offer.createdAt,
      offer.schedule,
    );
    this.db.sql.exec("DELETE FROM offers WHERE id NOT IN (SELECT id FROM offers ORDER BY created_at DESC, id LIMIT ?)", OFFERS_KEPT);
  }

  /** Takes the offer: it is answered once, whichever button comes first. Null when it is gone. */
  take(id: string): ReminderOffer | null {
    const row = this.db.sql.exec("DELETE FROM offers WHERE id = ? RETURNING id, at_ms, text, created_at, schedule", id).toArray()[0];
    const parsed = offerRow().safeParse(row);
    if (!parsed.success) return null;
    const { id: offerId, at_ms, text, created_at, schedule } = parsed.data;
    return { id: offerId, at: at_ms, text, createdAt: created_at, schedule };
  }
}
