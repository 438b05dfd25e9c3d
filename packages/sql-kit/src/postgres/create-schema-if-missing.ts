import type { AnyKysely } from '../dialect';

/**
 * `create schema if not exists` on PostgreSQL, tolerating a concurrent creator: PostgreSQL checks
 * existence before inserting into its catalog, so two sessions creating the same new schema at
 * once can still fail on the catalog's unique index (`23505`) or with "already exists" (`42P06`);
 * both mean the schema is there. Any other error is thrown.
 */
export async function createSchemaIfMissing(db: AnyKysely, schema: string): Promise<void> {
  try {
    await db.schema.createSchema(schema).ifNotExists().execute();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== '23505' && code !== '42P06') throw error;
  }
}
