/**
 * A value for a JSON column (`text` on SQLite, `json`/`jsonb` or `text` on PostgreSQL): always
 * JSON text, never the object itself, because pg would send a JavaScript array as a PostgreSQL
 * array rather than as JSON.
 *
 * @example
 * ```ts
 * await db.insertInto('adk_notes').values({ id, tags: encodeJsonColumn(['a', 'b']) }).execute();
 * ```
 */
export function encodeJsonColumn(value: object): string {
  return JSON.stringify(value);
}

/**
 * A JSON column's value as read: text (SQLite, or a PostgreSQL `text` column) is parsed; anything
 * else (what pg already parsed from `json`/`jsonb`, or `null`) is returned as it is. Invalid JSON
 * text throws the `SyntaxError` of `JSON.parse`.
 *
 * @example
 * ```ts
 * const tags = decodeJsonColumn(row.tags) as string[];
 * ```
 */
export function decodeJsonColumn(raw: unknown): unknown {
  return typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
}
