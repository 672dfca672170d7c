/** @module The ChatScheduler Durable Object, one per chat (DESIGN §1, §5): for now only a liveness RPC. */
import { DurableObject } from "cloudflare:workers";

/**
 * One chat's scheduler: its jobs, settings, runs, transcript, outbox and run gate live in this object's
 * SQLite storage. The jobs issue fills it in; today it only answers `ping()`, so the binding, the SQLite
 * migration tag and RPC are exercised from the start.
 */
export class ChatScheduler extends DurableObject<Env> {
  /** Answers `"pong"`; touches no storage and arms no alarm. */
  async ping(): Promise<"pong"> {
    return "pong";
  }
}
