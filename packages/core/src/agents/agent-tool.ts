import { randomUUID } from 'node:crypto';

import type { BaseAgent } from './base-agent';
import { InvocationContext } from '../invocation/invocation-context';
import { getText, type Content } from '../content';
import type { ToolContext } from '../context';
import { ToolArgumentsError } from '../errors/tool-arguments-error';
import { ToolExecutionError } from '../errors/tool-execution-error';
import { createEvent, isFinalResponse, type Event } from '../events';
import type { FunctionDeclaration } from '../models';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { isTempKey } from '../sessions/state';
import { ParentScopedArtifactService } from './agent-tool-artifacts';
import type { Tool } from '../tools/tool';

/** Options of {@link AgentTool}. */
export interface AgentToolOptions {
  /**
   * Return the agent's answer to the caller as the final answer of this step: the calling agent
   * does not call its model again to rephrase it.
   */
  skipSummarization?: boolean;
}

/** The invocation a tool context belongs to, when it comes from the ADK flow. */
function invocationOf(context: ToolContext): InvocationContext | undefined {
  const source = (context as unknown as { source?: unknown }).source;
  return source instanceof InvocationContext ? source : undefined;
}

/**
 * An agent used as a tool. Each call runs the agent on the `request` argument in a **fresh,
 * isolated session** (a private in-memory session seeded with a copy of the caller's state), so
 * nothing accumulates between calls and the caller's history is never exposed. The call returns
 * the agent's final answer: its text, or the parsed JSON object when the agent has an
 * `outputSchema`.
 *
 * Effects flow back to the caller's function-response event: every state change the agent makes
 * (`temp:` keys excepted) and every artifact it saves (stored in the caller's session). The child
 * shares the caller's model registry, plugins, run settings, memory and cancellation signal. An
 * error event of the agent fails the call (the model sees the error).
 *
 * Give it an agent that is not a sub-agent of another agent: it runs as the root of its own private
 * conversation.
 *
 * @example
 * ```ts
 * const translator = new LlmAgent({ name: 'translator', description: 'Translates text to French.', model });
 * const writer = new LlmAgent({ name: 'writer', model, tools: [new AgentTool(translator)] });
 * ```
 */
export class AgentTool implements Tool {
  readonly name: string;
  readonly description: string;
  readonly agent: BaseAgent;
  readonly skipSummarization: boolean;
  readonly #declaration: FunctionDeclaration;

  constructor(agent: BaseAgent, options: AgentToolOptions = {}) {
    this.agent = agent;
    this.name = agent.name;
    this.description = agent.description ?? `Ask the ${agent.name} agent.`;
    this.skipSummarization = options.skipSummarization ?? false;
    this.#declaration = {
      name: this.name,
      description: this.description,
      parameters: {
        type: 'object',
        properties: { request: { type: 'string', description: `What to ask ${agent.name}.` } },
        required: ['request'],
      },
    };
  }

  declaration(): FunctionDeclaration {
    return this.#declaration;
  }

  /**
   * @throws ToolArgumentsError when `request` is not a string.
   * @throws ToolExecutionError when the agent ends with an error event.
   */
  async run(args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    const request = args.request;
    if (typeof request !== 'string') {
      throw new ToolArgumentsError({
        toolName: this.name,
        issues: [{ path: 'request', message: 'Expected a string.' }],
      });
    }
    if (this.skipSummarization) context.actions.skipSummarization = true;
    const parent = invocationOf(context);
    const sessionService = new InMemorySessionService();
    const seed: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(context.state.toRecord())) {
      if (!isTempKey(key)) seed[key] = value;
    }
    const session = await sessionService.createSession({
      appName: context.appName,
      userId: context.userId,
      state: seed,
    });
    const userContent: Content = { role: 'user', parts: [{ text: request }] };
    const invocationId = `e-${randomUUID()}`;
    await sessionService.appendEvent({
      session,
      event: createEvent({ invocationId, author: 'user', content: userContent }),
    });
    const artifacts = parent?.artifactService;
    const ctx = new InvocationContext({
      invocationId,
      agent: this.agent,
      session,
      sessionService,
      artifactService:
        artifacts &&
        new ParentScopedArtifactService(
          artifacts,
          { appName: context.appName, userId: context.userId, sessionId: context.sessionId },
          context.actions,
        ),
      memoryService: parent?.memoryService,
      credentialService: parent?.credentialService,
      runConfig: parent?.runConfig,
      userContent,
      signal: context.signal,
      plugins: parent?.plugins,
      models: parent?.models,
      contextCacheConfig: parent?.contextCacheConfig,
      parentSpanId: parent?.spanId,
    });

    let answer: Event | undefined;
    for await (const event of this.agent.run(ctx)) {
      if (event.partial) continue;
      await sessionService.appendEvent({ session, event });
      for (const [key, value] of Object.entries(event.actions.stateDelta)) {
        if (!isTempKey(key)) context.state.set(key, value);
      }
      if (event.errorCode !== undefined) {
        throw new ToolExecutionError({
          toolName: this.name,
          cause:
            `agent "${event.author}" failed with ${event.errorCode}: ${event.errorMessage ?? ''}`.trim(),
        });
      }
      if (event.content && isFinalResponse(event)) answer = event;
    }
    return this.#result(answer);
  }

  #result(answer: Event | undefined): unknown {
    const text = getText(answer?.content);
    const hasSchema = (this.agent as { outputSchema?: unknown }).outputSchema !== undefined;
    if (!hasSchema || text === '') return text;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
}
