import { mkdtemp, readdir, readFile, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { artifactServiceConformance } from '@adk/core/testing/vitest';
import { afterAll, describe, expect, it } from 'vitest';

import { ArtifactPathError } from '../errors/artifact-path-error';
import { CorruptArtifactError } from '../errors/corrupt-artifact-error';
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

/** Make the sidecar copied to `<version>.json` name its own version (a well-formed commit). */
async function rewriteVersion(directory: string, version: number): Promise<void> {
  const file = path.join(directory, `${version}.json`);
  const sidecar = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...sidecar, version }));
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

  describe('a symbolic link planted as a version or metadata file', () => {
    const s = { appName: 'app', userId: 'u', sessionId: 's', filename: 'x.txt' };
    async function planted() {
      const root = await newRoot();
      const service = new FileArtifactService({ root });
      await service.saveArtifact({ ...s, artifact: { text: 'mine' }, customMetadata: { a: 1 } });
      const directory = path.join(root, 'app', 'u', 'sessions', 's', 'x.txt');
      // A secret of another user's session, inside the root: confining paths alone allows it.
      const other = { ...s, userId: 'victim', filename: 'secret.txt' };
      await service.saveArtifact({ ...other, artifact: { text: 'secret' } });
      const victim = path.join(root, 'app', 'victim', 'sessions', 's', 'secret.txt');
      return { service, directory, victim };
    }

    it('refuses a version file that is a link, inside the root or out of it', async () => {
      const { service, directory, victim } = await planted();
      await writeFile(
        path.join(directory, '1.json'),
        await readFile(path.join(directory, '0.json')),
      );
      await rewriteVersion(directory, 1);
      await symlink(path.join(victim, '0.bin'), path.join(directory, '1.bin'));
      await expect(service.loadArtifact(s)).rejects.toSatisfy(ArtifactPathError.isInstance);
      await writeFile(
        path.join(directory, '2.json'),
        await readFile(path.join(directory, '0.json')),
      );
      await rewriteVersion(directory, 2);
      await symlink('/etc/hostname', path.join(directory, '2.bin'));
      await expect(service.loadArtifact({ ...s, version: 2 })).rejects.toSatisfy(
        ArtifactPathError.isInstance,
      );
      expect(await service.loadArtifact({ ...s, version: 0 })).toEqual({ text: 'mine' });
    });

    it('refuses a metadata file that is a link', async () => {
      const { service, directory, victim } = await planted();
      await symlink(path.join(victim, '0.json'), path.join(directory, '1.json'));
      for (const read of [
        () => service.loadArtifact(s),
        () => service.getArtifactVersion({ ...s, version: 1 }),
        () => service.listArtifactVersions(s),
      ]) {
        await expect(read()).rejects.toSatisfy(ArtifactPathError.isInstance);
      }
    });

    it('refuses a metadata file that is not a regular file (a FIFO would block a read)', async () => {
      const { service, directory } = await planted();
      await mkdir(path.join(directory, '1.json'));
      await expect(service.loadArtifact(s)).rejects.toSatisfy(ArtifactPathError.isInstance);
    });
  });

  it('reports corrupt metadata with CorruptArtifactError and keeps other versions readable', async () => {
    const root = await newRoot();
    const service = new FileArtifactService({ root });
    const s = { appName: 'app', userId: 'u', sessionId: 's', filename: 'x.txt' };
    await service.saveArtifact({ ...s, artifact: { text: 'v0' } });
    await service.saveArtifact({ ...s, artifact: { text: 'v1' } });
    const directory = path.join(root, 'app', 'u', 'sessions', 's', 'x.txt');
    const sidecar = path.join(directory, '1.json');
    const good = JSON.parse(await readFile(sidecar, 'utf8')) as Record<string, unknown>;
    for (const corrupt of [
      '{"version": 1, "kind": "te',
      'null',
      '[1]',
      JSON.stringify({ ...good, version: 0 }),
      JSON.stringify({ ...good, kind: 'weird' }),
      JSON.stringify({ ...good, createTime: 'yesterday' }),
      JSON.stringify({ ...good, customMetadata: 'x' }),
    ]) {
      await writeFile(sidecar, corrupt);
      const error = await service.loadArtifact(s).catch((e: unknown) => e);
      expect(CorruptArtifactError.isInstance(error), corrupt).toBe(true);
      expect(error).toMatchObject({ code: 'ARTIFACT_CORRUPT', location: sidecar });
      await expect(service.listArtifactVersions(s)).rejects.toSatisfy(
        CorruptArtifactError.isInstance,
      );
    }
    expect(await service.loadArtifact({ ...s, version: 0 })).toEqual({ text: 'v0' });
    await writeFile(sidecar, JSON.stringify(good));
    expect(await service.loadArtifact(s)).toEqual({ text: 'v1' });
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
