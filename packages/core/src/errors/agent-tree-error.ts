import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.AgentTreeError');

/** An agent tree is malformed: an agent given a second parent, or two agents sharing a name. */
export class AgentTreeError extends AdkError {
  private readonly [MARKER] = true;
  readonly agentName: string;

  constructor(options: { agentName: string; message: string; cause?: unknown }) {
    super('AgentTreeError', 'INVALID_AGENT_TREE', {
      message: options.message,
      cause: options.cause,
    });
    this.agentName = options.agentName;
  }

  static override isInstance(error: unknown): error is AgentTreeError {
    return AdkError.hasMarker(error, MARKER);
  }
}
