// The locale's entry point (scripts/vendor.mjs).
export { casual } from "chrono-node/ru";
