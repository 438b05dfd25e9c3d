import { createHash } from 'node:crypto';

import { createQueryId, type QueryResult, type RawBuilder, type RootOperationNode } from 'kysely';

import type { SessionDb } from './dialect-ops';

/** Statement text → its name: the same text always gets the same name. */
const names = new Map<string, string>();

function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `adk_session_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * `pg`'s query configuration of the named statement `name`, with its members on its prototype:
 * `pg` copies a configuration's own properties at every call (`Object.getOwnPropertyDescriptors`,
 * about 1.4 µs per query on Node 20) and keeps its prototype, so a configuration without own
 * properties costs nothing to copy. `toString` gives the text, for Kysely's logs.
 */
export function namedStatement(name: string, text: string): { name: string; text: string } {
  return Object.create({ name, text, toString: () => text }) as { name: string; text: string };
}

/** A statement compiled once: its text and, for each of its parameters, where its value is. */
interface CompiledShape {
  query: RootOperationNode;
  sql: string;
  /** An argument's name, or a value the statement always has. */
  parameters: Array<string | { value: unknown }>;
}

/** Stands for the argument `name` while a statement is compiled. */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * The statements of one dialect instance, each compiled by Kysely **once per shape** rather than
 * at every call: a statement is given a shape name (what decides its text: which optional parts it
 * has) and a builder that takes placeholders (`slot(name)`) where its values go; the first call of
 * a shape compiles it and notes which argument each parameter is, later calls only put the
 * arguments in order. Building and compiling the session read and the append took about 0.1 ms
 * of CPU per call (docs/PERFORMANCE.md, issue 30); the texts are fixed, so nothing is lost.
 *
 * With `prepared`, statements are sent as **named prepared statements** of the `pg` driver: the
 * first time on a connection, PostgreSQL parses and plans one and keeps it under its name;
 * afterwards the connection sends the name and the values only, and PostgreSQL reuses the parse
 * (and, once it judges a generic plan good enough, the plan). The session store's statements are
 * few and their texts fixed, so each connection holds a few dozen at most. Kysely's
 * `PostgresDialect` hands the statement to `pg`'s `client.query` as is: a statement whose `sql` is
 * `pg`'s query configuration (`{ name, text }`) reaches `pg` as a named one. Only for the `pg`
 * driver (see `SqlSessionServiceOptions.preparedStatements`).
 */
export class ShapedStatements {
  readonly #shapes = new Map<string, CompiledShape>();

  constructor(private readonly prepared: boolean) {}

  /**
   * Run the statement of shape `shape` with `args`. `build` must give the same text for a shape
   * every time, and reach every value through `slot` (a value written in directly is kept as it
   * was at the first call).
   */
  execute<R>(
    db: SessionDb,
    shape: string,
    build: (slot: (name: string) => unknown) => RawBuilder<R>,
    args: Readonly<Record<string, unknown>>,
  ): Promise<QueryResult<R>> {
    let compiled = this.#shapes.get(shape);
    if (compiled === undefined) {
      const query = build((name) => new Slot(name)).compile(db);
      const text = query.sql;
      compiled = {
        query: query.query,
        sql: this.prepared ? (namedStatement(nameOf(text), text) as unknown as string) : text,
        parameters: query.parameters.map((value) =>
          value instanceof Slot ? value.name : { value },
        ),
      };
      this.#shapes.set(shape, compiled);
    }
    const parameters = compiled.parameters.map((slot) =>
      typeof slot === 'string' ? args[slot] : slot.value,
    );
    return db.executeQuery<R>({
      query: compiled.query,
      queryId: createQueryId(),
      sql: compiled.sql,
      parameters,
    });
  }
}
