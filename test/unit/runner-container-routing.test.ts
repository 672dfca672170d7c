/**
 * Which runner the Worker talks to (docs/api.md, docs/watchers.md; issue 7): `RUNNER_URL` when set (dev, tests, a runner on
 * any host), else the container binding `RUNNER` (with `RUNNER_SECRET`), one instance per chat, else none;
 * and where the runner calls back in each mode. Plain Node, with fake env objects: no binding is real here.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config";
import { callbackUrl, runnerFetcher } from "../../src/runner-client/client";

type Seen = { name: string; url: string; method: string; headers: Record<string, string>; body: string };

/** A fake `RUNNER` namespace that records `getByName(name).fetch(request)` and answers 202. */
function fakeNamespace() {
  const seen: Seen[] = [];
  const namespace = {
    getByName: (name: string) => ({
      fetch: async (request: Request) => {
        seen.push({ name, url: request.url, method: request.method, headers: Object.fromEntries(request.headers), body: await request.text() });
        return new Response(JSON.stringify({ runId: "r" }), { status: 202 });
      },
    }),
  };
  return { seen, namespace };
}

/** A deployed Worker's env with only the vars given (and the binding, when given). */
const envOf = (vars: Record<string, unknown>) => ({ CUCKOO_DEV: "0", ...vars }) as unknown as Env;

const init = { method: "POST", headers: { "Content-Type": "application/json", "X-Cuckoo-Signature": "t=1,v1=ab" }, body: '{"runId":"r"}' };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the runner of a chat", () => {
  it("is the container binding's instance named after the chat when RUNNER_URL is unset", async () => {
    const { seen, namespace } = fakeNamespace();
    const fetchSpy = vi.fn();
    vi.stubGlobal("fetch", fetchSpy);
    const env = envOf({ RUNNER: namespace, RUNNER_SECRET: "s" });
    const { config, errors } = loadConfig(env);
    expect(errors).toEqual([]);
    expect(config.runner.mode).toBe("container");

    const fetcher = runnerFetcher(env, config, "-100123");
    expect(fetcher).not.toBeNull();
    const res = await fetcher!("/runs?wait=1", init);
    expect(res.status).toBe(202);
    expect(seen).toEqual([
      {
        name: "-100123",
        url: "http://runner/runs?wait=1",
        method: "POST",
        headers: { "content-type": "application/json", "x-cuckoo-signature": "t=1,v1=ab" },
        body: '{"runId":"r"}',
      },
    ]);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("gives each chat its own instance", async () => {
    const { seen, namespace } = fakeNamespace();
    const env = envOf({ RUNNER: namespace, RUNNER_SECRET: "s" });
    const { config } = loadConfig(env);
    await runnerFetcher(env, config, "111")!("/runs", init);
    await runnerFetcher(env, config, "222")!("/runs", init);
    expect(seen.map((s) => s.name)).toEqual(["111", "222"]);
  });

  it("is RUNNER_URL when it is set, even with the binding present, and the binding is not used", async () => {
    const { seen, namespace } = fakeNamespace();
    const fetchSpy = vi.fn(async () => new Response(null, { status: 202 }));
    vi.stubGlobal("fetch", fetchSpy);
    const env = envOf({ RUNNER: namespace, RUNNER_URL: "https://runner.example.com/", RUNNER_SECRET: "s", PUBLIC_URL: "https://cuckoo.example.workers.dev" });
    const { config, errors } = loadConfig(env);
    expect(errors).toEqual([]);
    expect(config.runner.mode).toBe("url");

    await runnerFetcher(env, config, "111")!("/runs", init);
    expect(fetchSpy).toHaveBeenCalledWith("https://runner.example.com/runs", init);
    expect(seen).toEqual([]);
  });

  it("is none without RUNNER_URL and without the binding", () => {
    const env = envOf({ RUNNER_SECRET: "s" });
    const { config } = loadConfig(env);
    expect(config.runner.mode).toBe("off");
    expect(runnerFetcher(env, config, "111")).toBeNull();
  });

  it("is none with the binding but without RUNNER_SECRET: the container is not started without its secret", () => {
    const { seen, namespace } = fakeNamespace();
    const env = envOf({ RUNNER: namespace });
    const { config } = loadConfig(env);
    expect(config.runner.mode).toBe("off");
    expect(runnerFetcher(env, config, "111")).toBeNull();
    expect(seen).toEqual([]);
  });
});

describe("the callback URL the runner is given", () => {
  it("is the internal callback host in container mode: no public URL needed", () => {
    const { namespace } = fakeNamespace();
    const { config, errors } = loadConfig(envOf({ RUNNER: namespace, RUNNER_SECRET: "s" }));
    expect(errors).toEqual([]);
    expect(callbackUrl(config, "-100123")).toBe("http://callback.cuckoo.internal/runner/callback/-100123");
  });

  it("is PUBLIC_URL's callback route in URL mode", () => {
    const { config } = loadConfig(envOf({ RUNNER_URL: "http://127.0.0.1:8788", RUNNER_SECRET: "s", PUBLIC_URL: "https://cuckoo.example.workers.dev/" }));
    expect(callbackUrl(config, "42")).toBe("https://cuckoo.example.workers.dev/runner/callback/42");
  });
});
