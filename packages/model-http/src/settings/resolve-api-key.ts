import { MissingApiKeyError } from '../errors/missing-api-key-error';

/**
 * The API key to use for a call: the explicit setting, else the first non-empty environment
 * variable of `envVars`. Read at call time, so a key set after import still works.
 *
 * @throws {MissingApiKeyError} when none is set.
 */
export function resolveApiKey(
  apiKey: string | undefined,
  provider: string,
  envVars: readonly string[],
  env: Record<string, string | undefined> = process.env,
): string {
  if (apiKey) return apiKey;
  for (const name of envVars) {
    const value = env[name];
    if (value) return value;
  }
  throw new MissingApiKeyError({ provider, envVars });
}
