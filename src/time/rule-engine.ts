/**
 * @module The rule engine as one module, for `import()` on first use (time/rules.ts): reading rules and starts,
 * expanding them, and saying them in words. Nothing runs at module scope.
 */
export { formatStart, MAX_COUNT, parseRule, parseStart, type Rule, type RuleSchedule, type Until, withoutEnds } from "./rule";
export { nextRuleOccurrence } from "./rule-expand";
export { describeRule } from "./rule-text";
