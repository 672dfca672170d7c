/**
 * A recording stand-in for the `wrangler` binary, for `npm run deploy`'s tests (test/e2e/deploy.test.ts): the deploy
 * runs it instead of wrangler when `CUCKOO_WRANGLER` names this file. It appends each call's argv and stdin to
 * `calls.jsonl` in `WRANGLER_STUB_DIR`, keeps the account's state there (`account.json`: D1 databases, queues, the
 * Worker's secrets by name, the migrations applied, the deploys) and answers as wrangler 4 does, in its words, for the
 * commands the deploy uses: `d1 list --json`, `d1 create`, `d1 migrations list|apply DB --remote` (the migrations of the
 * `migrations_dir` the `--config` names, so the generated configuration's paths are checked), `queues info|create`,
 * `secret list --format json` (wrangler's error while the Worker does not exist), `secret bulk` (JSON on stdin) and
 * `deploy` (it prints `WRANGLER_STUB_URL` as the Worker's address). `WRANGLER_STUB_FAIL=<command>` makes that command
 * fail as the API would with a permission error.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

type Account = { dbs: { name: string; uuid: string }[]; queues: string[]; secrets: string[]; worker: boolean; applied: string[]; deploys: number };

const dir = process.env.WRANGLER_STUB_DIR ?? "";
if (!dir) {
  console.error("WRANGLER_STUB_DIR is not set");
  process.exit(2);
}
const args = process.argv.slice(2);
const file = path.join(dir, "account.json");
const account: Account = existsSync(file)
  ? (JSON.parse(readFileSync(file, "utf8")) as Account)
  : { dbs: [], queues: [], secrets: [], worker: false, applied: [], deploys: 0 };
const save = () => writeFileSync(file, JSON.stringify(account));

/** wrangler's error, as it prints it, and its exit status. */
function fail(message: string, detail = ""): never {
  console.error(`\n✘ [ERROR] ${message}\n${detail ? `\n  ${detail}\n` : ""}`);
  process.exit(1);
}

const stdin = process.stdin.isTTY ? "" : readFileSync(0, "utf8");
appendFileSync(path.join(dir, "calls.jsonl"), `${JSON.stringify({ argv: args, stdin })}\n`);

const command = args[0] === "deploy" ? "deploy" : args.slice(0, 2).join(" ");
if (process.env.WRANGLER_STUB_FAIL && command.startsWith(process.env.WRANGLER_STUB_FAIL))
  fail("A request to the Cloudflare API (/accounts/stub/d1/database) failed.", "Permission denied: this token may not create D1 databases. [code: 7403]");

const flag = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};

/** The migration files the `--config` names (its `migrations_dir`, from its folder). */
function migrationFiles(): string[] {
  const config = flag("--config");
  if (!config) fail("The deploy's commands name --config.");
  const text = readFileSync(config, "utf8");
  const dbId = /database_id = "([^"]+)"/.exec(text)?.[1];
  if (!account.dbs.some((db) => db.uuid === dbId)) fail(`Couldn't find a D1 DB with the name or binding 'DB' in your config (database_id ${dbId}).`);
  const migrations = path.resolve(path.dirname(config), /migrations_dir = "([^"]+)"/.exec(text)?.[1] ?? "migrations");
  return readdirSync(migrations)
    .filter((name) => name.endsWith(".sql"))
    .sort();
}

switch (command) {
  case "d1 list":
    console.log(JSON.stringify(account.dbs.map((db) => ({ ...db, version: "production", created_at: "2026-12-07T10:00:00.000Z", num_tables: 0 }))));
    break;
  case "d1 create": {
    const name = args[2]!;
    const uuid = `d1d1d1d1-0000-4000-8000-${String(account.dbs.length + 1).padStart(12, "0")}`;
    account.dbs.push({ name, uuid });
    save();
    console.log(`✅ Successfully created DB '${name}' in region WEUR\n\n[[d1_databases]]\nbinding = "DB"\ndatabase_name = "${name}"\ndatabase_id = "${uuid}"`);
    break;
  }
  case "d1 migrations": {
    const pending = migrationFiles().filter((name) => !account.applied.includes(name));
    if (pending.length === 0) {
      console.log("✅ No migrations to apply!");
      break;
    }
    console.log(`Migrations to be applied:\n${pending.map((name) => `│ ${name} │`).join("\n")}`);
    if (args[2] === "apply") {
      account.applied.push(...pending);
      save();
      for (const name of pending) console.log(`│ ${name} │ ✅ │`);
    }
    break;
  }
  case "queues info": {
    const name = args[2]!;
    if (!account.queues.includes(name)) fail(`Queue "${name}" does not exist. To create it, run: wrangler queues create ${name}`);
    console.log(`Queue Name: ${name}\nQueue ID: q-${name}\nNumber of Producers: 1`);
    break;
  }
  case "queues create": {
    const name = args[2]!;
    account.queues.push(name);
    save();
    console.log(`🌀 Creating queue '${name}'\n✅ Created queue '${name}'`);
    break;
  }
  case "secret list":
    if (!account.worker) fail('Worker "cuckoo" not found.', "If this is a new Worker, run `wrangler deploy` first to create it.");
    console.log(JSON.stringify(account.secrets.map((name) => ({ name, type: "secret_text" }))));
    break;
  case "secret bulk": {
    const names = Object.keys(JSON.parse(stdin) as Record<string, string>);
    console.log('🌀 Processing the secrets for the Worker "cuckoo"');
    if (!account.worker) console.log('🌀 Creating new Worker "cuckoo"...');
    account.worker = true;
    for (const name of names) if (!account.secrets.includes(name)) account.secrets.push(name);
    save();
    for (const name of names) console.log(`✨ Successfully created secret for key: ${name}`);
    console.log(`\nFinished processing secrets file:\n✨ ${names.length} secrets successfully uploaded`);
    break;
  }
  case "deploy":
    migrationFiles();
    account.worker = true;
    account.deploys++;
    save();
    console.log(
      `Total Upload: 1273.21 KiB / gzip: 384.80 KiB\nUploaded cuckoo (3.10 sec)\nDeployed cuckoo triggers (0.91 sec)\n  ${process.env.WRANGLER_STUB_URL}\n  Producer for prompts\n  Consumer for prompts\n  Consumer for prompts-dlq\nCurrent Version ID: 00000000-0000-4000-8000-00000000000${account.deploys}`,
    );
    break;
  default:
    fail(`The stand-in does not answer wrangler ${args.join(" ")}.`);
}
