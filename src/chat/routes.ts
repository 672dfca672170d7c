/**
 * @module Where a call goes once its chat moved to a supergroup (docs/telegram.md#groups-and-topics): how each RPC
 * names its chat, and what the supergroup's object is asked instead. Most calls name the chat first (`byChat`);
 * a run gate token's name none and go on as they are (`byToken`); a queue message names it inside (`byMessage`);
 * `deliver` names it in its options; a runner's outcome keeps the chat that started the run; a Telegram update
 * for the old group is late, and answered here.
 */

/** A call's chat (null: it names none), and what the supergroup's object `to` is asked, or the answer given here. */
export type Routing = { chatId: string | null; there: ((to: string) => unknown[]) | { answer: unknown } };

/** How a call with these arguments is routed. */
export type Route = (args: readonly unknown[]) => Routing;

const chatOf = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** The chat id first: the supergroup's object is asked with its own id in its place. */
export const byChat: Route = ([chatId, ...rest]) => ({ chatId: chatOf(chatId), there: (to) => [to, ...rest] });

/** No chat named (a gate token stands for a turn of this object): the supergroup's object is asked the same. */
export const byToken: Route = (args) => ({ chatId: null, there: () => [...args] });

/** A queue message first, naming its chat: the supergroup's object gets the message naming the supergroup. */
export const byMessage: Route = ([message, ...rest]) => ({ chatId: chatIdIn(message), there: (to) => [withChat(message, to), ...rest] });

/** The chat id first, kept: a run's id names the chat that started it, which a supergroup takes over (`runnerOutcome`). */
export const keepingChat: Route = (args) => ({ chatId: chatOf(args[0]), there: () => [...args] });

/** `deliver(key, markdown, { prompt, chatId })`: a chat named in the options is the supergroup's there. */
export const byDeliverOptions: Route = ([key, markdown, options]) => {
  const { prompt, chatId } = (options ?? {}) as { prompt?: string | null; chatId?: string };
  return { chatId: chatOf(chatId), there: (to) => [key, markdown, { prompt: prompt ?? null, ...(chatId !== undefined ? { chatId: to } : {}) }] };
};

/** Nothing goes on: once the chat moved, `answer` is the call's answer (a Telegram update for the old group is late). */
export const answered =
  (answer: unknown): Route =>
  () => ({ chatId: null, there: { answer } });

/** The chat id a queue message names, if it is an object that names one. */
function chatIdIn(message: unknown): string | null {
  return chatOf(typeof message === "object" && message !== null ? (message as { chatId?: unknown }).chatId : undefined);
}

/** A queue message naming the supergroup its chat became. */
function withChat(message: unknown, chatId: string): unknown {
  return typeof message === "object" && message !== null ? { ...message, chatId } : message;
}
