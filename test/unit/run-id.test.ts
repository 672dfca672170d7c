/**
 * A job run's id (docs/agent.md#keys), `<jobId>:<dueAt epoch ms>`, made and read by one module: what it makes reads
 * back as the same job and time, and a key that is no run's (a Telegram update's, an admin message's) reads as none.
 */
import { describe, expect, it } from "vitest";
import { readRunId, runIdOf } from "../../src/contracts/run-id";

describe("a run id", () => {
  it("is the job id and the due time in epoch ms, and reads back as both", () => {
    expect(runIdOf("k7m2q", 1795995734383)).toBe("k7m2q:1795995734383");
    expect(readRunId("k7m2q:1795995734383")).toEqual({ jobId: "k7m2q", dueAt: 1795995734383 });
  });

  it("is none for another key: an update's, an admin message's, a watcher's runner id, a job id alone", () => {
    for (const key of ["u:700000001", "m:1", "123456789:k7m2q:1795995734383", "k7m2q", "k7m2q:", "K7M2Q:1"]) expect(readRunId(key)).toBeNull();
  });
});
