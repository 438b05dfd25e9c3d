import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.WebhookDeliveryError');

/** A push notification could not be delivered to a client's webhook. */
export class WebhookDeliveryError extends AdkError {
  private readonly [MARKER] = true;
  readonly url: string;
  /** The webhook's HTTP status, when it answered. */
  readonly status: number | undefined;

  constructor(options: { url: string; status?: number; cause?: unknown }) {
    super('WebhookDeliveryError', 'A2A_WEBHOOK_DELIVERY_FAILED', {
      message:
        options.status === undefined
          ? `Could not deliver a push notification to ${options.url}.`
          : `The webhook ${options.url} answered HTTP ${options.status}.`,
      cause: options.cause,
    });
    this.url = options.url;
    this.status = options.status;
  }

  static override isInstance(error: unknown): error is WebhookDeliveryError {
    return AdkError.hasMarker(error, MARKER);
  }
}
