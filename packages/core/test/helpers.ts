/**
 * Helpers shared by the core runtime's tests: build a runner around an agent and collect a run.
 */
import type { BaseAgent } from '../src/agents/base-agent';
import { InvocationContext } from '../src/invocation/invocation-context';
import type { ArtifactService } from '../src/artifacts';
import type { Part } from '../src/content';
import { userContent } from '../src/content';
import type { Event } from '../src/events';
import type { MemoryService } from '../src/memory';
import type { BasePlugin } from '../src/plugins/base-plugin';
import { PluginManager } from '../src/plugins/plugin-manager';
import type { RunConfig } from '../src/context/run-config';
import { createRunConfig } from '../src/context/run-config';
import { Runner } from '../src/runner/runner';
import { InMemorySessionService } from '../src/sessions/in-memory-session-service';
import type { Session } from '../src/sessions/session';

export const APP = 'test_app';
export const USER = 'u1';
export const SESSION = 's1';

/** A runner with an in-memory session service and an existing session `s1`. */
export async function setup(
  agent: BaseAgent,
  options: {
    plugins?: BasePlugin[];
    state?: Record<string, unknown>;
    artifactService?: ArtifactService;
    memoryService?: MemoryService;
  } = {},
) {
  const sessionService = new InMemorySessionService();
  await sessionService.createSession({
    appName: APP,
    userId: USER,
    sessionId: SESSION,
    state: options.state,
  });
  const runner = new Runner({
    appName: APP,
    agent,
    sessionService,
    plugins: options.plugins,
    artifactService: options.artifactService,
    memoryService: options.memoryService,
  });
  const run = (
    text: string,
    extra: {
      runConfig?: Partial<RunConfig>;
      stateDelta?: Record<string, unknown>;
      signal?: AbortSignal;
    } = {},
  ) =>
    collect(
      runner.run({ userId: USER, sessionId: SESSION, newMessage: userContent(text), ...extra }),
    );
  const session = async (): Promise<Session> =>
    (await sessionService.getSession({ appName: APP, userId: USER, sessionId: SESSION }))!;
  return { runner, sessionService, run, session };
}

/** Every event of an async generator. */
export async function collect(events: AsyncIterable<Event>): Promise<Event[]> {
  const all: Event[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** A bare invocation context for unit tests of agents and processors. */
export async function makeContext(
  agent: BaseAgent,
  options: {
    state?: Record<string, unknown>;
    events?: Event[];
    runConfig?: Partial<RunConfig>;
    plugins?: BasePlugin[];
    artifactService?: ArtifactService;
    memoryService?: MemoryService;
    branch?: string;
  } = {},
): Promise<InvocationContext> {
  const sessionService = new InMemorySessionService();
  const session = await sessionService.createSession({
    appName: APP,
    userId: USER,
    sessionId: SESSION,
    state: options.state,
  });
  for (const event of options.events ?? []) await sessionService.appendEvent({ session, event });
  return new InvocationContext({
    invocationId: 'e-test',
    agent,
    session,
    sessionService,
    runConfig: createRunConfig(options.runConfig),
    plugins: new PluginManager(options.plugins),
    artifactService: options.artifactService,
    memoryService: options.memoryService,
    branch: options.branch,
    userContent: userContent('hi'),
  });
}

/** A minimal in-memory artifact service (a test double; the real one is in `@adk/artifacts`). */
export class TestArtifactService implements ArtifactService {
  readonly files = new Map<string, Part[]>();
  private key(r: { appName: string; userId: string; sessionId: string; filename: string }): string {
    const scope = r.filename.startsWith('user:') ? 'user' : r.sessionId;
    return `${r.appName}/${r.userId}/${scope}/${r.filename}`;
  }
  async saveArtifact(r: Parameters<ArtifactService['saveArtifact']>[0]) {
    const versions = this.files.get(this.key(r)) ?? [];
    versions.push(r.artifact);
    this.files.set(this.key(r), versions);
    return versions.length - 1;
  }
  async loadArtifact(r: Parameters<ArtifactService['loadArtifact']>[0]) {
    const versions = this.files.get(this.key(r));
    return versions?.[r.version ?? versions.length - 1];
  }
  async listArtifactKeys(r: Parameters<ArtifactService['listArtifactKeys']>[0]) {
    const prefix = `${r.appName}/${r.userId}/`;
    return [...this.files.keys()]
      .filter(
        (key) => key.startsWith(`${prefix}${r.sessionId}/`) || key.startsWith(`${prefix}user/`),
      )
      .map((key) => key.split('/').slice(3).join('/'))
      .sort();
  }
  async deleteArtifact(r: Parameters<ArtifactService['deleteArtifact']>[0]) {
    this.files.delete(this.key(r));
  }
  async listVersions(r: Parameters<ArtifactService['listVersions']>[0]) {
    return (this.files.get(this.key(r)) ?? []).map((_, index) => index);
  }
  async listArtifactVersions() {
    return [];
  }
  async getArtifactVersion() {
    return undefined;
  }
}

/** A deferred promise: resolve it from outside. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
