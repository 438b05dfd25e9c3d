import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startTokenServer } from '../../test/token-server';
import { CredentialExchangeError } from '../errors/credential-exchange-error';
import type { AuthConfig } from './auth-config';
import { canExchangeAuthorizationCode, exchangeAuthorizationCode } from './oauth2-exchange';

let token: Awaited<ReturnType<typeof startTokenServer>>;
beforeEach(async () => {
  token = await startTokenServer();
});
afterEach(async () => {
  await new Promise((resolve) => token.server.close(resolve));
});

const configFor = (tokenUrl: string, method?: string): AuthConfig => ({
  authScheme: {
    type: 'oauth2',
    flows: {
      authorizationCode: { authorizationUrl: 'https://auth.example/a', tokenUrl, scopes: {} },
    },
  },
  rawAuthCredential: {
    authType: 'oauth2',
    oauth2: {
      clientId: 'app',
      clientSecret: 's3cret',
      ...(method ? { tokenEndpointAuthMethod: method } : {}),
    },
  },
});

describe('exchangeAuthorizationCode', () => {
  it('exchanges a code for tokens with client_secret_basic, and drops the used code', async () => {
    const credential = {
      authType: 'oauth2' as const,
      oauth2: { authCode: 'good', redirectUri: 'http://localhost/cb', state: 'st' },
    };
    const config = configFor(token.url);
    expect(canExchangeAuthorizationCode(config, credential)).toBe(true);
    const before = Math.floor(Date.now() / 1000);
    const exchanged = await exchangeAuthorizationCode(config, credential);
    expect(exchanged.oauth2).toMatchObject({
      accessToken: 'at-1',
      refreshToken: 'rt-1',
      expiresIn: 3600,
      redirectUri: 'http://localhost/cb',
    });
    expect(exchanged.oauth2?.authCode).toBeUndefined();
    expect(exchanged.oauth2!.expiresAt! - before).toBeGreaterThanOrEqual(3600);
    const [request] = token.seen;
    expect(request?.authorization).toBe(`Basic ${Buffer.from('app:s3cret').toString('base64')}`);
    expect(Object.fromEntries(request!.body)).toEqual({
      grant_type: 'authorization_code',
      code: 'good',
      redirect_uri: 'http://localhost/cb',
    });
  });

  it('sends the client secret in the body with client_secret_post', async () => {
    await exchangeAuthorizationCode(configFor(token.url, 'client_secret_post'), {
      authType: 'oauth2',
      oauth2: { authCode: 'good' },
    });
    expect(token.seen[0]?.authorization).toBeUndefined();
    expect(token.seen[0]?.body.get('client_secret')).toBe('s3cret');
    expect(token.seen[0]?.body.get('client_id')).toBe('app');
  });

  it('throws CredentialExchangeError for a refused code and an unreachable endpoint', async () => {
    const refused = exchangeAuthorizationCode(configFor(token.url), {
      authType: 'oauth2',
      oauth2: { authCode: 'bad' },
    });
    await expect(refused).rejects.toSatisfy(
      (error) => CredentialExchangeError.isInstance(error) && error.status === 400,
    );
    const closed = `http://127.0.0.1:1/token`;
    await expect(
      exchangeAuthorizationCode(configFor(closed), {
        authType: 'oauth2',
        oauth2: { authCode: 'good' },
      }),
    ).rejects.toSatisfy(
      (error) => CredentialExchangeError.isInstance(error) && error.status === undefined,
    );
  });

  it('has nothing to exchange for tokens, other schemes, or a config without client id', () => {
    const config = configFor(token.url);
    expect(
      canExchangeAuthorizationCode(config, {
        authType: 'oauth2',
        oauth2: { accessToken: 'x', authCode: 'c' },
      }),
    ).toBe(false);
    expect(
      canExchangeAuthorizationCode(
        { authScheme: { type: 'http', scheme: 'bearer' } },
        { authType: 'oauth2', oauth2: { authCode: 'c' } },
      ),
    ).toBe(false);
    expect(
      canExchangeAuthorizationCode(
        { ...config, rawAuthCredential: { authType: 'oauth2' } },
        { authType: 'oauth2', oauth2: { authCode: 'c' } },
      ),
    ).toBe(false);
  });
});
