import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startTokenServer } from '../../test/token-server';
import { CredentialExchangeError } from '../errors/credential-exchange-error';
import type { AuthConfig } from './auth-config';
import type { AuthCredential } from './auth-credential';
import { InMemoryCredentialService } from './in-memory-credential-service';
import {
  ACCESS_TOKEN_EXPIRY_MARGIN_SECONDS,
  canRefreshAccessToken,
  isAccessTokenExpired,
  refreshAccessToken,
} from './oauth2-refresh';
import { refreshStoredCredential } from './refresh-stored-credential';

let token: Awaited<ReturnType<typeof startTokenServer>>;
beforeEach(async () => {
  token = await startTokenServer();
});
afterEach(async () => {
  await new Promise((resolve) => token.server.close(resolve));
});

const configFor = (tokenUrl: string): AuthConfig => ({
  authScheme: {
    type: 'oauth2',
    flows: {
      authorizationCode: { authorizationUrl: 'https://auth.example/a', tokenUrl, scopes: {} },
    },
  },
  rawAuthCredential: { authType: 'oauth2', oauth2: { clientId: 'app', clientSecret: 's3cret' } },
});

const NOW = 1_800_000_000;
const expiring = (refreshToken: string | undefined, expiresAt: number): AuthCredential => ({
  authType: 'oauth2',
  oauth2: {
    accessToken: 'at-1',
    expiresAt,
    expiresIn: 3600,
    redirectUri: 'http://localhost/cb',
    ...(refreshToken ? { refreshToken } : {}),
  },
});

describe('isAccessTokenExpired', () => {
  it('counts a token as expired from a margin before expiresAt, never without expiresAt', () => {
    const margin = ACCESS_TOKEN_EXPIRY_MARGIN_SECONDS;
    expect(isAccessTokenExpired(expiring('rt-1', NOW + margin + 1), NOW)).toBe(false);
    expect(isAccessTokenExpired(expiring('rt-1', NOW + margin), NOW)).toBe(true);
    expect(isAccessTokenExpired(expiring('rt-1', NOW - 10), NOW)).toBe(true);
    expect(isAccessTokenExpired({ authType: 'oauth2', oauth2: { accessToken: 'x' } }, NOW)).toBe(
      false,
    );
    expect(isAccessTokenExpired({ authType: 'apiKey', apiKey: 'k' }, NOW)).toBe(false);
  });
});

describe('canRefreshAccessToken', () => {
  it('needs an expired token, a refresh token, a token URL and a client id', () => {
    const config = configFor(token.url);
    expect(canRefreshAccessToken(config, expiring('rt-1', NOW - 1), NOW)).toBe(true);
    expect(canRefreshAccessToken(config, expiring('rt-1', NOW + 3600), NOW)).toBe(false);
    expect(canRefreshAccessToken(config, expiring(undefined, NOW - 1), NOW)).toBe(false);
    expect(
      canRefreshAccessToken(
        { ...config, rawAuthCredential: { authType: 'oauth2' } },
        expiring('rt-1', NOW - 1),
        NOW,
      ),
    ).toBe(false);
    expect(
      canRefreshAccessToken(
        { authScheme: { type: 'http', scheme: 'bearer' } },
        expiring('rt-1', NOW - 1),
        NOW,
      ),
    ).toBe(false);
  });
});

describe('refreshAccessToken', () => {
  it('posts grant_type=refresh_token as the client and returns the new tokens', async () => {
    const refreshed = await refreshAccessToken(configFor(token.url), expiring('rt-1', NOW - 1), {
      nowSeconds: NOW,
    });
    expect(refreshed).toEqual({
      authType: 'oauth2',
      oauth2: {
        accessToken: 'at-2',
        refreshToken: 'rt-2',
        expiresIn: 3600,
        expiresAt: NOW + 3600,
        redirectUri: 'http://localhost/cb',
      },
    });
    const [request] = token.seen;
    expect(request?.authorization).toBe(`Basic ${Buffer.from('app:s3cret').toString('base64')}`);
    expect(Object.fromEntries(request!.body)).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'rt-1',
    });
  });

  it('throws CredentialExchangeError (refresh_token) for a refused token and a closed endpoint', async () => {
    await expect(
      refreshAccessToken(configFor(token.url), expiring('revoked', NOW - 1)),
    ).rejects.toSatisfy(
      (error) =>
        CredentialExchangeError.isInstance(error) &&
        error.code === 'CREDENTIAL_EXCHANGE_FAILED' &&
        error.grantType === 'refresh_token' &&
        error.status === 400 &&
        error.message.includes('Refreshing'),
    );
    await expect(
      refreshAccessToken(configFor('http://127.0.0.1:1/token'), expiring('rt-1', NOW - 1)),
    ).rejects.toSatisfy(
      (error) => CredentialExchangeError.isInstance(error) && error.status === undefined,
    );
  });
});

describe('refreshStoredCredential', () => {
  const address = { appName: 'cal', userId: 'u', credentialKey: 'calendar' };

  it('sends one request for concurrent refreshes of the same token, and saves the result', async () => {
    const service = new InMemoryCredentialService();
    const credential = expiring('rt-1', 1);
    await service.saveCredential({ ...address, credential });
    const config = configFor(token.url);
    const results = await Promise.all(
      [1, 2, 3].map(() => refreshStoredCredential({ config, credential, service, address })),
    );
    expect(results.map((result) => result.oauth2?.accessToken)).toEqual(['at-2', 'at-2', 'at-2']);
    expect(token.seen).toHaveLength(1);
    expect((await service.loadCredential(address))?.oauth2?.refreshToken).toBe('rt-2');
  });

  it('deletes a credential whose refresh is refused, keeps it when the endpoint is down', async () => {
    const service = new InMemoryCredentialService();
    const credential = expiring('revoked', 1);
    await service.saveCredential({ ...address, credential });
    await expect(
      refreshStoredCredential({
        config: configFor('http://127.0.0.1:1/token'),
        credential,
        service,
        address,
      }),
    ).rejects.toThrow(CredentialExchangeError);
    expect(await service.loadCredential(address)).toEqual(credential);
    await expect(
      refreshStoredCredential({ config: configFor(token.url), credential, service, address }),
    ).rejects.toThrow(CredentialExchangeError);
    expect(await service.loadCredential(address)).toBeUndefined();
  });

  it('returns the fresh credential another process stored instead of deleting it', async () => {
    const service = new InMemoryCredentialService();
    const stale = expiring('rt-1', 1);
    const fresh: AuthCredential = {
      authType: 'oauth2',
      oauth2: { accessToken: 'at-9', refreshToken: 'rt-9', expiresAt: Date.now() / 1000 + 3600 },
    };
    await service.saveCredential({ ...address, credential: fresh });
    // rt-1 was already used by the other process: the endpoint refuses it now.
    await refreshAccessToken(configFor(token.url), stale);
    const result = await refreshStoredCredential({
      config: configFor(token.url),
      credential: stale,
      service,
      address,
    });
    expect(result).toEqual(fresh);
    expect(await service.loadCredential(address)).toEqual(fresh);
  });
});
