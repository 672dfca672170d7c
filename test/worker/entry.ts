/**
 * @module The Worker the worker tests run (vitest.config.ts `main`): the real Worker's handlers and classes
 * (src/index.ts), with the chat object's class replaced by the tests' subclass (chat-scheduler.ts) under the name
 * wrangler.toml binds to `CHAT`. Each name is exported by name, not with `export *`: the plugin finds the
 * entrypoints (`ContainerProxy`) by reading this file's own exports, without following re-exports.
 */
export { ContainerProxy, default, RunnerContainer } from "../../src/index";
export { TestChatScheduler as ChatScheduler } from "./chat-scheduler";
