/**
 * Nothing vanishes between the chat and its agent (docs/agent.md#the-lease, issue 12): a user's message that the run
 * gate has not seen within 2 minutes is sent again, at most 3 times, then the chat is told it went unanswered;
 * one the gate saw is never sent again. Time moves through the object's clock. Chat ids 8200000 up.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { GATE_LEASE_MS } from "../../src/chat/gate";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { alarmOf, captureLog, chatIds, clockOf, MINUTE, must, type Stub, spyQueue } from "./helpers";

const newChat = chatIds(8_200_000);

/** Moves the object's clock past the 2-minute deadline and runs its alarm. */
async function afterDeadline(stub: Stub): Promise<void> {
  await stub.testAdvanceClock(2 * MINUTE + 1);
  expect(await runDurableObjectAlarm(stub)).toBe(true);
}

const bodies = (sent: { body: unknown }[]) => sent.map((s) => s.body as PromptMessage);
const botTexts = async (stub: Stub, chatId: string) => (await must(stub.messages(chatId, 50))).messages.filter((m) => m.role === "bot").map((m) => m.text);

describe("a user's message lost on its way to the agent", () => {
  it("is sent again after 2 minutes, 3 times, and then the chat is told it went unanswered", async () => {
    const { chatId, stub } = newChat();
    const logged = captureLog("log");
    const sent = await spyQueue(stub);
    const { messageId } = await must(stub.postUserMessage(chatId, "are you there?"));
    const [first] = bodies(sent);
    expect(first).toMatchObject({ key: `m:${messageId}`, source: "user", text: "are you there?" });
    for (const copies of [2, 3, 4]) {
      await afterDeadline(stub);
      expect(bodies(sent)).toEqual(Array<PromptMessage>(copies).fill(first!));
    }
    await afterDeadline(stub);
    expect(sent).toHaveLength(4);
    expect(await botTexts(stub, chatId)).toEqual(["⚠️ I could not answer your message after several tries; please send it again."]);
    expect(logged()).toEqual(Array<string>(3).fill("1 user message(s) did not reach the run gate within 2 min; sending again"));
    // Nothing is left to wake for.
    await stub.testAdvanceClock(10 * MINUTE);
    expect(await runDurableObjectAlarm(stub)).toBe(false);
  });

  it("is never sent again once the run gate has seen it", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    await must(stub.postUserMessage(chatId, "hello"));
    const [message] = bodies(sent);
    const from = await clockOf(stub);
    const offer = await must(stub.gateOffer(message));
    expect(offer.result).toBe("run");
    // The gate's own lease (10 minutes) is the next thing to wake for, not the message's 2-minute deadline.
    const alarm = (await alarmOf(stub))!;
    expect(alarm).toBeGreaterThanOrEqual(from + GATE_LEASE_MS);
    expect(alarm).toBeLessThanOrEqual((await clockOf(stub)) + GATE_LEASE_MS);
    // Woken past the deadline all the same, it sends nothing again.
    await stub.testAdvanceClock(2 * MINUTE + 1);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(sent).toHaveLength(1);
  });

  it("is not sent again when its reply was delivered, even if the gate was bypassed", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const { messageId } = await must(stub.postUserMessage(chatId, "hi"));
    await must(stub.deliver(`m:${messageId}`, "Hello!"));
    await afterDeadline(stub);
    expect(sent).toHaveLength(1);
    expect(await botTexts(stub, chatId)).toEqual(["Hello!"]);
  });
});
