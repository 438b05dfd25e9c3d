import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.PortInUseError');

/** The port a server was asked to listen on is taken by another process. */
export class PortInUseError extends AdkError {
  private readonly [MARKER] = true;
  /** The busy port. */
  readonly port: number;
  /** The interface the server tried to bind. */
  readonly host: string;

  constructor(options: { port: number; host: string; cause?: unknown }) {
    super('PortInUseError', 'PORT_IN_USE', {
      message: `Port ${options.port} on ${options.host} is already in use: choose another with --port <n> (or the PORT variable), or stop the process using it.`,
      cause: options.cause,
    });
    this.port = options.port;
    this.host = options.host;
  }

  static override isInstance(error: unknown): error is PortInUseError {
    return AdkError.hasMarker(error, MARKER);
  }
}
