import { getFunctionCalls, getFunctionResponses, getText } from '../content';
import { describeCause } from '../errors/describe-cause';
import type {
  AfterModelHookArgs,
  AfterToolHookArgs,
  AgentErrorHookArgs,
  AgentHookArgs,
  BeforeModelHookArgs,
  BeforeToolHookArgs,
  EventHookArgs,
  ModelErrorHookArgs,
  PluginState,
  RunErrorHookArgs,
  RunHookArgs,
  ToolErrorHookArgs,
  UserMessageHookArgs,
} from './base-plugin';
import { BasePlugin } from './base-plugin';

/** Options of {@link LoggingPlugin}. */
export interface LoggingPluginOptions {
  /** Plugin name (default `logging`). */
  name?: string;
  /** Where lines go (default `console.log`). */
  sink?: (line: string) => void;
  /** Longest text shown for a message, argument list or result (default 200 characters). */
  maxLength?: number;
  /** Also log streamed (partial) events (default false). */
  logPartialEvents?: boolean;
}

const RUN_START = 'runStart';

/**
 * Writes one concise line per lifecycle step (run, agent, model call, tool call, event, error) to a
 * sink. Returns nothing from any hook, so it never changes a run.
 *
 * @example
 * ```ts
 * new Runner({ appName, agent, plugins: [new LoggingPlugin({ sink: (line) => logger.info(line) })] });
 * // [adk] run e-1f... start: user u1, session s1, agent weather_agent
 * // [adk] tool get_weather({"city":"Paris"}) -> {"forecast":"sunny"}
 * ```
 */
export class LoggingPlugin extends BasePlugin {
  private readonly sink: (line: string) => void;
  private readonly maxLength: number;
  private readonly logPartialEvents: boolean;

  constructor(options: LoggingPluginOptions = {}) {
    super(options.name ?? 'logging');
    this.sink = options.sink ?? ((line) => console.log(line));
    this.maxLength = options.maxLength ?? 200;
    this.logPartialEvents = options.logPartialEvents ?? false;
  }

  override onUserMessage({ invocationContext, userMessage }: UserMessageHookArgs): undefined {
    this.log(`user ${invocationContext.userId}: ${this.clip(getText(userMessage))}`);
    return undefined;
  }

  override beforeRun({ invocationContext: ctx }: RunHookArgs, state: PluginState): undefined {
    state.set(RUN_START, performance.now());
    this.log(
      `run ${ctx.invocationId} start: user ${ctx.userId}, session ${ctx.sessionId}, agent ${ctx.agent.name}`,
    );
    return undefined;
  }

  override afterRun({ invocationContext: ctx }: RunHookArgs, state: PluginState): void {
    this.log(
      `run ${ctx.invocationId} end${this.elapsed(state)}, ${ctx.llmCallCount} model call(s)`,
    );
  }

  override onEvent({ event }: EventHookArgs): undefined {
    if (event.partial && !this.logPartialEvents) return undefined;
    const pieces: string[] = [];
    const text = getText(event.content);
    if (text) pieces.push(JSON.stringify(this.clip(text)));
    for (const call of getFunctionCalls(event.content)) pieces.push(`call ${call.name}`);
    for (const response of getFunctionResponses(event.content))
      pieces.push(`response ${response.name}`);
    if (event.errorCode)
      pieces.push(`error ${event.errorCode}: ${this.clip(event.errorMessage ?? '')}`);
    const delta = Object.keys(event.actions.stateDelta);
    if (delta.length > 0) pieces.push(`state ${delta.join(',')}`);
    if (event.actions.transferToAgent) pieces.push(`transfer to ${event.actions.transferToAgent}`);
    this.log(
      `event ${event.author}${event.partial ? ' (partial)' : ''}: ${pieces.join('; ') || '(empty)'}`,
    );
    return undefined;
  }

  override beforeAgent({ agent }: AgentHookArgs): undefined {
    this.log(`agent ${agent.name} start`);
    return undefined;
  }

  override afterAgent({ agent }: AgentHookArgs): undefined {
    this.log(`agent ${agent.name} end`);
    return undefined;
  }

  override onAgentError({ agent, error }: AgentErrorHookArgs): undefined {
    this.log(`agent ${agent.name} error: ${this.clip(describeCause(error))}`);
    return undefined;
  }

  override beforeModel({ agent, request }: BeforeModelHookArgs): undefined {
    const tools =
      request.config.tools?.reduce(
        (count, group) => count + group.functionDeclarations.length,
        0,
      ) ?? 0;
    this.log(
      `model ${request.model} call by ${agent.name}: ${request.contents.length} content(s), ${tools} tool(s)`,
    );
    return undefined;
  }

  override afterModel({ response }: AfterModelHookArgs): undefined {
    const usage = response.usageMetadata;
    const tokens = usage
      ? `, tokens ${usage.promptTokenCount ?? '?'} in / ${usage.candidatesTokenCount ?? '?'} out`
      : '';
    this.log(`model response: ${response.finishReason ?? 'done'}${tokens}`);
    return undefined;
  }

  override onModelError({ error, attempt }: ModelErrorHookArgs): undefined {
    this.log(`model error (attempt ${attempt + 1}): ${this.clip(describeCause(error))}`);
    return undefined;
  }

  override beforeTool({ tool, args }: BeforeToolHookArgs): undefined {
    this.log(`tool ${tool.name}(${this.clip(JSON.stringify(args))})`);
    return undefined;
  }

  override afterTool({ tool, result }: AfterToolHookArgs): undefined {
    this.log(`tool ${tool.name} -> ${this.clip(JSON.stringify(result))}`);
    return undefined;
  }

  override onToolError({ tool, error }: ToolErrorHookArgs): undefined {
    this.log(`tool ${tool.name} error: ${this.clip(describeCause(error))}`);
    return undefined;
  }

  override onRunError(
    { invocationContext: ctx, error }: RunErrorHookArgs,
    state: PluginState,
  ): void {
    this.log(
      `run ${ctx.invocationId} failed${this.elapsed(state)}: ${this.clip(describeCause(error))}`,
    );
  }

  private elapsed(state: PluginState): string {
    const start = state.get(RUN_START);
    return typeof start === 'number' ? ` in ${Math.round(performance.now() - start)} ms` : '';
  }

  private clip(text: string): string {
    return text.length > this.maxLength ? `${text.slice(0, this.maxLength)}…` : text;
  }

  private log(line: string): void {
    this.sink(`[adk] ${line}`);
  }
}
