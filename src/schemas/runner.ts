/**
 * @module The runner's outcome as the API shows it (docs/watchers.md): the wire contract's own schema (`runnerOutcome`,
 * the one that parses it) with what each field means, for the callback's body, the dry run's answer and the
 * `test` tool's data. Parsing is the contract's; this adds only descriptions.
 */

import { runnerOutcome } from "../contracts/runner";
import { lazy } from "../lazy";

export const outcomeSchema = lazy(() => {
  const s = runnerOutcome().shape;
  return runnerOutcome()
    .extend({
      runId: s.runId.meta({ examples: ["123456789:k7m2q:1796000400000", "123456789:test:1796000400000:9f2c4e1a"] }),
      status: s.status.meta({ description: "silent: exit 0 and stdout empty after trimming; output: exit 0 with output; failed: anything else." }),
      exitCode: s.exitCode.meta({ description: "null when it timed out, was cancelled or did not start; 128 + n when killed by signal n." }),
      stdout: s.stdout.meta({ description: "As printed: the first 48 KiB and the last 16 KiB, with a line saying how many bytes were left out between them." }),
      stderrTail: s.stderrTail.meta({ description: "The last 20 lines of stderr; the reason when the script did not start." }),
      truncated: s.truncated.meta({ description: "Whether the middle of a stream was left out." }),
      startedAt: s.startedAt.meta({ format: "date-time" }),
      finishedAt: s.finishedAt.meta({ format: "date-time" }),
    })
    .meta({
      description:
        "What a watcher's run did (docs/watchers.md). " +
        "On the admin API and the tools, stdout and stderrTail are redacted (every secret the Worker holds is `[REDACTED]`). " +
        "Fields a newer runner adds are ignored.",
    });
});
