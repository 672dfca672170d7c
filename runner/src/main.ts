/**
 * @module The runner's entry point (`npm run runner`, `node src/main.ts`): environment → config → listen,
 * one line when listening, and on SIGTERM or SIGINT kill the running scripts' groups, close and exit.
 */
import { loadConfig } from "./config.ts";
import { createRunner } from "./server.ts";

const loaded = loadConfig(process.env);
if (!loaded.ok) {
  console.error(`cuckoo-runner: ${loaded.error}`);
  process.exit(1);
}
const { config } = loaded;
if (process.getuid?.() === 0 && config.scriptUser === null) {
  console.error(
    "cuckoo-runner: it runs as root without RUNNER_SCRIPT_UID and RUNNER_SCRIPT_GID, so scripts run as root too; set both to an unprivileged user's ids.",
  );
}

const runner = createRunner({
  secret: config.secret,
  workspaceRoot: config.workspaceRoot,
  maxConcurrency: config.maxConcurrency,
  scriptUser: config.scriptUser,
  log: (line) => console.log(`cuckoo-runner: ${line}`),
});

try {
  const { url } = await runner.listen(config.port, config.host);
  const user = config.scriptUser === null ? "" : `, scripts as uid ${config.scriptUser.uid} gid ${config.scriptUser.gid}`;
  console.log(
    `cuckoo-runner listening on ${url} (workspaces in ${runner.workspaceRoot}, at most ${config.maxConcurrency} runs at once${user})`,
  );
} catch (error) {
  console.error(`cuckoo-runner: could not listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  process.exit(1);
}

let stopping = false;
const stop = (signal: NodeJS.Signals): void => {
  // A second signal while closing means "now".
  if (stopping) process.exit(1);
  stopping = true;
  console.log(`cuckoo-runner: ${signal}, stopping ${runner.active} running run(s)`);
  runner.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`cuckoo-runner: could not close cleanly: ${(error as Error).message}`);
      process.exit(1);
    },
  );
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
