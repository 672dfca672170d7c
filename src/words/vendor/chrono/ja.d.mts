// The locale's entry point (scripts/vendor-chrono.mjs).
export { casual } from "chrono-node/ja";
