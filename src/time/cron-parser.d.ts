/**
 * @module Types for the one deep import of cron-parser (time/cron.ts loads the parser's own file, not the
 * package index, which would also load its file parser and node:fs). The package has no `exports` map, so the
 * path resolves in wrangler, vite and Node alike.
 */
declare module "cron-parser/dist/CronExpressionParser.js" {
  export { CronExpressionParser } from "cron-parser";
}
