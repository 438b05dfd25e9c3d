import { describe, expect, it, vi } from 'vitest';

import { SqlDriverMissingError } from '../src';

describe('SqlSessionService.fromUrl with an unusable better-sqlite3', () => {
  it('reports a native addon that was never built (skipped install script) as SqlDriverMissingError', async () => {
    vi.doMock('better-sqlite3', () => ({
      default: class {
        constructor() {
          throw new Error(
            'Could not locate the bindings file. Tried:\n → build/better_sqlite3.node',
          );
        }
      },
    }));
    const { SqlSessionService } = await import('../src');
    const error = await SqlSessionService.fromUrl('sqlite::memory:').catch(
      (caught: unknown) => caught,
    );
    expect(SqlDriverMissingError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ packageName: 'better-sqlite3', reason: 'not-built' });
    expect((error as Error).message).toContain('npm install-scripts approve better-sqlite3');
    vi.doUnmock('better-sqlite3');
  });
});
