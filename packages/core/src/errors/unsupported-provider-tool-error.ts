import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.UnsupportedProviderToolError');

/**
 * An agent has a provider-side tool (`ProviderTool`: web search, URL context, code execution) that
 * its model does not take (`ModelCapabilities.providerTools` does not list its type). Thrown when
 * the agent is built with a `Model`, or when its model name is first resolved, before any request
 * is sent, rather than letting the provider answer 400.
 */
export class UnsupportedProviderToolError extends AdkError {
  private readonly [MARKER] = true;
  /** The model that cannot take the tool. */
  readonly modelName: string;
  /** The provider tool type, e.g. `webSearch`. */
  readonly toolType: string;
  /** The provider tool types the model declares. */
  readonly supported: readonly string[];
  /**
   * `unsupported`: the model does not take the tool; `with-functions`: it takes it, but not in
   * the same request as function declarations.
   */
  readonly reason: 'unsupported' | 'with-functions';

  constructor(options: {
    modelName: string;
    toolType: string;
    supported: readonly string[];
    reason?: 'unsupported' | 'with-functions';
    agentName?: string;
    cause?: unknown;
  }) {
    const who = options.agentName ? `Agent "${options.agentName}": model` : 'Model';
    const supported = options.supported.length ? options.supported.join(', ') : 'none';
    const reason = options.reason ?? 'unsupported';
    super('UnsupportedProviderToolError', 'UNSUPPORTED_PROVIDER_TOOL', {
      message:
        reason === 'unsupported'
          ? `${who} "${options.modelName}" cannot run the provider-side tool "${options.toolType}" (it takes: ${supported}). Use a model that supports it, or remove the tool.`
          : `${who} "${options.modelName}" cannot combine the provider-side tool "${options.toolType}" with function tools in one request. Give the provider tool to an agent of its own (used through AgentTool), or use a model that combines them.`,
      cause: options.cause,
    });
    this.modelName = options.modelName;
    this.toolType = options.toolType;
    this.supported = options.supported;
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is UnsupportedProviderToolError {
    return AdkError.hasMarker(error, MARKER);
  }
}
