import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.MissingApiKeyError');

/**
 * No API key was configured for a provider: neither the `apiKey` setting nor any of its
 * environment variables. Thrown when a call is made, never at import or construction time.
 */
export class MissingApiKeyError extends AdkError {
  private readonly [MARKER] = true;
  readonly provider: string;
  /** Environment variables that were looked up, in order. */
  readonly envVars: readonly string[];

  constructor(options: { provider: string; envVars: readonly string[]; hint?: string }) {
    const vars = options.envVars.join(', ');
    const hint = options.hint ? ` ${options.hint}` : '';
    super('MissingApiKeyError', 'MISSING_API_KEY', {
      message: `No API key for ${options.provider}: pass \`apiKey\` to the provider settings or set ${vars}.${hint}`,
    });
    this.provider = options.provider;
    this.envVars = options.envVars;
  }

  static override isInstance(error: unknown): error is MissingApiKeyError {
    return AdkError.hasMarker(error, MARKER);
  }
}
