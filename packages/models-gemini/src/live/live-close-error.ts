import { ModelStreamError } from '@adk/model-http';

/** Close codes after which a new connection (resuming with the last handle) may succeed. */
const RETRYABLE_CLOSE_CODES = new Set([1001, 1006, 1011, 1012, 1013, 1014]);
/** Close codes of a connection that was cut rather than refused. */
const DROPPED_CLOSE_CODES = new Set([1001, 1006, 1012]);

/**
 * The error of a live connection the server (or the network) closed with a code other than
 * 1000: `interrupted` for a dropped or going-away connection (1001, 1006, 1012), `provider-error`
 * for a refusal (1007 invalid payload, 1008 policy: a bad key or model, 1011 internal error...),
 * with the close reason as the message and `websocket-close-<code>` as `providerErrorType`.
 */
export function liveCloseError(options: {
  provider: string;
  model: string;
  code: number;
  reason: string;
}): ModelStreamError {
  const { code, reason } = options;
  const dropped = DROPPED_CLOSE_CODES.has(code);
  const what =
    code === 1006 ? 'the connection dropped without a close frame' : `closed with code ${code}`;
  return new ModelStreamError({
    provider: options.provider,
    model: options.model,
    kind: dropped ? 'interrupted' : 'provider-error',
    message: reason ? `${what}: ${reason}` : what,
    retryable: RETRYABLE_CLOSE_CODES.has(code),
    providerErrorType: `websocket-close-${code}`,
  });
}
