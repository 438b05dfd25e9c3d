import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.LiveNotSupportedError');

/**
 * `Runner.runLive` cannot serve the session's agent: its model has no `connectLive` (a
 * turn-based model), or the agent is not an `LlmAgent`.
 */
export class LiveNotSupportedError extends AdkError {
  private readonly [MARKER] = true;
  /** The agent that was to answer. */
  readonly agentName: string;
  /** The model name, when the agent has a model. */
  readonly model: string | undefined;

  constructor(options: { agentName: string; model?: string; message?: string }) {
    super('LiveNotSupportedError', 'LIVE_NOT_SUPPORTED', {
      message:
        options.message ??
        `Agent "${options.agentName}" cannot run live: model "${options.model ?? '?'}" has no connectLive (use a live model, e.g. a Gemini Live or OpenAI Realtime model).`,
    });
    this.agentName = options.agentName;
    this.model = options.model;
  }

  static override isInstance(error: unknown): error is LiveNotSupportedError {
    return AdkError.hasMarker(error, MARKER);
  }
}
