import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import type { ArtifactScope, ArtifactService } from '../artifacts';
import type { Part } from '../content';
import { InvalidArgumentError } from '../errors/invalid-argument-error';
import { InvalidArtifactNameError } from '../errors/invalid-artifact-name-error';

/** Names every artifact service must refuse, with what makes them invalid. */
const INVALID_NAMES: ReadonlyArray<[string, string]> = [
  ['', 'empty'],
  ['user:', 'bare user: prefix'],
  ['a/b.txt', 'slash'],
  ['a\\b.txt', 'backslash'],
  ['..', 'dot-dot'],
  ['../escape.txt', 'traversal'],
  ['user:../escape.txt', 'user traversal'],
  ['nul\u0000byte', 'NUL'],
  ['line\nbreak', 'newline'],
  ['bell\u0007', 'control character'],
  ['x'.repeat(300), 'too long'],
];

function bytesPart(bytes: Uint8Array, mimeType: string): Part {
  return { inlineData: { mimeType, data: Buffer.from(bytes).toString('base64') } };
}

function partBytes(part: Part | undefined): Buffer {
  return Buffer.from(part?.inlineData?.data ?? '', 'base64');
}

/**
 * The artifact-service contract as a vitest suite. Run it against every implementation:
 *
 * @example
 * ```ts
 * import { artifactServiceConformance } from '@adk/core/testing/vitest';
 * artifactServiceConformance('InMemoryArtifactService', () => new InMemoryArtifactService());
 * ```
 *
 * `makeService` is called once per test. Every test uses its own random app name, so services
 * sharing one database do not see each other's data.
 */
export function artifactServiceConformance(
  label: string,
  makeService: () => Promise<ArtifactService> | ArtifactService,
): void {
  describe(`ArtifactService conformance: ${label}`, () => {
    const scope = (over: Partial<ArtifactScope> = {}): ArtifactScope => ({
      appName: `app-${randomUUID()}`,
      userId: 'alice',
      sessionId: 'session-1',
      ...over,
    });

    it('numbers versions from 0 and loads the latest or a given version', async () => {
      const service = await makeService();
      const s = scope();
      const filename = 'notes.txt';
      expect(await service.saveArtifact({ ...s, filename, artifact: { text: 'first' } })).toBe(0);
      expect(await service.saveArtifact({ ...s, filename, artifact: { text: 'second' } })).toBe(1);
      expect(await service.saveArtifact({ ...s, filename, artifact: { text: 'third' } })).toBe(2);
      expect(await service.loadArtifact({ ...s, filename })).toEqual({ text: 'third' });
      expect(await service.loadArtifact({ ...s, filename, version: 0 })).toEqual({ text: 'first' });
      expect(await service.loadArtifact({ ...s, filename, version: 1 })).toEqual({
        text: 'second',
      });
      expect(await service.listVersions({ ...s, filename })).toEqual([0, 1, 2]);
    });

    it('round-trips binary data byte for byte with its media type', async () => {
      const service = await makeService();
      const s = scope();
      const bytes = new Uint8Array(256).map((_, i) => i);
      await service.saveArtifact({
        ...s,
        filename: 'all-bytes.bin',
        artifact: bytesPart(bytes, 'application/octet-stream'),
      });
      const loaded = await service.loadArtifact({ ...s, filename: 'all-bytes.bin' });
      expect(loaded?.inlineData?.mimeType).toBe('application/octet-stream');
      expect(partBytes(loaded).equals(Buffer.from(bytes))).toBe(true);
    });

    it('keeps a fileData reference as given', async () => {
      const service = await makeService();
      const s = scope();
      const artifact: Part = {
        fileData: { fileUri: 'gs://bucket/report.pdf', mimeType: 'application/pdf' },
      };
      await service.saveArtifact({ ...s, filename: 'report-ref', artifact });
      expect(await service.loadArtifact({ ...s, filename: 'report-ref' })).toEqual(artifact);
    });

    it('returns undefined for a missing file or version and [] for its versions', async () => {
      const service = await makeService();
      const s = scope();
      expect(await service.loadArtifact({ ...s, filename: 'missing.txt' })).toBeUndefined();
      expect(await service.getArtifactVersion({ ...s, filename: 'missing.txt' })).toBeUndefined();
      expect(await service.listVersions({ ...s, filename: 'missing.txt' })).toEqual([]);
      expect(await service.listArtifactVersions({ ...s, filename: 'missing.txt' })).toEqual([]);
      await service.saveArtifact({ ...s, filename: 'one.txt', artifact: { text: 'x' } });
      expect(await service.loadArtifact({ ...s, filename: 'one.txt', version: 5 })).toBeUndefined();
      expect(
        await service.getArtifactVersion({ ...s, filename: 'one.txt', version: 5 }),
      ).toBeUndefined();
    });

    it('lists the session names and the user names, sorted, and nothing of other scopes', async () => {
      const service = await makeService();
      const s = scope();
      for (const filename of ['zeta.txt', 'alpha.txt', 'user:profile.json', 'Beta.txt']) {
        await service.saveArtifact({ ...s, filename, artifact: { text: filename } });
      }
      await service.saveArtifact({ ...s, filename: 'alpha.txt', artifact: { text: 'v1' } });
      await service.saveArtifact({
        ...s,
        sessionId: 'other-session',
        filename: 'elsewhere.txt',
        artifact: { text: 'x' },
      });
      await service.saveArtifact({
        ...s,
        userId: 'bob',
        filename: 'user:bob.json',
        artifact: { text: 'x' },
      });
      await service.saveArtifact({
        ...s,
        userId: 'bob',
        filename: 'bob-session.txt',
        artifact: { text: 'x' },
      });
      await service.saveArtifact({
        ...scope(),
        filename: 'other-app.txt',
        artifact: { text: 'x' },
      });

      const expected = ['Beta.txt', 'alpha.txt', 'user:profile.json', 'zeta.txt'].sort();
      expect(await service.listArtifactKeys(s)).toEqual(expected);
      expect(await service.listArtifactKeys({ ...s, sessionId: 'other-session' })).toEqual([
        'elsewhere.txt',
        'user:profile.json',
      ]);
      expect(await service.listArtifactKeys({ ...s, userId: 'bob' })).toEqual([
        'bob-session.txt',
        'user:bob.json',
      ]);
      expect(await service.listArtifactKeys({ ...s, sessionId: 'never-used' })).toEqual([
        'user:profile.json',
      ]);
    });

    it('shares user: names across the sessions of the user, never with another user', async () => {
      const service = await makeService();
      const s = scope();
      expect(
        await service.saveArtifact({
          ...s,
          filename: 'user:prefs.json',
          artifact: { text: '{"a":1}' },
        }),
      ).toBe(0);
      expect(
        await service.saveArtifact({
          ...s,
          sessionId: 'session-2',
          filename: 'user:prefs.json',
          artifact: { text: '{"a":2}' },
        }),
      ).toBe(1);
      expect(
        await service.loadArtifact({ ...s, sessionId: 'session-3', filename: 'user:prefs.json' }),
      ).toEqual({ text: '{"a":2}' });
      expect(await service.loadArtifact({ ...s, filename: 'user:prefs.json', version: 0 })).toEqual(
        { text: '{"a":1}' },
      );
      expect(
        await service.loadArtifact({ ...s, userId: 'mallory', filename: 'user:prefs.json' }),
      ).toBeUndefined();
    });

    it('keeps session names private to their session', async () => {
      const service = await makeService();
      const s = scope();
      await service.saveArtifact({ ...s, filename: 'draft.md', artifact: { text: 'mine' } });
      expect(
        await service.loadArtifact({ ...s, sessionId: 'session-2', filename: 'draft.md' }),
      ).toBeUndefined();
      expect(
        await service.saveArtifact({
          ...s,
          sessionId: 'session-2',
          filename: 'draft.md',
          artifact: { text: 'theirs' },
        }),
      ).toBe(0);
      await service.deleteArtifact({ ...s, sessionId: 'session-2', filename: 'draft.md' });
      expect(await service.loadArtifact({ ...s, filename: 'draft.md' })).toEqual({ text: 'mine' });
    });

    it('deletes every version; a later save starts again at 0; deleting a missing file is fine', async () => {
      const service = await makeService();
      const s = scope();
      await service.saveArtifact({ ...s, filename: 'tmp.txt', artifact: { text: 'a' } });
      await service.saveArtifact({ ...s, filename: 'tmp.txt', artifact: { text: 'b' } });
      await service.saveArtifact({ ...s, filename: 'keep.txt', artifact: { text: 'k' } });
      await service.deleteArtifact({ ...s, filename: 'tmp.txt' });
      expect(await service.loadArtifact({ ...s, filename: 'tmp.txt' })).toBeUndefined();
      expect(await service.loadArtifact({ ...s, filename: 'tmp.txt', version: 0 })).toBeUndefined();
      expect(await service.listVersions({ ...s, filename: 'tmp.txt' })).toEqual([]);
      expect(await service.listArtifactKeys(s)).toEqual(['keep.txt']);
      await expect(service.deleteArtifact({ ...s, filename: 'tmp.txt' })).resolves.toBeUndefined();
      await expect(
        service.deleteArtifact({ ...s, filename: 'never.txt' }),
      ).resolves.toBeUndefined();
      expect(
        await service.saveArtifact({ ...s, filename: 'tmp.txt', artifact: { text: 'c' } }),
      ).toBe(0);
    });

    it('stores custom metadata, media type and creation time per version', async () => {
      const service = await makeService();
      const s = scope();
      const before = Date.now();
      await service.saveArtifact({
        ...s,
        filename: 'chart.png',
        artifact: bytesPart(new Uint8Array([1, 2]), 'image/png'),
        customMetadata: { source: 'plot', n: 2 },
      });
      await service.saveArtifact({ ...s, filename: 'chart.png', artifact: { text: 'alt text' } });
      const versions = await service.listArtifactVersions({ ...s, filename: 'chart.png' });
      expect(versions.map((v) => v.version)).toEqual([0, 1]);
      expect(versions[0]).toMatchObject({
        version: 0,
        mimeType: 'image/png',
        customMetadata: { source: 'plot', n: 2 },
      });
      expect(versions[1]?.mimeType).toBe('text/plain');
      expect(versions[1]?.customMetadata).toBeUndefined();
      expect(versions[0]!.createTime).toBeGreaterThanOrEqual(before - 1000);
      expect(versions[0]!.createTime).toBeLessThanOrEqual(Date.now() + 1000);
      expect(await service.getArtifactVersion({ ...s, filename: 'chart.png' })).toEqual(
        versions[1],
      );
      expect(await service.getArtifactVersion({ ...s, filename: 'chart.png', version: 0 })).toEqual(
        versions[0],
      );
    });

    it('gives concurrent saves of one file distinct versions and loses none', async () => {
      const service = await makeService();
      const s = scope();
      const saved = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          service.saveArtifact({ ...s, filename: 'race.txt', artifact: { text: `writer ${i}` } }),
        ),
      );
      expect([...saved].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      const texts = await Promise.all(
        saved.map((version) => service.loadArtifact({ ...s, filename: 'race.txt', version })),
      );
      expect(texts.map((part) => part?.text).sort()).toEqual(
        Array.from({ length: 8 }, (_, i) => `writer ${i}`).sort(),
      );
    });

    it('accepts unicode, spaces and dots in names', async () => {
      const service = await makeService();
      const s = scope();
      const names = [
        'résumé 2024.pdf',
        'user:日本語.txt',
        '.hidden',
        'a.b.c',
        'with:colon',
        '%41 percent',
      ];
      for (const filename of names)
        await service.saveArtifact({ ...s, filename, artifact: { text: filename } });
      expect(await service.listArtifactKeys(s)).toEqual([...names].sort());
      for (const filename of names)
        expect(await service.loadArtifact({ ...s, filename })).toEqual({ text: filename });
    });

    it('refuses invalid names with InvalidArtifactNameError on every method and stores nothing', async () => {
      const service = await makeService();
      const s = scope();
      for (const [filename, why] of INVALID_NAMES) {
        const calls = [
          () => service.saveArtifact({ ...s, filename, artifact: { text: 'x' } }),
          () => service.loadArtifact({ ...s, filename }),
          () => service.deleteArtifact({ ...s, filename }),
          () => service.listVersions({ ...s, filename }),
          () => service.listArtifactVersions({ ...s, filename }),
          () => service.getArtifactVersion({ ...s, filename }),
        ];
        for (const call of calls) {
          const error = await call().then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(
            InvalidArtifactNameError.isInstance(error),
            `${why}: ${JSON.stringify(filename.slice(0, 20))}`,
          ).toBe(true);
        }
      }
      expect(await service.listArtifactKeys(s)).toEqual([]);
    });

    it('refuses malformed parts and versions with InvalidArgumentError', async () => {
      const service = await makeService();
      const s = scope();
      const bad: Part[] = [
        {},
        { text: 'a', inlineData: { mimeType: 'text/plain', data: '' } },
        { functionCall: { name: 'f' } },
      ];
      for (const artifact of bad) {
        const error = await service
          .saveArtifact({ ...s, filename: 'bad.txt', artifact })
          .catch((e: unknown) => e);
        expect(InvalidArgumentError.isInstance(error)).toBe(true);
      }
      expect(await service.listArtifactKeys(s)).toEqual([]);
      await service.saveArtifact({ ...s, filename: 'ok.txt', artifact: { text: 'ok' } });
      for (const version of [-1, 1.5]) {
        const error = await service
          .loadArtifact({ ...s, filename: 'ok.txt', version })
          .catch((e: unknown) => e);
        expect(InvalidArgumentError.isInstance(error)).toBe(true);
      }
    });

    it('never lets a caller change stored data through a returned or given object', async () => {
      const service = await makeService();
      const s = scope();
      const given: Part = { text: 'original' };
      const metadata = { tags: ['a'] };
      await service.saveArtifact({
        ...s,
        filename: 'alias.txt',
        artifact: given,
        customMetadata: metadata,
      });
      given.text = 'changed after save';
      metadata.tags.push('b');
      const loaded = await service.loadArtifact({ ...s, filename: 'alias.txt' });
      expect(loaded).toEqual({ text: 'original' });
      loaded!.text = 'changed after load';
      const version = await service.getArtifactVersion({ ...s, filename: 'alias.txt' });
      (version!.customMetadata!.tags as string[]).push('c');
      expect(await service.loadArtifact({ ...s, filename: 'alias.txt' })).toEqual({
        text: 'original',
      });
      expect(
        (await service.getArtifactVersion({ ...s, filename: 'alias.txt' }))?.customMetadata,
      ).toEqual({ tags: ['a'] });
    });
  });
}
