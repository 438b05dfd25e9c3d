import { AdkError } from './adk-error';
import { describeCause } from './describe-cause';

const MARKER = Symbol.for('adk.error.PluginError');

/** A plugin threw inside one of its hooks, or plugins were misconfigured (duplicate names). `cause` holds the original error. */
export class PluginError extends AdkError {
  private readonly [MARKER] = true;
  readonly pluginName: string;
  readonly hook: string;

  constructor(options: { pluginName: string; hook: string; message?: string; cause?: unknown }) {
    super('PluginError', 'PLUGIN_ERROR', {
      message:
        options.message ??
        `Plugin "${options.pluginName}" failed in hook "${options.hook}": ${describeCause(options.cause)}`,
      cause: options.cause,
    });
    this.pluginName = options.pluginName;
    this.hook = options.hook;
  }

  static override isInstance(error: unknown): error is PluginError {
    return AdkError.hasMarker(error, MARKER);
  }
}
