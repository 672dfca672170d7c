/**
 * @module What a chat's user writes (DESIGN §6, §7): Telegram updates (deduped by update id) and messages
 * written through the admin API in transcript mode. A command is answered by the chat itself; any other text
 * becomes a prompt for the agent. The Durable Object's RPC methods delegate here.
 */
import type { PromptMessage } from "../contracts/prompt-message";
import { NON_TEXT_REPLY, parseCommand } from "../telegram/commands";
import { plainText } from "../telegram/render";
import { parseButton, updateOrigin, updateSchema } from "../telegram/update";
import { runCommand, type CommandHost } from "./commands";
import { writeDelivery } from "./conversation";
import type { ConversationStore } from "./conversation-store";
import type { ChatEngine } from "./engine";
import { err, ok, type Result } from "../result";
import type { ChatStore } from "./store";

export type InboxDeps = {
  ctx: DurableObjectState;
  /** The object's env, read on each use. */
  env: () => Env;
  store: ChatStore;
  talk: ConversationStore;
  engine: ChatEngine;
  /** The chat's zone now. */
  zone: () => string;
  /** Binds the object to its chat id, or refuses another. */
  bind: (chatId: string) => Result<string>;
  /** The chat's own job operations, which commands use. */
  commands: CommandHost;
};

export class Inbox {
  constructor(private readonly d: InboxDeps) {}

  /**
   * Transcript mode: a message written through the admin API, as the chat's user. It becomes a user entry and
   * a prompt on the queue with key `m:<messageId>`.
   */
  async postUserMessage(chatId: string, text: string): Promise<Result<{ messageId: string }>> {
    const bound = this.d.bind(chatId);
    if (!bound.ok) return bound;
    if (typeof text !== "string" || text.trim() === "" || text.length > 4096) {
      return err("bad_request", `"text" must be 1 to 4096 characters long.`);
    }
    const now = Date.now();
    const id = this.d.talk.append({ role: "user", source: "admin", text }, now);
    const messageId = String(id);
    try {
      await this.receiveText(chatId, text, { key: `m:${messageId}`, messageId }, now);
    } catch (error) {
      this.d.talk.removeEntry(id); // nothing will answer it, so the chat does not keep it
      throw error;
    }
    return ok({ messageId });
  }

  /**
   * A Telegram update for this chat (the Worker checked the secret, the allow-list and the chat type): a
   * repeated `update_id` has no second effect; a command is answered here; other text goes to the agent
   * with key `u:<update_id>`; a button acts like its command and its answer is returned for the callback.
   */
  async handleUpdate(input: unknown): Promise<Result<{ handled: string; callbackText?: string }>> {
    const parsed = updateSchema().safeParse(input);
    if (!parsed.success) return err("bad_request", "The body must be a Telegram update.");
    const update = parsed.data;
    const origin = updateOrigin(update);
    if (!origin) return ok({ handled: "ignored" });
    const bound = this.d.bind(origin.chatId);
    if (!bound.ok) return bound;
    const now = Date.now();
    if (!this.d.talk.firstUpdate(update.update_id, now)) return ok({ handled: "duplicate" });
    try {
      const wasBlocked = this.d.store.setting("blocked") !== null;
      if (wasBlocked) {
        this.d.store.setSetting("blocked", null); // they wrote again
        await this.d.engine.markBlockedInDirectory(origin.chatId, false, now);
      }
      const context = { ...this.commandContext(origin.chatId), blocked: wasBlocked };
      const key = `u:${update.update_id}`;
      const button = update.callback_query ? parseButton(update.callback_query.data) : null;
      if (update.callback_query) {
        if (!button) return ok({ handled: "ignored" });
        const reply = await runCommand(this.d.commands, { name: button.action, args: button.id }, context);
        return ok({ handled: "callback", callbackText: plainText(reply).slice(0, 200) });
      }
      const text = update.message?.text;
      if (text === undefined) {
        this.deliverReply(key, NON_TEXT_REPLY, "command", now);
        await this.d.engine.syncAlarm();
        return ok({ handled: "non-text" });
      }
      const entry = this.d.talk.append({ role: "user", source: "telegram", text }, now);
      try {
        return ok({ handled: await this.receiveText(origin.chatId, text, { key, updateId: update.update_id }, now, context) });
      } catch (error) {
        this.d.talk.removeEntry(entry);
        throw error;
      }
    } catch (error) {
      this.d.talk.forgetUpdate(update.update_id); // so Telegram's retry of this update is handled
      throw error;
    }
  }

  commandContext(chatId: string) {
    const config = this.d.engine.config;
    return { chatId, agent: config.agent.kind, runner: config.runner.mode, blocked: this.d.store.setting("blocked") !== null };
  }

  /** A reply the chat sees without the agent (a command's answer): delivered under the message's key. */
  private deliverReply(key: string, markdown: string, source: "command", now: number): void {
    this.d.ctx.storage.transactionSync(() => writeDelivery(this.d.talk, key, markdown, { source, jobId: null, runId: null }, {}, now, this.d.engine.canSend()));
    this.d.engine.flushOutbox();
  }

  /** A user's text: a command is answered at once; anything else is a prompt for the agent (DESIGN §6, §7). */
  private async receiveText(
    chatId: string,
    text: string,
    ids: { key: string; messageId?: string; updateId?: number },
    now: number,
    context = this.commandContext(chatId),
  ): Promise<"command" | "prompt"> {
    const command = parseCommand(text);
    if (command) {
      const reply = await runCommand(this.d.commands, command, context);
      this.deliverReply(ids.key, reply, "command", Date.now());
      await this.d.engine.syncAlarm();
      return "command";
    }
    const message: PromptMessage = {
      v: 1,
      key: ids.key,
      chatId,
      timeZone: this.d.zone(),
      source: "user",
      text,
      body: text,
      firedAt: new Date(now).toISOString(),
      ...(ids.messageId !== undefined ? { messageId: ids.messageId } : {}),
      ...(ids.updateId !== undefined ? { updateId: ids.updateId } : {}),
    };
    await this.d.env().PROMPTS.send(message, { contentType: "json" });
    return "prompt";
  }
}
