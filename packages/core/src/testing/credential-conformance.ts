import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import type { AuthCredential, CredentialAddress, CredentialService } from '../auth';

/**
 * The credential-service contract as a vitest suite. Run it against every implementation:
 *
 * @example
 * ```ts
 * import { credentialServiceConformance } from '@adk/core/testing/vitest';
 * credentialServiceConformance('InMemoryCredentialService', () => new InMemoryCredentialService());
 * ```
 *
 * `makeService` is called once per test. Every test uses its own random app name, so services
 * sharing one store do not see each other's data.
 */
export function credentialServiceConformance(
  label: string,
  makeService: () => Promise<CredentialService> | CredentialService,
): void {
  describe(`CredentialService conformance: ${label}`, () => {
    const address = (over: Partial<CredentialAddress> = {}): CredentialAddress => ({
      appName: `app-${randomUUID()}`,
      userId: 'alice',
      credentialKey: 'calendar',
      ...over,
    });
    const oauth: AuthCredential = {
      authType: 'oauth2',
      oauth2: { clientId: 'client', accessToken: 'token-1', refreshToken: 'refresh', expiresAt: 1 },
    };

    it('loads nothing for an address never saved', async () => {
      const service = await makeService();
      expect(await service.loadCredential(address())).toBeUndefined();
    });

    it('loads what was saved, and the latest save wins', async () => {
      const service = await makeService();
      const at = address();
      await service.saveCredential({ ...at, credential: oauth });
      expect(await service.loadCredential(at)).toEqual(oauth);
      const apiKey: AuthCredential = { authType: 'apiKey', apiKey: 'k-2' };
      await service.saveCredential({ ...at, credential: apiKey });
      expect(await service.loadCredential(at)).toEqual(apiKey);
    });

    it('keeps apps, users and credential keys apart', async () => {
      const service = await makeService();
      const at = address();
      await service.saveCredential({ ...at, credential: oauth });
      expect(await service.loadCredential({ ...at, userId: 'bob' })).toBeUndefined();
      expect(await service.loadCredential({ ...at, credentialKey: 'mail' })).toBeUndefined();
      expect(
        await service.loadCredential({ ...at, appName: `app-${randomUUID()}` }),
      ).toBeUndefined();
    });

    it('keeps the stored value apart from the caller objects', async () => {
      const service = await makeService();
      const at = address();
      const credential = structuredClone(oauth);
      await service.saveCredential({ ...at, credential });
      credential.oauth2!.accessToken = 'changed after save';
      const loaded = await service.loadCredential(at);
      expect(loaded?.oauth2?.accessToken).toBe('token-1');
      loaded!.oauth2!.accessToken = 'changed after load';
      expect((await service.loadCredential(at))?.oauth2?.accessToken).toBe('token-1');
    });

    it('forgets a deleted credential, and deleting nothing is not an error', async () => {
      const service = await makeService();
      const at = address();
      await service.saveCredential({ ...at, credential: oauth });
      await service.deleteCredential(at);
      expect(await service.loadCredential(at)).toBeUndefined();
      await expect(service.deleteCredential(at)).resolves.toBeUndefined();
    });
  });
}
