import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.TransferNotAllowedError');

/**
 * A model asked to transfer to an agent that is not one of the calling agent's allowed targets
 * (unknown, or excluded by `disallowTransferToParent` / `disallowTransferToPeers`). The transfer
 * does not happen; the model receives this error as the function response.
 */
export class TransferNotAllowedError extends AdkError {
  private readonly [MARKER] = true;
  readonly agentName: string;
  readonly requestedAgent: string;
  readonly allowedTargets: readonly string[];

  constructor(options: {
    agentName: string;
    requestedAgent: string;
    allowedTargets: readonly string[];
  }) {
    const allowed = options.allowedTargets.length > 0 ? options.allowedTargets.join(', ') : 'none';
    super('TransferNotAllowedError', 'TRANSFER_NOT_ALLOWED', {
      message: `Agent "${options.agentName}" cannot transfer to "${options.requestedAgent}". Allowed targets: ${allowed}.`,
    });
    this.agentName = options.agentName;
    this.requestedAgent = options.requestedAgent;
    this.allowedTargets = [...options.allowedTargets];
  }

  static override isInstance(error: unknown): error is TransferNotAllowedError {
    return AdkError.hasMarker(error, MARKER);
  }
}
