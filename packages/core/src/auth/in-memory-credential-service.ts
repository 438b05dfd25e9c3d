import type { AuthCredential } from './auth-credential';
import type {
  CredentialAddress,
  CredentialService,
  SaveCredentialRequest,
} from './credential-service';

/**
 * A {@link CredentialService} in process memory: credentials last as long as the process. The
 * Runner's default. Values are copied in and out.
 *
 * @example
 * ```ts
 * const runner = new Runner({ appName, agent, credentialService: new InMemoryCredentialService() });
 * ```
 */
export class InMemoryCredentialService implements CredentialService {
  readonly #credentials = new Map<string, AuthCredential>();

  loadCredential(request: CredentialAddress): Promise<AuthCredential | undefined> {
    const stored = this.#credentials.get(addressKey(request));
    return Promise.resolve(stored && structuredClone(stored));
  }

  saveCredential(request: SaveCredentialRequest): Promise<void> {
    this.#credentials.set(addressKey(request), structuredClone(request.credential));
    return Promise.resolve();
  }

  deleteCredential(request: CredentialAddress): Promise<void> {
    this.#credentials.delete(addressKey(request));
    return Promise.resolve();
  }
}

function addressKey({ appName, userId, credentialKey }: CredentialAddress): string {
  return JSON.stringify([appName, userId, credentialKey]);
}
