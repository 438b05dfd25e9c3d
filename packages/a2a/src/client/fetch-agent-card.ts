import { AgentCardError } from '../errors/agent-card-error';
import { AGENT_CARD_PATH, LEGACY_AGENT_CARD_PATH, type A2aAgentCard } from '../protocol/types';

/** HTTP settings shared by the client's calls. */
export interface A2aHttpOptions {
  /** The fetch implementation (default: the global `fetch`, undici in Node). */
  fetch?: typeof fetch;
  /** Extra headers on every request (an `Authorization` header, for example). */
  headers?: Record<string, string>;
  /** Time limit of each non-streaming request in ms (default 600,000). */
  timeoutMs?: number;
}

/**
 * Fetch and check an agent card. `url` is the card's own URL (ending in `.json`) or the agent's
 * base URL, under which `/.well-known/agent-card.json` is tried first, then the older
 * `/.well-known/agent.json`.
 *
 * @throws AgentCardError when no card can be fetched or it lacks `name` or `url`.
 */
export async function fetchAgentCard(
  url: string,
  options: A2aHttpOptions & { signal?: AbortSignal } = {},
): Promise<A2aAgentCard> {
  const candidates = url.endsWith('.json')
    ? [url]
    : [joinUrl(url, AGENT_CARD_PATH), joinUrl(url, LEGACY_AGENT_CARD_PATH)];
  let lastError: unknown;
  for (const candidate of candidates) {
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(candidate, {
        headers: { accept: 'application/json', ...options.headers },
        signal: withTimeout(options.signal, options.timeoutMs ?? 600_000),
      });
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      throw new AgentCardError({
        message: `Could not fetch the agent card at ${candidate}: ${describe(error)}`,
        url: candidate,
        cause: error,
      });
    }
    if (response.status === 404 && candidate !== candidates.at(-1)) {
      await response.body?.cancel();
      lastError = `HTTP 404`;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new AgentCardError({
        message: `Could not fetch the agent card at ${candidate}: HTTP ${response.status}.`,
        url: candidate,
      });
    }
    let card: unknown;
    try {
      card = await response.json();
    } catch (error) {
      throw new AgentCardError({
        message: `The agent card at ${candidate} is not JSON.`,
        url: candidate,
        cause: error,
      });
    }
    return checkAgentCard(card, candidate);
  }
  throw new AgentCardError({ message: `No agent card under ${url}.`, url, cause: lastError });
}

/**
 * `card` as an agent card, when it has at least a `name` and a `url`.
 *
 * @throws AgentCardError otherwise.
 */
export function checkAgentCard(card: unknown, source?: string): A2aAgentCard {
  const from = source === undefined ? '' : ` (${source})`;
  if (typeof card !== 'object' || card === null || Array.isArray(card)) {
    throw new AgentCardError({
      message: `The agent card${from} is not a JSON object.`,
      url: source,
    });
  }
  const record = card as Record<string, unknown>;
  for (const key of ['name', 'url'] as const) {
    if (typeof record[key] !== 'string' || record[key] === '') {
      throw new AgentCardError({
        message: `The agent card${from} has no "${key}".`,
        url: source,
      });
    }
  }
  try {
    new URL(record.url as string);
  } catch (error) {
    throw new AgentCardError({
      message: `The agent card${from} has an invalid url: ${String(record.url)}`,
      url: source,
      cause: error,
    });
  }
  return card as A2aAgentCard;
}

/** `base` with `path` appended (one slash between them). */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

/** `signal` combined with a timeout (none when `timeoutMs` is not finite). */
export function withTimeout(
  signal: AbortSignal | undefined,
  timeoutMs: number,
): AbortSignal | undefined {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) return signal;
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}
