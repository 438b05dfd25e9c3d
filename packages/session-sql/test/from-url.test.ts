import { InvalidArgumentError } from '@adk/core';
import {
  POSTGRES_URL,
  dropPostgresSchema,
  postgresSchemaName,
  postgresUnavailable,
  temporaryDirectory,
} from '@adk/test-databases';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';

import { SqlSessionService } from '../src';

const pgAvailable = (await postgresUnavailable()) === undefined;

// parseDatabaseUrl and the drivers' opening are tested in @adk/sql-kit (test/connect.test.ts).
describe('SqlSessionService.fromUrl', () => {
  it('opens an in-memory SQLite database', async () => {
    const service = await SqlSessionService.fromUrl('sqlite::memory:', { autoMigrate: true });
    try {
      expect(service.dialect).toBe('sqlite');
      const session = await service.createSession({ appName: 'a', userId: 'u', state: { x: 1 } });
      expect(
        await service.getSession({ appName: 'a', userId: 'u', sessionId: session.id }),
      ).toEqual(session);
    } finally {
      await service.close();
    }
  });

  it('opens a SQLite file, and a second service on the same file sees the data', async () => {
    const temp = temporaryDirectory('adk-session-sql-');
    const url = `sqlite:${temp.file('url.db')}`;
    const writer = await SqlSessionService.fromUrl(url, { autoMigrate: true });
    const session = await writer.createSession({
      appName: 'a',
      userId: 'u',
      sessionId: 's',
      state: { 'app:k': 1 },
    });
    await writer.close();
    const reader = await SqlSessionService.fromUrl(url);
    try {
      expect(await reader.getSession({ appName: 'a', userId: 'u', sessionId: 's' })).toEqual(
        session,
      );
    } finally {
      await reader.close();
      temp.remove();
    }
  });

  it('opens a SQLite file in WAL mode with synchronous = FULL, or the mode the URL asks for', async () => {
    const temp = temporaryDirectory('adk-session-sql-');
    const pragma = async (service: SqlSessionService, name: string) =>
      Object.values(
        (await sql.raw(`pragma ${name}`).execute(service.database)).rows[0] as object,
      )[0];
    const first = await SqlSessionService.fromUrl(`sqlite:${temp.file('durable.db')}`, {
      autoMigrate: true,
    });
    // A second service on a file already in WAL mode is where better-sqlite3 would run NORMAL.
    const second = await SqlSessionService.fromUrl(`sqlite:${temp.file('durable.db')}`);
    const fast = await SqlSessionService.fromUrl(
      `sqlite:${temp.file('durable.db')}?synchronous=normal`,
    );
    const byOption = await SqlSessionService.fromUrl(`sqlite:${temp.file('durable.db')}`, {
      synchronous: 'extra',
    });
    try {
      expect(await pragma(first, 'journal_mode')).toBe('wal');
      expect(await pragma(first, 'synchronous')).toBe(2);
      expect(await pragma(second, 'synchronous')).toBe(2);
      expect(await pragma(fast, 'synchronous')).toBe(1);
      expect(await pragma(byOption, 'synchronous')).toBe(3);
    } finally {
      await Promise.all([first, second, fast, byOption].map((service) => service.close()));
      temp.remove();
    }
  });

  it.skipIf(!pgAvailable)('opens PostgreSQL from a URL into a schema of its own', async () => {
    const schema = postgresSchemaName();
    const service = await SqlSessionService.fromUrl(POSTGRES_URL, { schema, autoMigrate: true });
    try {
      expect(service.dialect).toBe('postgres');
      const session = await service.createSession({ appName: 'a', userId: 'u' });
      expect(
        await service.getSession({ appName: 'a', userId: 'u', sessionId: session.id }),
      ).toEqual(session);
    } finally {
      await service.close();
      await dropPostgresSchema(schema);
    }
  });

  it('refuses a schema on SQLite', async () => {
    await expect(SqlSessionService.fromUrl('sqlite::memory:', { schema: 'x' })).rejects.toThrow(
      /PostgreSQL only/,
    );
  });

  it('refuses an empty schema name with InvalidArgumentError, as the other SQL stores do', async () => {
    const refused = SqlSessionService.fromUrl(POSTGRES_URL, { schema: '' });
    await expect(refused).rejects.toThrow(InvalidArgumentError);
    await expect(refused).rejects.toThrow(/non-empty/);
  });
});
