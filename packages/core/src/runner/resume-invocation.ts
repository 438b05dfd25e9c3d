import type { BaseAgent } from '../agents/base-agent';
import { InvocationContext } from '../invocation/invocation-context';
import { LlmAgent } from '../agents/llm-agent';
import { newSpanId } from '../invocation/span-id';
import type { Part } from '../content';
import { InvocationNotFoundError } from '../errors/invocation-not-found-error';
import { SessionNotFoundError } from '../errors/session-not-found-error';
import { ToolInterruptedError } from '../errors/tool-interrupted-error';
import { createEvent, type Event } from '../events';
import { executeFunctionCalls } from '../flow/execute-tools';
import { resolveTools } from '../flow/resolve-tools';
import { InvocationReadonlyContext } from '../context/invocation-contexts';
import { resumedBranch } from '../history/find-caller';
import { withoutRewoundEvents } from '../history/rewound-events';
import { toolErrorResponse } from '../tools/tool-response';
import { commitEvent } from './commit-event';
import { findAgentToRun, findResumeEntry } from './find-agent-to-run';
import {
  readInvocationProgress,
  type InvocationCall,
  type InvocationProgress,
} from './invocation-progress';
import { createRunConfig, type RunConfig } from '../context/run-config';
import { holdSession, type SessionTurns } from './session-turns';
import { publishRunEnd, publishRunError, publishRunStart } from './run-outcome';
import type { SessionLock } from './session-lock';
import type { Session } from '../sessions/session';
import type { ArtifactService } from '../artifacts';
import type { MemoryService } from '../memory';
import type { CredentialService } from '../auth/credential-service';
import type { ContextCacheConfig } from '../models/context-cache';
import type { ModelRegistry } from '../models/model-registry';
import type { PluginManager } from '../plugins/plugin-manager';
import type { Policy } from '../policies/policy';
import type { SessionService } from '../sessions/session-service';

/**
 * What a resume needs from the Runner: its app, root agent, services and plugins. The Runner
 * passes itself; naming the fields here keeps this module free of an import of `runner.ts`.
 */
export interface ResumeHost {
  readonly appName: string;
  readonly agent: BaseAgent;
  readonly sessionService: SessionService;
  readonly artifactService: ArtifactService | undefined;
  readonly memoryService: MemoryService | undefined;
  readonly credentialService: CredentialService;
  readonly plugins: PluginManager;
  readonly models: ModelRegistry;
  readonly policies: readonly Policy[];
  readonly contextCacheConfig?: ContextCacheConfig | undefined;
  /** Held for the resume, as for a run (see `RunnerServices.sessionLock`). */
  readonly sessionLock?: SessionLock | undefined;
}

/**
 * A new invocation's context on `host`'s agent and services: one place for a run, a resume and a
 * live run to build it. Positional, so that a turn allocates no options object for it.
 */
export function invocationContextFor(
  host: ResumeHost,
  invocationId: string,
  session: Session,
  runConfig: RunConfig,
  signal: AbortSignal | undefined,
  plugins: PluginManager,
): InvocationContext {
  return new InvocationContext({
    invocationId,
    agent: host.agent,
    session,
    sessionService: host.sessionService,
    artifactService: host.artifactService,
    memoryService: host.memoryService,
    credentialService: host.credentialService,
    runConfig,
    signal,
    plugins,
    models: host.models,
    policies: host.policies,
    contextCacheConfig: host.contextCacheConfig,
    spanId: newSpanId(),
  });
}

/** Arguments of `Runner.resume`. */
export interface ResumeRequest {
  userId: string;
  sessionId: string;
  /** The invocation to continue (its events carry this `invocationId`). */
  invocationId: string;
  runConfig?: Partial<RunConfig>;
  /** Cancels the run: it ends promptly, without storing partial data. */
  signal?: AbortSignal;
}

/**
 * Continue an invocation from the session's event log (see `Runner.resume`): answer its
 * interrupted calls (idempotent tools run again, others get a `TOOL_INTERRUPTED` response), then
 * run its agent again from the last stored event: the agent whose step-recorded run (a graph
 * workflow's) the invocation left open, which continues it from its stored steps, else the agent
 * the conversation is with. Nothing is sent again: no user message, no call whose response is
 * stored, no step whose output is stored.
 */
export async function* resumeInvocation(
  runner: ResumeHost,
  turns: SessionTurns,
  request: ResumeRequest,
): AsyncGenerator<Event, void> {
  const { signal } = request;
  if (signal?.aborted) return;
  const sessionKey = {
    appName: runner.appName,
    userId: request.userId,
    sessionId: request.sessionId,
  };
  // The same turn-taking as a run: this process's turn, then the shared lock (if any).
  const holding = holdSession(turns, runner.sessionLock, sessionKey, signal);
  const hold = holding instanceof Promise ? await holding : holding;
  if (hold === undefined) return;
  try {
    // Plugins are initialised before their first hook, as in `Runner.run`.
    const initializing = runner.plugins.initialize();
    if (initializing) await initializing;
    const session = await runner.sessionService.getSession(sessionKey);
    if (!session)
      throw new SessionNotFoundError({
        appName: runner.appName,
        userId: request.userId,
        sessionId: request.sessionId,
      });
    // A rewound invocation is gone from the conversation: there is nothing to resume.
    const progress = readInvocationProgress(
      withoutRewoundEvents(session.events),
      request.invocationId,
    );
    if (progress.events.length === 0)
      throw new InvocationNotFoundError({
        sessionId: request.sessionId,
        invocationId: request.invocationId,
      });
    if (progress.finished) return;
    const ctx = invocationContextFor(
      runner,
      request.invocationId,
      session,
      createRunConfig(request.runConfig),
      signal,
      runner.plugins,
    );
    ctx.userContent = progress.userEvent?.content;
    const startTime = performance.now();
    publishRunStart(ctx, runner.appName, startTime);
    let eventCount = 0;
    try {
      if (progress.interrupted.length > 0) {
        const answer = await answerInterrupted(runner, ctx, progress.interrupted);
        if (signal?.aborted) return;
        if (answer) {
          eventCount++;
          yield await commitEvent(runner.sessionService, ctx, session, answer);
        }
      }
      const { caller, branch } = resumeTarget(runner.agent, session, progress);
      const agent = findResumeEntry(caller);
      if (agent !== caller) ctx.resumeFrom = caller;
      for await (const event of agent.run(ctx.createChild({ agent, branch }))) {
        eventCount++;
        yield await commitEvent(runner.sessionService, ctx, session, event);
        if (signal?.aborted) break;
      }
    } catch (error) {
      publishRunError(ctx.spanId, request.invocationId, startTime, error);
      throw error;
    }
    publishRunEnd(ctx.spanId, request.invocationId, startTime, eventCount);
  } finally {
    const leaving = hold.leave();
    if (leaving) await leaving;
  }
}

/**
 * Who continues the invocation, on which branch: the outermost agent of the tree whose
 * step-recorded run is open (a graph workflow killed mid-run continues its run), else the agent
 * the next message would go to (`findAgentToRun`). The Runner's usual climb (`findResumeEntry`)
 * then starts the Sequential/Loop agents above it.
 */
function resumeTarget(
  root: BaseAgent,
  session: Session,
  progress: InvocationProgress,
): { caller: BaseAgent; branch: string | undefined } {
  let best: { caller: BaseAgent; branch: string | undefined; depth: number } | undefined;
  for (const open of progress.openRuns) {
    const agent = root.findAgent(open.author);
    if (!agent) continue;
    let depth = 0;
    for (let parent = agent.parentAgent; parent; parent = parent.parentAgent) depth++;
    if (!best || depth < best.depth) best = { caller: agent, branch: open.branch, depth };
  }
  if (best) return { caller: best.caller, branch: best.branch };
  const caller = findAgentToRun(session, root);
  return { caller, branch: resumedBranch(session.events, caller.name) };
}

/**
 * One function-response event answering the interrupted calls, in call order: calls of idempotent
 * tools run again (through the same path as any call: plugins, callbacks, policies), the others
 * are answered with a `TOOL_INTERRUPTED` error. Calls of one model response stay in one event.
 */
async function answerInterrupted(
  runner: ResumeHost,
  ctx: InvocationContext,
  interrupted: readonly InvocationCall[],
): Promise<Event | undefined> {
  const callEvent = interrupted[0]!.callEvent;
  const found = runner.agent.findAgent(callEvent.author);
  const agent = found instanceof LlmAgent ? found : undefined;
  const child = agent ? ctx.createChild({ agent, branch: callEvent.branch }) : ctx;
  const resolving = agent ? resolveTools(agent, new InvocationReadonlyContext(child)) : undefined;
  const tools = resolving instanceof Promise ? await resolving : resolving;
  const rerun = interrupted.filter(({ call }) => tools?.byName.get(call.name)?.isIdempotent);
  const executed =
    agent && tools && rerun.length > 0
      ? await executeFunctionCalls({
          agent,
          ctx: child,
          calls: rerun.map(({ call }) => call),
          tools: tools.byName,
          parentSpanId: undefined,
        })
      : undefined;
  const byId = new Map<string, Part>();
  for (const part of executed?.content?.parts ?? [])
    if (part.functionResponse?.id) byId.set(part.functionResponse.id, part);
  const parts: Part[] = interrupted.map(({ call }) => {
    const rerunPart = call.id === undefined ? undefined : byId.get(call.id);
    if (rerunPart) return rerunPart;
    const response = toolErrorResponse(
      call.name,
      new ToolInterruptedError({ toolName: call.name }),
    );
    return {
      functionResponse: {
        name: call.name,
        response,
        ...(call.id === undefined ? {} : { id: call.id }),
      },
    };
  });
  return createEvent({
    invocationId: ctx.invocationId,
    author: callEvent.author,
    branch: callEvent.branch,
    content: { role: 'user', parts },
    ...(executed ? { actions: executed.actions } : {}),
  });
}
