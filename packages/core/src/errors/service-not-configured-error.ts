import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.ServiceNotConfiguredError');

/** A context method needs a service the Runner was not given (`artifactService` or `memoryService`). */
export class ServiceNotConfiguredError extends AdkError {
  private readonly [MARKER] = true;
  readonly service: string;

  constructor(options: { service: 'artifactService' | 'memoryService'; cause?: unknown }) {
    super('ServiceNotConfiguredError', 'SERVICE_NOT_CONFIGURED', {
      message: `No ${options.service} is configured. Pass one to the Runner: new Runner({ ..., ${options.service}: ... }).`,
      cause: options.cause,
    });
    this.service = options.service;
  }

  static override isInstance(error: unknown): error is ServiceNotConfiguredError {
    return AdkError.hasMarker(error, MARKER);
  }
}
