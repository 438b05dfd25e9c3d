import {
  InvalidArgumentError,
  type GenerateOptions,
  type LlmRequest,
  type LlmResponse,
  type Model,
  type ModelCapabilities,
} from '@adk/core';
import { ModelStreamError } from '@adk/model-http';

import { finalResponse } from './from-result';
import { providerFamily, type ProviderFamily } from './provider-family';
import { withRetries } from './with-retries';
import { mergeProviderMetadata } from './provider-metadata';
import { combinesWithFunctions, mappableProviderTools } from './provider-tools';
import type {
  AiSdkLanguageModel,
  SpecCallOptions,
  SpecContent,
  SpecFinishReason,
  SpecGenerateResult,
  SpecStreamPart,
  SpecStreamResult,
  SpecUsage,
} from './spec-types';
import { toCallOptions, type TargetModel } from './to-call-options';
import { toModelError } from './to-model-error';
import { specificationVersionOf } from './specification-version';

/** Options of {@link aiSdkModel}. */
export interface AiSdkModelOptions {
  /**
   * Retries of a call that failed with a retryable error before any answer arrived (rate limits,
   * overload, 5xx, a dropped connection). Default 2. AI SDK models do not retry by themselves
   * (`generateText` does); this adapter does it as core's own providers do.
   */
  maxRetries?: number;
  /** Backoff between retries: exponential with jitter from `initialDelayMs` (500) to `maxDelayMs` (8,000). */
  retry?: { initialDelayMs?: number; maxDelayMs?: number };
  /** The name agents and traces show (default the model's `modelId`). */
  name?: string;
  /**
   * What the model can do beyond the basic contract (see core's `ModelCapabilities`), over what
   * the adapter derives from the provider: `providerTools` lists the provider tools the model's
   * provider takes through the AI SDK (Anthropic: webSearch, codeExecution; OpenAI Responses:
   * webSearch, codeExecution; Google: webSearch, urlContext, codeExecution; others none). A
   * `providerTools` member may narrow that list, not add a type the adapter cannot map.
   */
  capabilities?: ModelCapabilities;
  /** Headers added to every call (the specification's `headers` option). */
  headers?: Record<string, string>;
}

/**
 * A language model of the AI SDK's provider specification (v2 of `ai` 5, v3 of `ai` 6, v4 of
 * `ai` 7), from any `@ai-sdk/*` provider or community provider, as a core `Model`: streaming, tool
 * calls (parallel, arguments parsed), structured output, usage, finish reasons, errors typed as
 * core's providers type them, abort, retries.
 *
 * @example
 * ```ts
 * import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
 * const ollama = createOpenAICompatible({ name: 'ollama', baseURL: 'http://127.0.0.1:11434/v1' });
 * const agent = new LlmAgent({ name: 'local', model: aiSdkModel(ollama('llama3.2')) });
 * ```
 * @throws InvalidArgumentError for an object that is not a v2, v3 or v4 language model, or
 *   `capabilities.providerTools` naming a provider tool the model's provider cannot take here.
 */
export function aiSdkModel(model: AiSdkLanguageModel, options: AiSdkModelOptions = {}): Model {
  return new AiSdkModel(model, options);
}

class AiSdkModel implements Model {
  readonly name: string;
  readonly capabilities: ModelCapabilities | undefined;
  private readonly maxRetries: number;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly target: TargetModel;

  constructor(
    private readonly model: AiSdkLanguageModel,
    private readonly options: AiSdkModelOptions,
  ) {
    const version = specificationVersionOf(model, {
      factory: 'aiSdkModel',
      kind: 'language model',
      method: 'doStream',
    });
    this.name = options.name ?? model.modelId;
    const family = providerFamily(String(model.provider ?? ''));
    this.target = { family, version, name: this.name };
    this.capabilities = capabilitiesOf(family, options.capabilities);
    this.maxRetries = options.maxRetries ?? 2;
    this.initialDelayMs = options.retry?.initialDelayMs ?? 500;
    this.maxDelayMs = options.retry?.maxDelayMs ?? 8_000;
  }

  /**
   * The call: streamed answers come from one generator reading the model's stream (not a
   * generator delegating to another, which costs a promise per answer).
   */
  generate(request: LlmRequest, options: GenerateOptions): AsyncIterable<LlmResponse> {
    return options.stream
      ? this.streamed(request, options.signal)
      : this.whole(request, options.signal);
  }

  /** The request as call options (after checking the signal), with the adapter's headers. */
  private callOptions(request: LlmRequest, signal: AbortSignal | undefined): SpecCallOptions {
    signal?.throwIfAborted();
    const callOptions = toCallOptions(request, signal, this.target);
    if (this.options.headers) callOptions.headers = { ...this.options.headers };
    return callOptions;
  }

  private async *whole(
    request: LlmRequest,
    signal: AbortSignal | undefined,
  ): AsyncIterable<LlmResponse> {
    const callOptions = this.callOptions(request, signal);
    const result = await this.withRetries(
      () => this.model.doGenerate(callOptions as never) as PromiseLike<SpecGenerateResult>,
      signal,
      false,
    );
    yield finalResponse(
      result.content,
      result.finishReason,
      result.usage,
      result.response?.modelId,
    );
  }

  private withRetries<T>(
    call: () => PromiseLike<T>,
    signal: AbortSignal | undefined,
    streaming: boolean,
  ): Promise<T> {
    return withRetries(call, signal, {
      maxRetries: this.maxRetries,
      initialDelayMs: this.initialDelayMs,
      maxDelayMs: this.maxDelayMs,
      ...this.context(),
      streaming,
    });
  }

  private async *streamed(
    request: LlmRequest,
    signal: AbortSignal | undefined,
  ): AsyncIterable<LlmResponse> {
    const callOptions = this.callOptions(request, signal);
    const { stream } = await this.withRetries(
      () => this.model.doStream(callOptions as never) as PromiseLike<SpecStreamResult>,
      signal,
      true,
    );
    const reader = (stream as ReadableStream<SpecStreamPart>).getReader();
    const onAbort = (): void => void reader.cancel(signal?.reason).catch(() => undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    const content: SpecContent[] = [];
    const reasoning = new Map<string, ReasoningBlock>();
    let reason: SpecFinishReason | undefined;
    let usage: SpecUsage | undefined;
    let modelVersion: string | undefined;
    let finished = false;
    let started = false;
    try {
      for (;;) {
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await reader.read();
        } catch (error) {
          if (signal?.aborted) throw signal.reason;
          throw toModelError(error, { ...this.context(), streaming: true, started: true });
        }
        if (signal?.aborted) throw signal.reason;
        if (next.done) break;
        const part = next.value;
        switch (part.type) {
          case 'text-delta': {
            const text =
              (part as { delta?: string; textDelta?: string }).delta ??
              (part as { textDelta?: string }).textDelta ??
              '';
            if (text === '') break;
            started = true;
            appendText(content, 'text', text);
            yield { content: { role: 'model', parts: [{ text }] }, partial: true };
            break;
          }
          case 'reasoning-start':
          case 'reasoning-delta':
          case 'reasoning-end': {
            const { id, delta, providerMetadata } = part as {
              id?: string;
              delta?: string;
              providerMetadata?: unknown;
            };
            const text = delta ?? '';
            const block = reasoningBlock(content, reasoning, id, part.type === 'reasoning-start');
            block.text += text;
            block.providerMetadata = mergeProviderMetadata(
              block.providerMetadata,
              providerMetadata,
            );
            if (text === '') break;
            started = true;
            yield { content: { role: 'model', parts: [{ text, thought: true }] }, partial: true };
            break;
          }
          case 'source':
          case 'tool-result':
          case 'tool-call':
            started = true;
            content.push(part as SpecContent);
            break;
          case 'response-metadata': {
            const modelId = (part as { modelId?: string }).modelId;
            if (modelId) modelVersion = modelId;
            break;
          }
          case 'finish':
            reason = (part as { finishReason: SpecFinishReason }).finishReason;
            usage = (part as { usage: SpecUsage }).usage;
            finished = true;
            break;
          case 'error':
            throw toModelError((part as { error: unknown }).error, {
              ...this.context(),
              streaming: true,
              started: started || content.length > 0,
            });
          default:
            break;
        }
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      reader.releaseLock();
    }
    if (!finished) {
      throw new ModelStreamError({
        ...this.context(),
        kind: 'incomplete',
        message: 'the stream ended before its finish part',
        retryable: true,
      });
    }
    yield finalResponse(content, reason, usage, modelVersion);
  }

  private context(): { provider: string; model: string } {
    return { provider: this.model.provider, model: this.model.modelId };
  }
}

function appendText(content: SpecContent[], type: 'text', text: string): void {
  const last = content.at(-1);
  if (last && last.type === type) (last as { text: string }).text += text;
  else content.push({ type, text } as SpecContent);
}

interface ReasoningBlock {
  type: 'reasoning';
  text: string;
  providerMetadata?: Record<string, Record<string, unknown>> | undefined;
}

/**
 * The reasoning block a streamed reasoning part belongs to, by its id: each block keeps its own
 * provider metadata (an Anthropic thinking block's signature arrives as an empty delta, a redacted
 * block's data on its start). A part without an id continues the last reasoning block.
 */
function reasoningBlock(
  content: SpecContent[],
  blocks: Map<string, ReasoningBlock>,
  id: string | undefined,
  start: boolean,
): ReasoningBlock {
  const key = id ?? '';
  let block = start ? undefined : blocks.get(key);
  if (!block && id === undefined && !start) {
    const last = content.at(-1);
    if (last?.type === 'reasoning') block = last as ReasoningBlock;
  }
  if (!block) {
    block = { type: 'reasoning', text: '' };
    content.push(block as SpecContent);
  }
  blocks.set(key, block);
  return block;
}

/** The capabilities derived from the provider family, narrowed or extended by the caller's. */
function capabilitiesOf(
  family: ProviderFamily,
  given: ModelCapabilities | undefined,
): ModelCapabilities {
  const mappable = mappableProviderTools(family);
  const unknown = given?.providerTools?.find((type) => !mappable.includes(type));
  if (unknown !== undefined) {
    throw new InvalidArgumentError({
      message: `aiSdkModel: capabilities.providerTools lists "${unknown}", which this adapter cannot send to the provider (it maps: ${mappable.join(', ') || 'none'}).`,
      argument: 'options.capabilities.providerTools',
    });
  }
  return {
    providerTools: mappable,
    providerToolsWithFunctions: combinesWithFunctions(family),
    ...given,
  };
}
