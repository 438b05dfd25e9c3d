import type { FunctionCall } from '../content';
import type {
  GenerateOptions,
  LlmRequest,
  LlmResponse,
  Model,
  ModelCapabilities,
  ModelProvider,
} from '../models';
import { StreamAggregator } from '../models/stream-aggregator';
import { FakeModelError } from './fake-model-error';
import { fakeFunctionCalls, fakeText } from './fake-model-responses';

/** Shortcut for a response calling tools: `{ functionCalls: [{ name, args }] }`. */
export interface FakeFunctionCallsStep {
  functionCalls: FunctionCall[];
}

/** One streamed chunk: a text delta or a response delta. */
export type FakeChunk = string | LlmResponse;

/**
 * One scripted model response:
 * - an `LlmResponse`;
 * - a string: a text answer;
 * - `{ functionCalls: [...] }`: a response calling tools (ids default to `call-1`, `call-2`...);
 * - an array of chunks: streamed (with `stream: true` each chunk is yielded as a partial response,
 *   then the aggregated final one; without streaming only the final one);
 * - an `Error`: the call throws it.
 */
export type FakeStep = LlmResponse | string | FakeFunctionCallsStep | Error | readonly FakeChunk[];

/** Computes the response of call number `index` (0-based) from the request. */
export type FakeResponder = (request: LlmRequest, index: number) => FakeStep | Promise<FakeStep>;

/** Options of {@link FakeModel}. */
export interface FakeModelOptions {
  /** Model name (default `fake-model`). */
  name?: string;
  /** The scripted responses, in call order, or a function computing each one. */
  responses?: readonly FakeStep[] | FakeResponder;
  /**
   * Strict mode: a call beyond the script throws `FakeModelError`, and `assertAllConsumed()` fails
   * when responses are left. Default false: extra calls get `fallback`.
   */
  strict?: boolean;
  /** Answer to calls beyond the script in non-strict mode (default: an empty text answer). */
  fallback?: FakeStep;
  /**
   * The capabilities the fake declares, to test both sides of a capability: e.g.
   * `{ responseSchemaWithTools: true }` makes an agent with `outputSchema` and tools send its
   * response schema next to the tools instead of offering `set_model_response`. Default: none
   * declared (the conservative behaviour of a model that declares nothing).
   */
  capabilities?: ModelCapabilities;
}

/**
 * A scripted model for tests and examples: no network, no API key. It records every request it
 * receives (`requests`) and honours the abort signal between streamed chunks.
 *
 * @example
 * ```ts
 * const model = new FakeModel({
 *   responses: [{ functionCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] }, 'It is sunny in Paris.'],
 *   strict: true,
 * });
 * const agent = new LlmAgent({ name: 'weather', model, tools: [getWeather] });
 * // ... run it, then:
 * expect(model.requests[1].contents.at(-1)?.parts[0].functionResponse?.response).toEqual({ forecast: 'sunny' });
 * model.assertAllConsumed();
 * ```
 */
export class FakeModel implements Model {
  readonly name: string;
  readonly capabilities: ModelCapabilities | undefined;
  /** Every request received, in order. */
  readonly requests: LlmRequest[] = [];
  private readonly responses: readonly FakeStep[] | FakeResponder;
  private readonly strict: boolean;
  private readonly fallback: FakeStep;
  private unexpectedCalls = 0;

  constructor(options: FakeModelOptions | readonly FakeStep[] = {}) {
    const resolved: FakeModelOptions = Array.isArray(options)
      ? { responses: options as readonly FakeStep[] }
      : (options as FakeModelOptions);
    this.name = resolved.name ?? 'fake-model';
    this.responses = resolved.responses ?? [];
    this.strict = resolved.strict ?? false;
    this.fallback = resolved.fallback ?? '';
    this.capabilities = resolved.capabilities;
  }

  /** Number of calls received. */
  get callCount(): number {
    return this.requests.length;
  }

  /** A provider serving this model under its name, for `ModelRegistry.register`. */
  asProvider(id = `fake:${this.name}`): ModelProvider {
    return { id, patterns: [this.name], languageModel: () => this };
  }

  /**
   * Check that the script played exactly: every scripted response was used and, in strict mode,
   * no call came after the script ended (the run reports such a call as an error event with code
   * `FAKE_MODEL_ERROR`, which a test could otherwise miss).
   *
   * @throws FakeModelError naming what went wrong.
   */
  assertAllConsumed(): void {
    if (this.unexpectedCalls > 0) {
      throw new FakeModelError({
        reason: 'unexpected-call',
        message: `FakeModel "${this.name}" received ${this.unexpectedCalls} call(s) more than the ${(this.responses as readonly FakeStep[]).length} scripted.`,
      });
    }
    if (typeof this.responses === 'function') return;
    if (this.requests.length < this.responses.length) {
      throw new FakeModelError({
        reason: 'unconsumed-responses',
        message: `FakeModel "${this.name}" received ${this.requests.length} call(s) but ${this.responses.length} response(s) were scripted.`,
      });
    }
  }

  async *generate(
    request: LlmRequest,
    options: GenerateOptions,
  ): AsyncGenerator<LlmResponse, void> {
    const index = this.requests.length;
    this.requests.push(request);
    throwIfAborted(options.signal);
    const step = await this.stepFor(request, index);
    if (step instanceof Error) throw step;
    if (!Array.isArray(step)) {
      yield toResponse(step as Exclude<FakeStep, Error | readonly FakeChunk[]>);
      return;
    }
    const aggregator = new StreamAggregator();
    for (const chunk of step as readonly FakeChunk[]) {
      const delta =
        typeof chunk === 'string'
          ? { content: { role: 'model', parts: [{ text: chunk }] } }
          : chunk;
      aggregator.add(delta);
      if (options.stream) {
        yield { ...delta, partial: true };
        // The consumer may have aborted while it held the chunk.
        throwIfAborted(options.signal);
      }
    }
    yield aggregator.final();
  }

  private async stepFor(request: LlmRequest, index: number): Promise<FakeStep> {
    if (typeof this.responses === 'function') return this.responses(request, index);
    const step = this.responses[index];
    if (step !== undefined) return step;
    if (this.strict) {
      this.unexpectedCalls++;
      throw new FakeModelError({
        reason: 'unexpected-call',
        message: `FakeModel "${this.name}" got call #${index + 1} but only ${this.responses.length} response(s) were scripted.`,
      });
    }
    return this.fallback;
  }
}

function toResponse(step: LlmResponse | string | FakeFunctionCallsStep): LlmResponse {
  if (typeof step === 'string') return fakeText(step);
  if ('functionCalls' in step && Array.isArray(step.functionCalls))
    return fakeFunctionCalls(...step.functionCalls);
  return { ...(step as LlmResponse) };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}
