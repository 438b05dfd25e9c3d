import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary directory of {@link temporaryDirectory}. */
export interface TemporaryDirectory {
  /** Its absolute path. */
  readonly dir: string;
  /** The path of `name` inside it. */
  file(name: string): string;
  /** Delete it and everything in it. */
  remove(): void;
}

/** A fresh directory under the OS temp dir, named `<prefix><random>`, for SQLite files. */
export function temporaryDirectory(prefix = 'adk-sqlite-'): TemporaryDirectory {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    file: (name) => join(dir, name),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
