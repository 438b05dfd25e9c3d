import { CredentialExchangeError } from '../errors/credential-exchange-error';
import type { AuthConfig } from './auth-config';
import type { AuthCredential } from './auth-credential';
import type { CredentialAddress, CredentialService } from './credential-service';
import { isAccessTokenExpired, refreshAccessToken } from './oauth2-refresh';

/** Refreshes under way, per credential service and address and refresh token. */
const inFlight = new WeakMap<object, Map<string, Promise<AuthCredential>>>();
const NO_SERVICE = {};

/** What {@link refreshStoredCredential} refreshes: the tool's config and the stored credential. */
interface StoredCredentialRefresh {
  config: AuthConfig;
  credential: AuthCredential;
  service: CredentialService | undefined;
  address: CredentialAddress;
  signal?: AbortSignal | undefined;
}

/**
 * Refresh `credential` (stored at `address`, its access token expired) and save the new tokens.
 * Concurrent calls for the same stored refresh token in this process share one request (an
 * endpoint that rotates refresh tokens would refuse the second). When the endpoint refuses the
 * refresh, the stored credential is deleted, so the next request for it asks the user again,
 * unless another process already replaced it with a fresh one (then that one is returned). An
 * unreachable endpoint deletes nothing.
 *
 * @throws CredentialExchangeError when the refresh fails.
 */
export async function refreshStoredCredential(
  init: StoredCredentialRefresh,
): Promise<AuthCredential> {
  const owner = init.service ?? NO_SERVICE;
  let pending = inFlight.get(owner);
  if (!pending) inFlight.set(owner, (pending = new Map()));
  const { appName, userId, credentialKey } = init.address;
  const key = JSON.stringify([
    appName,
    userId,
    credentialKey,
    init.credential.oauth2?.refreshToken,
  ]);
  let refresh = pending.get(key);
  if (!refresh) {
    const map = pending;
    refresh = refreshAndSave(init).finally(() => map.delete(key));
    map.set(key, refresh);
  }
  return structuredClone(await refresh);
}

async function refreshAndSave(init: StoredCredentialRefresh): Promise<AuthCredential> {
  const { service, address } = init;
  let refreshed: AuthCredential;
  try {
    refreshed = await refreshAccessToken(init.config, init.credential, { signal: init.signal });
  } catch (error) {
    const refused = CredentialExchangeError.isInstance(error) && error.status !== undefined;
    if (service && refused) {
      const stored = await service.loadCredential(address);
      const replaced =
        stored !== undefined &&
        stored.oauth2?.refreshToken !== init.credential.oauth2?.refreshToken &&
        stored.oauth2?.accessToken !== undefined &&
        !isAccessTokenExpired(stored);
      if (replaced) return stored;
      if (stored) await service.deleteCredential(address);
    }
    throw error;
  }
  await service?.saveCredential({ ...address, credential: refreshed });
  return refreshed;
}
