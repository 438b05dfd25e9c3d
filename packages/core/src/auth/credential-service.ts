import type { AuthCredential } from './auth-credential';

/** Which credential: one per app, user and credential key (see `credentialKeyOf`). */
export interface CredentialAddress {
  appName: string;
  userId: string;
  credentialKey: string;
}

/** Arguments of {@link CredentialService.saveCredential}. */
export interface SaveCredentialRequest extends CredentialAddress {
  credential: AuthCredential;
}

/**
 * Where the credentials users gave to tools are kept, per app, user and credential key, so a tool
 * asks once and finds the credential on later turns and in later sessions. Implementations must
 * keep the stored value apart from the caller's objects (a later change to either does not reach
 * the other). Credentials are secrets: a persistent implementation should encrypt them at rest.
 *
 * Check an implementation with `credentialServiceConformance` from `@adk/core/testing/vitest`.
 */
export interface CredentialService {
  /** The credential saved under the address, or `undefined`. */
  loadCredential(request: CredentialAddress): Promise<AuthCredential | undefined>;
  /** Save (or replace) the credential under the address. */
  saveCredential(request: SaveCredentialRequest): Promise<void>;
  /** Forget the credential under the address (nothing happens when there is none). */
  deleteCredential(request: CredentialAddress): Promise<void>;
}
