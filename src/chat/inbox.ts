/**
 * @module What a chat's user writes (docs/telegram.md, docs/agent.md): Telegram updates (deduped by update id) and messages
 * written or buttons pressed through the admin API in transcript mode. A command is answered by the chat
 * itself; a pressed button acts (`telegram/press.ts`); without a model, a message that reads as a reminder is
 * offered as one (`telegram/offer.ts`); any other text becomes a prompt for the agent on the queue. A message
 * that replies to another carries what it replies to: that message's text (quoted to the agent, or as what
 * `/remind` reminds of) and its job, which a job command then needs no id for. An edited `/remind` or `/every`
 * edits the job it created (`telegram/edit.ts`); other edits are ignored. In a group (the Worker passed on only
 * what was for the bot) a command that changes something, an edit and every button are for the group's admins
 * and listed users (`members.ts`); every answer goes to the forum topic its update came from. The bot's own
 * membership changing (`my_chat_member`) blocks the chat when it was removed and unblocks it when it is back.
 */
import { type Config, isGroupId, leaseMs } from "../config";
import { shown } from "../contracts/ids";
import type { PromptMessage } from "../contracts/prompt-message";
import { OFFER_DEADLINE_MS } from "../jobs/fire";
import { err, ok, type Result } from "../result";
import { type ButtonRows, PRESS, REPLY_TO } from "../schemas/chats";
import { groupAppLink, INVALID_BUTTON, newOfferId, parseButton, type Reply } from "../telegram/buttons";
import { makesJob, onlyReads, parseCommand } from "../telegram/commands";
import { copyTo, remindCaption } from "../telegram/copyable";
import { editedCommand } from "../telegram/edit";
import { runCommand } from "../telegram/execute";
import type { CommandContext, CommandHost, RepliedTo } from "../telegram/host";
import { miniAppUrl } from "../telegram/menu";
import type { JobMessages } from "../telegram/message-press";
import { offerOf, offerReply, readReminder } from "../telegram/offer";
import { type PressOutcome, press } from "../telegram/press";
import { sentPrivately } from "../telegram/privately";
import { plainText } from "../telegram/render";
import { capText, entryText, TEXT_LIMIT } from "../telegram/replies";
import { botIsIn, fromAnonymousAdmin, type Update, updateOrigin, updateSchema } from "../telegram/update";
import { textsOf, voiceOf } from "../texts";
import { langOf } from "../words";
import type { Deliveries } from "./deliveries";
import type { ChatInfo } from "./info";
import type { MemberRights } from "./members";
import type { Nags } from "./nags";
import type { JobSourceStore } from "./store/job-sources";
import type { OfferStore } from "./store/offers";
import type { TranscriptStore } from "./store/transcript";
import type { UserPromptStore } from "./store/user-prompts";

export type InboxDeps = {
  transcript: TranscriptStore;
  userPrompts: UserPromptStore;
  offers: OfferStore;
  jobSources: JobSourceStore;
  info: ChatInfo;
  deliveries: Deliveries;
  /** The chat's job operations, which commands use. */
  jobs: CommandHost;
  /** Who may change what in a group. */
  rights: MemberRights;
  /** A press on a copy of a nagging message ends its nagging. */
  nags: Pick<Nags, "end">;
  env: () => Env;
  config: () => Config;
  now: () => number;
  transaction: <T>(work: () => T) => T;
};

/**
 * What became of an update: a command answered, a prompt queued, a button pressed (with its answer, and
 * `keyboard`, the pressed message's buttons from now on, when they changed: none once a question is answered,
 * the one line that says what was done under a job's message), an edit that changed a job, …
 */
export type Handled = { handled: string; callbackText?: string; keyboard?: ButtonRows };

/** What the Worker knows of the bot for an update: its username, when `getMe` was asked for it (null: not needed). */
/** `origin`: the origin the webhook was called on, where a hook's URL is when PUBLIC_URL is unset (docs/hooks.md). */
export type UpdateOptions = { botUsername?: string | null; origin?: string | null };

/**
 * Who wrote, and where: a group's member (whose rights a change needs), the forum topic (null: the main thread),
 * and the bot's username when the Worker asked for it (a command naming another bot is not the bot's).
 */
type Writer = { userId: string | null; threadId: number | null; botUsername: string | null };

/** How an operator's message (transcript mode) is seen: it lifts no block, in the main thread, naming no bot. */
const UNSEEN = { blocked: false, threadId: null, botUsername: null };

/** Who writes through the admin API (transcript mode): the operator, as the chat's user, in its main thread. */
const OPERATOR: Writer = { userId: null, threadId: null, botUsername: null };

export class Inbox {
  constructor(private readonly d: InboxDeps) {}

  /**
   * Transcript mode: a message written through the admin API, as the chat's user, in reply to the transcript
   * entry `replyTo` when given. It becomes a user entry and, unless it is a command, a prompt on the queue with
   * key `m:<messageId>`.
   */
  async postUserMessage(chatId: string, text: string, replyTo: string | null = null): Promise<Result<{ messageId: string }>> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    if (typeof text !== "string" || text.trim() === "" || text.length > TEXT_LIMIT) {
      return err("bad_request", `"text" must be 1 to ${TEXT_LIMIT} characters long.`);
    }
    let repliedTo: RepliedTo | null = null;
    if (replyTo !== null) {
      const entry = typeof replyTo === "string" && /^\d{1,15}$/.test(replyTo) ? this.d.transcript.entry(Number(replyTo)) : null;
      if (entry === null) return err("bad_request", REPLY_TO);
      repliedTo = entry;
    }
    const now = this.d.now();
    const id = this.d.transcript.append({ role: "user", source: "admin", text: entryText(text, repliedTo) }, now);
    const messageId = String(id);
    try {
      await this.receiveText({ text, key: `m:${messageId}`, messageId }, { ...this.context(chatId, now), repliedTo }, OPERATOR);
    } catch (error) {
      this.d.transcript.removeEntry(id); // nothing will answer it, so the chat does not keep it
      throw error;
    }
    return ok({ messageId });
  }

  /**
   * A Telegram update for this chat (the Worker checked the secret, the allow-list and, in a group, that it is
   * for the bot): a repeated `update_id` has no second effect; a command is answered here; other text goes to
   * the agent with key `u:<update_id>`; a button acts like its command and its answer is returned for the
   * callback; the bot's membership changing blocks or unblocks the chat.
   */
  async handleUpdate(input: unknown, options: UpdateOptions = {}): Promise<Result<Handled>> {
    const parsed = updateSchema().safeParse(input);
    if (!parsed.success) return err("bad_request", "The body must be a Telegram update.");
    const update = parsed.data;
    const origin = updateOrigin(update);
    if (!origin) return ok({ handled: "ignored" });
    const bound = this.d.info.bind(origin.chatId);
    if (!bound.ok) return bound;
    const now = this.d.now();
    if (!this.d.transcript.firstUpdate(update.update_id, now)) return ok({ handled: "duplicate" });
    try {
      if (update.my_chat_member) return ok(this.membership(origin.chatId, update.my_chat_member));
      const wasBlocked = this.d.info.blocked();
      // They wrote again (the D1 directory follows in the sync after every call).
      if (wasBlocked) this.d.info.setBlocked(false);
      const botUsername = typeof options?.botUsername === "string" ? options.botUsername : null;
      // A member's rights are asked when they change something; an anonymous admin (writing as the group) has them.
      const member = isGroupId(origin.chatId) && !fromAnonymousAdmin(update.message ?? update.edited_message);
      const writer: Writer = { userId: member ? origin.userId : null, threadId: origin.threadId, botUsername };
      // The reply's language (docs/telegram.md#language): the chat's, or the sender's app's, kept as the last seen.
      const tag = (update.message ?? update.edited_message ?? update.callback_query)?.from?.language_code;
      this.d.info.noteLanguage(tag);
      const context = {
        ...this.context(origin.chatId, now, {
          blocked: wasBlocked,
          threadId: origin.threadId,
          botUsername,
          origin: typeof options?.origin === "string" ? options.origin : null,
        }),
        language: this.d.info.language(tag),
      };
      const key = `u:${update.update_id}`;
      if (update.callback_query) {
        const data = update.callback_query.data ?? "";
        if (parseButton(data) === null) return ok({ handled: "callback", callbackText: INVALID_BUTTON });
        // Every button acts: in a group, only for those who may change its jobs.
        const refused = writer.userId === null ? null : await this.refusal(writer.userId, context.language);
        if (refused !== null) return ok({ handled: "callback", callbackText: refused });
        const outcome = await this.press(data, key, context);
        if (!outcome) return ok({ handled: "callback", callbackText: (await textsOf(context.language)).buttons.invalid });
        const keyboard = outcome.buttons ?? (outcome.clear ? [] : undefined);
        return ok({ handled: "callback", callbackText: plainText(outcome.answer).slice(0, 200), ...(keyboard ? { keyboard } : {}) });
      }
      if (update.edited_message) return ok({ handled: await this.edited(update.edited_message, key, now, writer) });
      const message = update.message;
      const caption = remindCaption(message);
      const text = capText(message?.text ?? caption);
      if (message === undefined || text === undefined) {
        this.reply(key, (await textsOf(context.language)).nonText, now, writer.threadId);
        return ok({ handled: "non-text" });
      }
      const repliedTo = caption !== undefined ? { text: null, jobId: null, ...copyTo(message) } : this.repliedTo(message);
      const entry = this.d.transcript.append({ role: "user", source: "telegram", text: entryText(text, repliedTo) }, now);
      try {
        const received = { text, key, updateId: update.update_id, telegramId: message.message_id };
        return ok({ handled: await this.receiveText(received, { ...context, repliedTo }, writer) });
      } catch (error) {
        this.d.transcript.removeEntry(entry);
        throw error;
      }
    } catch (error) {
      this.d.transcript.forgetUpdate(update.update_id); // so Telegram's retry of this update is handled
      throw error;
    }
  }

  /** The sentence when `userId` may not change this group's jobs (or Telegram could not tell), or null. */
  private async refusal(userId: string, language: string | undefined): Promise<string | null> {
    const may = await this.d.rights.mayChange(userId);
    if (may.ok && may.value) return null;
    const { problems } = (await voiceOf(language)).t;
    if (may.ok) return problems.adminsOnly;
    // Telegram could not be asked who the admins are, said in the chat's language; another refusal as it came.
    return may.error.said?.key === "rightsUnknown" ? problems.rightsUnknown : may.error.message;
  }

  /**
   * The bot's own membership changed: removed (`left`, `kicked`) blocks the chat as a 403 does (what waited to be
   * sent is dropped, due jobs are held); being added back (or unblocked by the user) lifts it.
   */
  private membership(chatId: string, change: NonNullable<Update["my_chat_member"]>): Handled {
    const inChat = botIsIn(change.new_chat_member);
    if (inChat === !this.d.info.blocked()) return { handled: "membership" };
    this.d.info.setBlocked(!inChat);
    if (inChat) console.log(`chat ${chatId} is unblocked: the bot is ${change.new_chat_member.status} there again`);
    else {
      this.d.deliveries.flush();
      console.log(`chat ${chatId} is blocked: the bot's status there is now ${change.new_chat_member.status}; it stays so until the bot is added back`);
    }
    return { handled: "membership" };
  }

  /**
   * Transcript mode: a button of a bot entry pressed, as a tap in Telegram would; `answer` is the notice Telegram
   * would show. Data that is no button of ours is refused with a sentence.
   */
  async pressButton(chatId: string, data: string): Promise<Result<{ answer: string }>> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    if (typeof data !== "string" || data.length > 64) return err("bad_request", PRESS);
    const now = this.d.now();
    const outcome = await this.press(data, `b:${now}:${crypto.randomUUID()}`, this.context(chatId, now));
    if (!outcome) return err("bad_request", `"press" must be the data of a button in this chat's transcript, such as "y:k7m2qabc"; got "${shown(data)}".`);
    return ok({ answer: outcome.answer });
  }

  /** A press: carried out, its message (if any) delivered under `key`, answered buttons taken away. */
  private async press(data: string, key: string, context: CommandContext): Promise<PressOutcome | null> {
    const pressed = parseButton(data);
    if (!pressed) return null;
    const outcome = await press(this.d.jobs, { offers: this.d.offers, messages: this.messages }, pressed, data, { ...context, zone: this.d.info.zone().zone });
    if (outcome.clear) this.d.transcript.clearButtons(data);
    if (outcome.reply) this.reply(key, outcome.reply, this.d.now(), context.threadId);
    return outcome;
  }

  /** A prompt job's messages in the transcript, as their buttons take and answer them (they act once). */
  private readonly messages: JobMessages = {
    take: (runId, data) => {
      const message = this.d.transcript.jobMessage(runId);
      if (message === null) return "gone";
      if (!message.buttons?.some((row) => row.some((b) => "data" in b && b.data === data))) return "answered";
      // Taken before the press acts (it may wait on a parser's first load): a second press finds it answered.
      this.d.transcript.setButtons(message.entryId, []);
      return message;
    },
    answer: (entryId, buttons) => this.d.transcript.setButtons(entryId, buttons),
    end: (runId) => this.d.nags.end(runId),
  };

  /**
   * What a Telegram message replies to: its text (or caption), and the job it belongs to when it is one of a
   * job's messages or the command that created one.
   */
  private repliedTo(message: NonNullable<Update["message"]>): RepliedTo | null {
    const replied = message.reply_to_message;
    if (!replied) return null;
    // In a forum topic every message replies to the topic's first (its creation): no reply to anything.
    if (message.is_topic_message === true && replied.message_id === message.message_thread_id) return null;
    const jobId = this.d.transcript.jobOfMessage(replied.message_id)?.jobId ?? this.d.jobSources.jobOf(replied.message_id);
    return { text: capText(replied.text ?? replied.caption) ?? null, jobId, ...copyTo(replied) };
  }

  /**
   * An edited message (docs/telegram.md): one whose original created a job through `/remind` or `/every` edits that job
   * and is answered with its changed line; any other is ignored and leaves nothing.
   */
  private async edited(message: NonNullable<Update["edited_message"]>, key: string, now: number, writer: Writer): Promise<"edit" | "refused" | "ignored"> {
    const text = capText(message.text);
    const jobId = text === undefined ? null : this.d.jobSources.jobOf(message.message_id);
    if (text === undefined || jobId === null) return "ignored";
    // An edit changes the job: in a group, only for one who may (its maker may have lost the right since).
    const language = this.d.info.language(message.from?.language_code);
    const refused = writer.userId === null ? null : await this.refusal(writer.userId, language);
    if (refused !== null) {
      this.reply(key, refused, this.d.now(), writer.threadId);
      return "refused";
    }
    const who = { chatId: String(message.chat.id), zone: this.d.info.zone().zone, now, threadId: writer.threadId, language };
    const reply = await editedCommand(this.d.jobs, who, jobId, text);
    if (reply === null) return "ignored";
    const entry = this.d.transcript.append({ role: "user", source: "telegram", text }, now);
    try {
      this.reply(key, reply, this.d.now(), writer.threadId);
    } catch (error) {
      this.d.transcript.removeEntry(entry);
      throw error;
    }
    return "edit";
  }

  /**
   * The circumstances of a command: the chat, the agent and runner, the topic it came from, and how /jobs opens
   * the Mini App (a `web_app` button in a private chat; in a group a link naming it, once the bot's username and
   * the app's short name are known).
   */
  private context(
    chatId: string,
    now: number,
    seen: { blocked: boolean; threadId: number | null; botUsername: string | null; origin?: string | null } = UNSEEN,
  ): CommandContext {
    const { blocked, threadId, botUsername } = seen;
    const config = this.d.config();
    const t = config.telegram;
    let app: CommandContext["app"] = null;
    if (t.botToken !== null && !isGroupId(chatId)) {
      const url = miniAppUrl(config.runner.publicUrl);
      if (url !== null) app = { webApp: url };
    } else if (t.botToken !== null && t.miniAppName !== null && botUsername !== null) {
      app = { url: groupAppLink(botUsername, t.miniAppName, chatId) };
    }
    const hooks = { base: config.runner.publicUrl ?? seen.origin ?? "", emailDomain: config.emailDomain };
    return { chatId, agent: config.agent.kind, runner: config.runner.mode, blocked, now, threadId, app, hooks };
  }

  /**
   * A reply the chat sees without the agent (a command's answer), with its buttons: delivered under `key`, in
   * `threadId`; a secret one (a hook's URL) kept in the transcript with its token replaced.
   */
  private reply(key: string, reply: Reply | string, now: number, threadId: number | null): void {
    const { markdown, buttons = null, secret = false } = typeof reply === "string" ? { markdown: reply } : reply;
    const origin = { source: "command" as const, jobId: null, runId: null };
    this.d.transaction(() => this.d.deliveries.write(key, markdown, { origin, now, buttons, threadId, secret }));
    this.d.deliveries.flush();
  }

  /**
   * A user's text (`received`, under its delivery key, with its ids), in `context`: a command is answered at once (in a
   * group, one that changes something only for those who may); anything else is a prompt for the agent
   * (docs/telegram.md, docs/agent.md), carrying the group member who wrote it (the turn has their rights) and the
   * topic it came from.
   */
  private async receiveText(
    received: { text: string; key: string; messageId?: string; updateId?: number; telegramId?: number },
    context: CommandContext,
    writer: Writer,
  ): Promise<"command" | "offer" | "prompt" | "refused"> {
    const { text } = received;
    const { chatId, now } = context;
    const command = parseCommand(text, writer.botUsername);
    if (command) {
      const refused = writer.userId !== null && !onlyReads(command) ? await this.refusal(writer.userId, context.language) : null;
      if (refused !== null) {
        this.reply(received.key, refused, this.d.now(), writer.threadId);
        return "refused";
      }
      const reply = await sentPrivately(this.d.config().telegram, await runCommand(this.d.jobs, command, context), writer.userId);
      // A job made in Telegram by a command (/remind, /every) is edited when its message is (docs/telegram.md#replies-and-edited-messages).
      const made = makesJob(command) && reply.jobId !== undefined;
      if (made && received.telegramId !== undefined) this.d.jobSources.add(received.telegramId, reply.jobId!, now);
      this.reply(received.key, reply, this.d.now(), writer.threadId);
      return "command";
    }
    if (context.agent === "echo") {
      // No model to understand it: a message that asks to be reminded is offered as a reminder (docs/telegram.md).
      const zone = this.d.info.zone().zone;
      const found = await readReminder(text, zone, now);
      if (found) {
        const id = newOfferId();
        this.d.offers.add(offerOf(id, found, zone, now));
        this.reply(received.key, await offerReply(id, found, zone, now, context.language ?? null), this.d.now(), writer.threadId);
        return "offer";
      }
    }
    // A message that replies to another carries that message's text, quoted, before its own (docs/telegram.md).
    const prompt = entryText(text, context.repliedTo ?? null);
    const message: PromptMessage = {
      v: 1,
      key: received.key,
      chatId,
      timeZone: this.d.info.zone().zone,
      source: "user",
      text: prompt,
      body: prompt,
      firedAt: new Date(now).toISOString(),
      ...(received.messageId !== undefined ? { messageId: received.messageId } : {}),
      ...(received.updateId !== undefined ? { updateId: received.updateId } : {}),
      ...(writer.userId !== null ? { userId: writer.userId } : {}),
      ...(writer.threadId !== null ? { threadId: writer.threadId } : {}),
      ...(context.language && context.language !== "en" ? { language: langOf(context.language) ?? "en" } : {}),
    };
    // Kept until the run gate has seen it, so that a message lost on its way is sent again (docs/agent.md#the-lease).
    this.d.userPrompts.add(received.key, JSON.stringify(message), now + leaseMs(OFFER_DEADLINE_MS, this.d.config().speedup));
    try {
      await this.d.env().PROMPTS.send(message, { contentType: "json" });
    } catch (error) {
      this.d.userPrompts.remove(received.key);
      throw error;
    }
    return "prompt";
  }
}
