// The package's entry point (scripts/vendor.mjs).
export { default } from "postal-mime";
