/**
 * @module The chat's one handle on its SQLite database, shared by every store of the object. Stores read
 * `db.sql` on each statement, so a test that counts rows written (DESIGN §12) can wrap it in one place.
 */

export type Db = { sql: SqlStorage };

/** The bound parameters of one statement are limited: statements over many ids go in chunks of this size. */
export const IDS_PER_STATEMENT = 50;
