const ADK_ERROR_MARKER = Symbol.for('adk.error');

/** Options accepted by every {@link AdkError}. */
export interface AdkErrorOptions {
  /** Human-readable description of what went wrong. */
  message: string;
  /** The underlying error, when this one wraps another. */
  cause?: unknown;
}

/**
 * Base class of every error thrown by ADK packages.
 *
 * Each subclass has a stable `name` and a stable machine-readable `code`. Use the static
 * `isInstance` check rather than `instanceof`: it keeps working when two copies of a package are
 * installed side by side (a common situation in monorepos and bundlers).
 *
 * @example
 * ```ts
 * try { await runner.run(...) } catch (error) {
 *   if (SessionNotFoundError.isInstance(error)) createAndRetry();
 * }
 * ```
 */
export class AdkError extends Error {
  private readonly [ADK_ERROR_MARKER] = true;
  /** Stable machine-readable code, e.g. `SESSION_NOT_FOUND`. */
  readonly code: string;

  constructor(name: string, code: string, options: AdkErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = name;
    this.code = code;
  }

  /** True when `error` is an {@link AdkError} from any copy of an ADK package. */
  static isInstance(error: unknown): error is AdkError {
    return AdkError.hasMarker(error, ADK_ERROR_MARKER);
  }

  /** @internal Used by subclasses to implement their own cross-copy `isInstance`. */
  protected static hasMarker(error: unknown, marker: symbol): boolean {
    return (
      error != null &&
      typeof error === 'object' &&
      marker in error &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }

  /** Plain JSON form, used when an error crosses a process or HTTP boundary. */
  toJSON(): { name: string; code: string; message: string } {
    return { name: this.name, code: this.code, message: this.message };
  }
}
