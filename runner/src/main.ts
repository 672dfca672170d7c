/**
 * @module The runner's entry point (`npm run runner`, `node src/main.ts`): environment → config → listen,
 * one line when listening. SIGTERM (a container being stopped or rolled over) drains: no new runs, the
 * running ones finish and their outcomes are delivered, then it exits 0. SIGINT (Ctrl-C) kills the running
 * scripts' groups, closes and exits. A second SIGTERM or SIGINT while stopping kills the groups and exits
 * at once.
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
    "cuckoo-runner: it runs as root without RUNNER_SCRIPT_UID and RUNNER_SCRIPT_GID, so scripts run as root too and can read its secret; set both to an unprivileged user's ids, such as RUNNER_SCRIPT_UID=65534 RUNNER_SCRIPT_GID=65534 (nobody) with a WORKSPACE_ROOT that user can reach, or run the runner as another user.",
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
  console.log(`cuckoo-runner listening on ${url} (workspaces in ${runner.workspaceRoot}, at most ${config.maxConcurrency} runs at once${user})`);
} catch (error) {
  console.error(`cuckoo-runner: could not listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  process.exit(1);
}

let stopping = false;

const exitAfter = (closing: Promise<unknown>): void => {
  closing.then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`cuckoo-runner: could not close cleanly: ${(error as Error).message}`);
      process.exit(1);
    },
  );
};

const onSignal = (signal: NodeJS.Signals): void => {
  if (stopping) {
    // A second signal while stopping means "now".
    console.log(`cuckoo-runner: ${signal} while stopping: killing ${runner.active} running run(s) and exiting now`);
    runner.killNow();
    process.exit(1);
  }
  stopping = true;
  if (signal === "SIGTERM") {
    console.log(
      `cuckoo-runner: SIGTERM, draining: no new runs; waiting for ${runner.active} running run(s) and ${runner.callbacks} outcome(s) being delivered (a second SIGTERM or SIGINT stops at once)`,
    );
    exitAfter(runner.drain().then(() => runner.close()));
    return;
  }
  console.log(`cuckoo-runner: ${signal}, stopping ${runner.active} running run(s)`);
  exitAfter(runner.close());
};
process.on("SIGTERM", onSignal);
process.on("SIGINT", onSignal);
