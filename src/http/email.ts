/**
 * @module Mail to a hook (docs/hooks.md#email): with EMAIL_DOMAIN set and Cloudflare Email Routing sending that domain
 * to the Worker, a mail to `<token>@<EMAIL_DOMAIN>` runs the job whose hook has the token, with the mail as its input
 * (`From`, `Subject`, the text body, attachments named). A mail the Worker does not take is rejected with a reason,
 * which the sender's server reports back to them: too large, no hook at the address, a paused job, a limit. The
 * same Message-ID within 24 hours runs nothing again.
 */
import { readLimited } from "../bytes";
import { loadConfig } from "../config";
import { chatOfHook } from "../directory/hooks";
import { NO_HOOK } from "../hooks/answer";
import { readMail } from "../hooks/mail";
import { HOOK_TOKEN, hookHash } from "../hooks/token";

/** The largest mail a hook takes (its raw size, headers and attachments included). */
export const MAX_MAIL_BYTES = 256 * 1024;

/** The Worker's `email` handler: the mail runs its hook's job, or is rejected with one sentence. */
export async function receiveMail(message: ForwardableEmailMessage, env: Env): Promise<void> {
  const reject = (reason: string) => message.setReject(reason);
  const { emailDomain } = loadConfig(env).config;
  const [local = "", domain = ""] = message.to.toLowerCase().split("@");
  if (emailDomain === null || domain !== emailDomain) return reject("This address takes no mail.");
  if (message.rawSize > MAX_MAIL_BYTES) return reject(`The message is larger than ${MAX_MAIL_BYTES / 1024} KB, the most a hook takes.`);
  if (!HOOK_TOKEN.test(local)) return reject(NO_HOOK);
  const hash = await hookHash(local);
  const chatId = await chatOfHook(env.DB, hash);
  if (chatId === null) return reject(NO_HOOK);
  const raw = await readLimited(message.raw, MAX_MAIL_BYTES);
  if (raw === null) return reject(`The message is larger than ${MAX_MAIL_BYTES / 1024} KB, the most a hook takes.`);
  const mail = await readMail(raw);
  const key = mail.messageId === null ? null : `mail:${mail.messageId.slice(0, 190)}`;
  const answer = await env.CHAT.getByName(chatId).hookCall(chatId, hash, { text: mail.text, key, via: "email" });
  if (!answer.ok) return reject(answer.error.code === "not_found" ? NO_HOOK : answer.error.message);
}
