/**
 * A local stand-in for the part of the Cloudflare API that `npm run deploy`'s wrangler calls (test/e2e/deploy-api.test.ts),
 * so that the real wrangler runs against it with `CLOUDFLARE_API_BASE_URL`: D1 databases (list, create, and the query
 * endpoint that `d1 migrations` runs its SQL through, remembering the `d1_migrations` rows), queues (list by name,
 * create, consumers), a Worker's secrets (list, bulk), and what `wrangler deploy` asks (the script upload, its service,
 * deployments, settings, the assets upload session, the workers.dev subdomain). One account, `acc`; every request is
 * recorded (method, path, body) for the test to read. Anything else answers 404 with a sentence naming it, which
 * wrangler prints.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listenOnLoopback, readBody } from "./http.js";

export const ACCOUNT = "acc";
export const SUBDOMAIN = "cuckoo-test";
export const DATABASE_ID = "d1d1d1d1-0000-4000-8000-000000000001";

export type ApiRequest = { method: string; path: string; body: string };

type State = {
  databases: { uuid: string; name: string; created_at: string; version: string }[];
  queues: { queue_id: string; queue_name: string; producers: unknown[]; consumers: unknown[]; created_on: string; modified_on: string }[];
  secrets: Set<string>;
  scripts: Set<string>;
  migrations: string[];
};

const envelope = (result: unknown, extra: Record<string, unknown> = {}) => ({ success: true, errors: [], messages: [], result, ...extra });
const failure = (code: number, message: string) => ({ success: false, errors: [{ code, message }], messages: [], result: null });

function answer(state: State, req: ApiRequest, query: URLSearchParams): [number, unknown] {
  const { method, path, body } = req;
  const page = (n: number) => ({ result_info: { page: 1, per_page: 100, count: n, total_count: n } });
  const base = `/accounts/${ACCOUNT}`;
  /** The name a path pattern (after the account) captures, or null when the path is not of it. */
  const at = (pattern: string): string | null => new RegExp(`^${base}${pattern}$`).exec(path)?.[1] ?? null;
  if (path === `${base}/d1/database` && method === "GET") return [200, envelope(state.databases, page(state.databases.length))];
  if (path === `${base}/d1/database` && method === "POST") {
    const db = { uuid: DATABASE_ID, name: (JSON.parse(body) as { name: string }).name, created_at: "2026-12-07T00:00:00Z", version: "production" };
    state.databases.push(db);
    return [200, envelope(db)];
  }
  if (at("/d1/database/([^/]+)/(?:query|raw)") !== null) {
    const sql = (JSON.parse(body) as { sql?: string }).sql ?? "";
    for (const row of sql.matchAll(/INSERT INTO "?d1_migrations"?\s*\(name\)\s*values\s*\('([^']+)'\)/gi)) state.migrations.push(row[1]!);
    const rows = /^SELECT \*\s+FROM "d1_migrations"/i.test(sql.trim())
      ? state.migrations.map((name, i) => ({ id: i + 1, name, applied_at: "2026-12-07 00:00:00" }))
      : [];
    return [200, envelope([{ results: rows, success: true, meta: { duration: 1, changes: 0 } }])];
  }
  const database = at("/d1/database/([^/]+)");
  if (database !== null) return [200, envelope({ ...state.databases.find((d) => d.uuid === database), num_tables: 0 })];
  if (path === `${base}/queues` && method === "GET") {
    const list = state.queues.filter((q) => !query.get("name") || q.queue_name === query.get("name"));
    return [200, envelope(list, page(list.length))];
  }
  if (path === `${base}/queues` && method === "POST") {
    const name = (JSON.parse(body) as { queue_name: string }).queue_name;
    const queue = {
      queue_id: `q${state.queues.length + 1}`,
      queue_name: name,
      producers: [],
      consumers: [],
      created_on: "2026-12-07T00:00:00Z",
      modified_on: "2026-12-07T00:00:00Z",
    };
    state.queues.push(queue);
    return [200, envelope(queue)];
  }
  if (new RegExp(`^${base}/queues/[^/]+/consumers$`).test(path))
    return [200, envelope(method === "GET" ? [] : { consumer_id: "c1", type: "worker", settings: {} })];
  const listing = at("/workers/scripts/([^/]+)/secrets");
  if (listing !== null) {
    if (!state.scripts.has(listing)) return [404, failure(10007, "This Worker does not exist on your account.")];
    return [200, envelope([...state.secrets].map((name) => ({ name, type: "secret_text" })))];
  }
  const bulk = at("/workers/scripts/([^/]+)/secrets-bulk");
  if (bulk !== null) {
    if (!state.scripts.has(bulk)) return [404, failure(10007, "workers.api.error.script_not_found")];
    for (const name of Object.keys((JSON.parse(body) as { secrets: Record<string, unknown> }).secrets)) state.secrets.add(name);
    return [200, envelope(null)];
  }
  const script = at("/workers/scripts/([^/]+)");
  if (script !== null && method === "PUT") {
    state.scripts.add(script);
    return [200, envelope({ id: script, etag: "e", handlers: ["fetch", "queue"], created_on: "x", modified_on: "x", usage_model: "standard" })];
  }
  const service = at("/workers/services/([^/]+)");
  if (service !== null) {
    if (!state.scripts.has(service)) return [404, failure(10090, "workers.api.error.service_not_found")];
    const deployed = { id: service, tag: "t", etag: "e", handlers: ["fetch"], created_on: "x", modified_on: "x", last_deployed_from: "wrangler" };
    return [
      200,
      envelope({
        id: service,
        default_environment: { environment: "production", created_on: "x", modified_on: "x", script: deployed },
        created_on: "x",
        modified_on: "x",
      }),
    ];
  }
  if (new RegExp(`^${base}/workers/scripts/[^/]+/deployments$`).test(path))
    return [
      200,
      envelope({
        deployments: [{ id: "dep1", source: "wrangler", strategy: "percentage", created_on: "x", versions: [{ version_id: "v1", percentage: 100 }] }],
      }),
    ];
  if (new RegExp(`^${base}/workers/scripts/[^/]+/settings$`).test(path))
    return [
      200,
      envelope({
        bindings: [],
        compatibility_date: "2025-01-01",
        compatibility_flags: [],
        logpush: false,
        tags: [],
        tail_consumers: [],
        usage_model: "standard",
        placement: {},
      }),
    ];
  if (new RegExp(`^${base}/workers/scripts/[^/]+/assets-upload-session$`).test(path)) return [200, envelope({ jwt: "assets-complete", buckets: [] })];
  const named = at("/workers/workers/([^/]+)");
  if (named !== null)
    return [200, envelope({ id: named, name: named, subdomain: { enabled: true, previews_enabled: false }, tags: [], created_on: "x", updated_on: "x" })];
  if (path === `${base}/workers/subdomain`) return [200, envelope({ subdomain: SUBDOMAIN })];
  if (new RegExp(`^${base}/workers/scripts/[^/]+/subdomain$`).test(path)) return [200, envelope({ enabled: true, previews_enabled: false })];
  if (new RegExp(`^${base}/workers/scripts/[^/]+/schedules$`).test(path)) return [200, envelope({ schedules: [] })];
  return [404, failure(7003, `The Cloudflare stand-in has no ${method} ${path}.`)];
}

/** Starts the stand-in on a free loopback port: its base URL (for CLOUDFLARE_API_BASE_URL), what it was asked, and a stop. */
export async function startCloudflareStub(): Promise<{ url: string; requests: ApiRequest[]; close(): Promise<void> }> {
  const state: State = { databases: [], queues: [], secrets: new Set(), scripts: new Set(), migrations: [] };
  const requests: ApiRequest[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://stub");
    const request = { method: req.method ?? "GET", path: url.pathname.replace(/^\/client\/v4/, ""), body: await readBody(req) };
    requests.push(request);
    const [status, body] = answer(state, request, url.searchParams);
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  });
  const { url, close } = await listenOnLoopback(server);
  return { url: `${url}/client/v4`, requests, close };
}
