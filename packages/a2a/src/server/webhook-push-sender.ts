import { createHmac, timingSafeEqual } from 'node:crypto';

import type { StreamResponse, Task } from '@a2a-js/sdk';
import { V03PushNotificationSerializer } from '@a2a-js/sdk/compat/v0_3/server';
import {
  V1PushNotificationSerializer,
  type PushNotificationSender,
  type PushNotificationSerializer,
  type PushNotificationStore,
  type ServerCallContext,
  type StoredPushNotificationConfig,
} from '@a2a-js/sdk/server';

import { WebhookDeliveryError } from '../errors/webhook-delivery-error';

/** How {@link WebhookPushSender} calls webhooks. */
export interface WebhookPushOptions {
  /**
   * Sign every delivery with HMAC-SHA256 of `<timestamp>.<body>` under this secret, sent as
   * `X-A2A-Signature: t=<unix seconds>,v1=<hex>` (verify it with `verifyWebhookSignature`), so a
   * receiver can tell our deliveries from forged ones and refuse replays. Default: unsigned.
   */
  signingSecret?: string;
  /** Delivery attempts per notification, the first included (default 4). */
  maxAttempts?: number;
  /** Delay before the first retry, doubled at each retry, with jitter (default 250 ms). */
  retryDelayMs?: number;
  /** Timeout of one delivery attempt (default 5,000 ms). */
  timeoutMs?: number;
  /** Called when a notification could not be delivered after every attempt. */
  onDeliveryFailure?: (failure: {
    url: string;
    taskId: string;
    error: WebhookDeliveryError | undefined;
  }) => void;
  /** The HTTP client (default the global `fetch`, Node's undici). */
  fetch?: typeof fetch;
}

/** An HTTP answer worth another attempt: the receiver is overloaded or failing. */
function retryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Delivers push notifications to the webhooks the clients registered: each task's notifications in
 * order, each webhook in the body shape of the protocol version it was registered over, with the
 * config's credentials (`authentication`, or the token in `X-A2A-Notification-Token`), signed when
 * a secret is set, and retried with exponential backoff on connection errors, timeouts, 408, 429
 * and 5xx. The SDK's default sender makes one attempt and signs nothing.
 */
export class WebhookPushSender implements PushNotificationSender {
  readonly #store: PushNotificationStore;
  readonly #options: WebhookPushOptions;
  readonly #serializers: Record<string, PushNotificationSerializer> = {
    '1.0': new V1PushNotificationSerializer(),
    '0.3': new V03PushNotificationSerializer(),
  };
  /** Per task, the delivery in progress, so that notifications arrive in order. */
  readonly #chains = new Map<string, Promise<void>>();

  constructor(store: PushNotificationStore, options: WebhookPushOptions = {}) {
    this.#store = store;
    this.#options = options;
  }

  async send(response: StreamResponse, context: ServerCallContext, task?: Task): Promise<void> {
    const taskId = taskIdOf(response);
    if (!taskId) return;
    const configs: StoredPushNotificationConfig[] = this.#store.loadWithMetadata
      ? await this.#store.loadWithMetadata(taskId, context)
      : (await this.#store.load(taskId, context)).map((config) => ({
          config,
          wireVersion: context.requestedVersion,
        }));
    if (configs.length === 0) return;
    const previous = this.#chains.get(taskId) ?? Promise.resolve();
    const current = previous.then(() =>
      Promise.all(configs.map((stored) => this.#deliver(response, stored, taskId, task))).then(
        () => undefined,
      ),
    );
    this.#chains.set(taskId, current);
    await current.finally(() => {
      if (this.#chains.get(taskId) === current) this.#chains.delete(taskId);
    });
  }

  async #deliver(
    response: StreamResponse,
    stored: StoredPushNotificationConfig,
    taskId: string,
    task: Task | undefined,
  ): Promise<void> {
    const { config } = stored;
    const serializer = this.#serializers[stored.wireVersion] ?? this.#serializers['1.0']!;
    const { body, contentType } = serializer.serialize(response, task);
    const maxAttempts = Math.max(1, this.#options.maxAttempts ?? 4);
    const baseDelay = this.#options.retryDelayMs ?? 250;
    let lastError: WebhookDeliveryError | undefined;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      try {
        const answer = await (this.#options.fetch ?? fetch)(config.url, {
          method: 'POST',
          headers: this.#headers(config, body, contentType),
          body,
          signal: AbortSignal.timeout(this.#options.timeoutMs ?? 5_000),
        });
        await answer.body?.cancel();
        if (answer.ok) return;
        lastError = new WebhookDeliveryError({ url: config.url, status: answer.status });
        if (!retryableStatus(answer.status)) break;
      } catch (error) {
        lastError = new WebhookDeliveryError({ url: config.url, cause: error });
      }
      if (attempt < maxAttempts) {
        const delay = baseDelay * 2 ** (attempt - 1);
        await new Promise((resolve) => setTimeout(resolve, delay / 2 + Math.random() * delay));
      }
    }
    this.#options.onDeliveryFailure?.({ url: config.url, taskId, error: lastError });
  }

  #headers(
    config: StoredPushNotificationConfig['config'],
    body: string,
    contentType: string,
  ): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': contentType };
    if (config.authentication?.scheme) {
      headers.authorization = `${config.authentication.scheme} ${config.authentication.credentials}`;
    } else if (config.token) {
      headers['x-a2a-notification-token'] = config.token;
    }
    if (this.#options.signingSecret !== undefined) {
      headers['x-a2a-signature'] = signWebhookBody(this.#options.signingSecret, body);
    }
    return headers;
  }
}

function taskIdOf(response: StreamResponse): string | undefined {
  const payload = response.payload;
  switch (payload?.$case) {
    case 'task':
      return payload.value.id;
    case 'statusUpdate':
    case 'artifactUpdate':
    case 'message':
      return payload.value.taskId || undefined;
    default:
      return undefined;
  }
}

/** The `X-A2A-Signature` value of `body` under `secret`, at `timestamp` (unix seconds). */
export function signWebhookBody(
  secret: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  const digest = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${digest}`;
}

/**
 * Check a push notification's `X-A2A-Signature` header (for a webhook receiver): true when it was
 * signed with `secret` over this exact body, less than `toleranceSeconds` (default 300) ago.
 */
export function verifyWebhookSignature(
  secret: string,
  body: string,
  header: string | null | undefined,
  toleranceSeconds = 300,
): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match) return false;
  const timestamp = Number(match[1]);
  if (Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhookBody(secret, body, timestamp));
  const given = Buffer.from(header!);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
