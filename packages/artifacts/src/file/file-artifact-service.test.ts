import { mkdtemp, readdir, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { artifactServiceConformance } from '@adk/core/testing/vitest';
import { afterAll, describe, expect, it } from 'vitest';

import { ArtifactPathError } from '../errors/artifact-path-error';
import { FileArtifactService } from './file-artifact-service';

const roots: string[] = [];
async function newRoot(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'adk-artifacts-'));
  roots.push(root);
  return root;
}
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

artifactServiceConformance(
  'FileArtifactService',
  async () => new FileArtifactService({ root: await newRoot() }),
);

async function walk(directory: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) found.push(...(await walk(full)));
    else found.push(full);
  }
  return found;
}

describe('FileArtifactService on disk', () => {
  const scope = { appName: '..app', userId: 'u/../../etc', sessionId: '..' };

  it('keeps every file under the root, even for ids full of separators and dots', async () => {
    const root = await newRoot();
    const service = new FileArtifactService({ root: pathToFileURL(root) });
    await service.saveArtifact({ ...scope, filename: 'a.txt', artifact: { text: 'hello' } });
    await service.saveArtifact({ ...scope, filename: 'user:b.txt', artifact: { text: 'hi' } });
    const files = await walk(root);
    expect(files.length).toBe(4);
    for (const file of files) expect(file.startsWith(root + path.sep)).toBe(true);
    expect(await service.loadArtifact({ ...scope, filename: 'a.txt' })).toEqual({ text: 'hello' });
    // The user's scope is shared with another session id, and the ids round-trip.
    expect(await service.listArtifactKeys({ ...scope, sessionId: 'other' })).toEqual([
      'user:b.txt',
    ]);
  });

  it('reads from a root that does not exist yet as empty, and creates it on first save', async () => {
    const root = path.join(await newRoot(), 'not', 'yet');
    const service = new FileArtifactService({ root });
    const s = { appName: 'app', userId: 'u', sessionId: 's' };
    expect(await service.listArtifactKeys(s)).toEqual([]);
    expect(await service.loadArtifact({ ...s, filename: 'a.txt' })).toBeUndefined();
    await service.deleteArtifact({ ...s, filename: 'a.txt' });
    expect(await service.saveArtifact({ ...s, filename: 'a.txt', artifact: { text: 'x' } })).toBe(
      0,
    );
    expect(await service.listArtifactKeys(s)).toEqual(['a.txt']);
  });

  it('stores bytes and a JSON sidecar per version and leaves no temporary file', async () => {
    const root = await newRoot();
    const service = new FileArtifactService({ root });
    await service.saveArtifact({
      appName: 'app',
      userId: 'u',
      sessionId: 's',
      filename: 'x.txt',
      artifact: { text: 'one' },
      customMetadata: { k: 1 },
    });
    const directory = path.join(root, 'app', 'u', 'sessions', 's', 'x.txt');
    expect((await readdir(directory)).sort()).toEqual(['0.bin', '0.json']);
  });

  it('ignores a version whose sidecar was never committed (crash between the two writes)', async () => {
    const root = await newRoot();
    const service = new FileArtifactService({ root });
    const s = { appName: 'app', userId: 'u', sessionId: 's', filename: 'x.txt' };
    await service.saveArtifact({ ...s, artifact: { text: 'committed' } });
    const directory = path.join(root, 'app', 'u', 'sessions', 's', 'x.txt');
    await writeFile(path.join(directory, '1.bin'), 'orphan bytes');
    expect(await service.listVersions(s)).toEqual([0]);
    expect(await service.loadArtifact(s)).toEqual({ text: 'committed' });
    expect(await service.saveArtifact({ ...s, artifact: { text: 'next' } })).toBe(2);
    expect(await service.loadArtifact(s)).toEqual({ text: 'next' });
  });

  it('refuses to follow a symbolic link that leads out of the root', async () => {
    const root = await newRoot();
    const outside = await newRoot();
    await mkdir(path.join(root, 'app'), { recursive: true });
    await symlink(outside, path.join(root, 'app', 'u'));
    const service = new FileArtifactService({ root });
    const s = { appName: 'app', userId: 'u', sessionId: 's' };
    const error = await service
      .saveArtifact({ ...s, filename: 'x.txt', artifact: { text: 'x' } })
      .catch((e: unknown) => e);
    expect(ArtifactPathError.isInstance(error)).toBe(true);
    expect(await readdir(outside)).toEqual([]);
    await expect(service.listArtifactKeys(s)).rejects.toSatisfy(ArtifactPathError.isInstance);
  });

  it('keeps a consistent state when deletes race saves: a save never fails or half-exists', async () => {
    const root = await newRoot();
    const service = new FileArtifactService({ root });
    const s = { appName: 'app', userId: 'u', sessionId: 's', filename: 'race.txt' };
    for (let round = 0; round < 20; round++) {
      await service.saveArtifact({ ...s, artifact: { text: 'old' } });
      const [, version] = await Promise.all([
        service.deleteArtifact(s),
        service.saveArtifact({ ...s, artifact: { text: `new ${round}` } }),
      ]);
      const versions = await service.listVersions(s);
      if (versions.length > 0) {
        // The save landed after the delete: it is the only version and reads back whole.
        expect(versions).toEqual([version]);
        expect(await service.loadArtifact({ ...s, version })).toEqual({ text: `new ${round}` });
      } else {
        expect(await service.loadArtifact(s)).toBeUndefined();
      }
      await service.deleteArtifact(s);
    }
  });
});
