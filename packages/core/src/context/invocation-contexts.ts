import type { ArtifactService } from '../artifacts';
import { authConfigForRequest, credentialKeyOf, type AuthConfig } from '../auth/auth-config';
import type { AuthCredential } from '../auth/auth-credential';
import type { CredentialService } from '../auth/credential-service';
import { canExchangeAuthorizationCode, exchangeAuthorizationCode } from '../auth/oauth2-exchange';
import { canRefreshAccessToken } from '../auth/oauth2-refresh';
import { refreshStoredCredential } from '../auth/refresh-stored-credential';
import type { Content, Part } from '../content';
import { ServiceNotConfiguredError } from '../errors/service-not-configured-error';
import type { EventActions, ToolConfirmation } from '../events';
import { checkConfirmationTimeout, setConfirmationTimeout } from '../events/confirmation-timeout';
import type { MemoryService, SearchMemoryResponse } from '../memory';
import type { Session } from '../sessions/session';
import { DeltaState, ReadonlyStateView } from './state-view';
import type { CallbackContext, ReadonlyContext, ReadonlyState, State, ToolContext } from './types';

/**
 * What the context classes read from: satisfied by `InvocationContext`. Kept structural so the
 * context folder does not depend on the agents folder.
 */
export interface ContextSource {
  readonly invocationId: string;
  readonly agent: { readonly name: string };
  readonly session: Session;
  readonly branch: string | undefined;
  readonly userContent: Content | undefined;
  readonly signal: AbortSignal;
  readonly artifactService?: ArtifactService | undefined;
  readonly memoryService?: MemoryService | undefined;
  readonly credentialService?: CredentialService | undefined;
}

/** The credential the user gave for a call being run again after a credential request. */
export interface ResumedCredential {
  credentialKey: string;
  credential: AuthCredential;
}

/**
 * The {@link ReadonlyContext} of an invocation: identity of the run and a read-only state view.
 * Given to instruction providers.
 */
export class InvocationReadonlyContext implements ReadonlyContext {
  private readonlyState: ReadonlyState | undefined;

  constructor(protected readonly source: ContextSource) {}

  /** Session state (created on first use: most steps never read it). */
  get state(): ReadonlyState {
    return (this.readonlyState ??= new ReadonlyStateView(this.source.session));
  }

  get invocationId(): string {
    return this.source.invocationId;
  }
  get agentName(): string {
    return this.source.agent.name;
  }
  get appName(): string {
    return this.source.session.appName;
  }
  get userId(): string {
    return this.source.session.userId;
  }
  get sessionId(): string {
    return this.source.session.id;
  }
  get branch(): string | undefined {
    return this.source.branch;
  }
  get userContent(): Content | undefined {
    return this.source.userContent;
  }
  get signal(): AbortSignal {
    return this.source.signal;
  }
}

/**
 * The {@link CallbackContext} of an invocation: state writes land in `actions.stateDelta`;
 * artifacts are scoped to the session's app, user and session, and every save is recorded in
 * `actions.artifactDelta`.
 */
export class InvocationCallbackContext
  extends InvocationReadonlyContext
  implements CallbackContext
{
  private deltaState: State | undefined;

  constructor(
    source: ContextSource,
    readonly actions: EventActions,
  ) {
    super(source);
  }

  /** Session state; writes go to `actions.stateDelta`. */
  override get state(): State {
    return (this.deltaState ??= new DeltaState(this.source.session, this.actions.stateDelta));
  }

  async loadArtifact(filename: string, version?: number): Promise<Part | undefined> {
    return this.artifacts().loadArtifact({ ...this.scope(), filename, version });
  }

  async saveArtifact(
    filename: string,
    artifact: Part,
    customMetadata?: Record<string, unknown>,
  ): Promise<number> {
    const version = await this.artifacts().saveArtifact({
      ...this.scope(),
      filename,
      artifact,
      customMetadata,
    });
    this.actions.artifactDelta[filename] = version;
    return version;
  }

  async listArtifacts(): Promise<string[]> {
    return this.artifacts().listArtifactKeys(this.scope());
  }

  async searchMemory(query: string): Promise<SearchMemoryResponse> {
    const memory = this.source.memoryService;
    if (!memory) throw new ServiceNotConfiguredError({ service: 'memoryService' });
    return memory.searchMemory({ appName: this.appName, userId: this.userId, query });
  }

  private artifacts(): ArtifactService {
    const service = this.source.artifactService;
    if (!service) throw new ServiceNotConfiguredError({ service: 'artifactService' });
    return service;
  }

  private scope(): { appName: string; userId: string; sessionId: string } {
    const { session } = this.source;
    return { appName: session.appName, userId: session.userId, sessionId: session.id };
  }
}

/**
 * The {@link ToolContext} of one function call: its own actions (merged into the function-response
 * event in call order), the call id, and the human confirmation when there is one.
 */
export class InvocationToolContext extends InvocationCallbackContext implements ToolContext {
  /**
   * The deadline of the attempt running now (set by the flow around `tool.run`); its signal also
   * aborts on timeout. Internal to the flow.
   */
  deadline: { readonly signal: AbortSignal } | undefined;

  constructor(
    source: ContextSource,
    actions: EventActions,
    readonly functionCallId: string,
    readonly toolConfirmation: ToolConfirmation | undefined = undefined,
    private resumedCredential: ResumedCredential | undefined = undefined,
  ) {
    super(source, actions);
  }

  /** Aborted when the run is cancelled or when this call's timeout elapses. */
  override get signal(): AbortSignal {
    return this.deadline ? this.deadline.signal : this.source.signal;
  }

  requestConfirmation(
    options: { hint?: string; payload?: unknown; timeoutMs?: number } = {},
  ): void {
    const timeoutMs = checkConfirmationTimeout(options.timeoutMs, 'timeoutMs');
    const request: ToolConfirmation = { confirmed: false };
    if (options.hint !== undefined) request.hint = options.hint;
    if (options.payload !== undefined) request.payload = options.payload;
    if (timeoutMs !== undefined) setConfirmationTimeout(request, timeoutMs);
    this.actions.requestedToolConfirmations[this.functionCallId] = request;
  }

  async getCredential(authConfig: AuthConfig): Promise<AuthCredential | undefined> {
    const credentialKey = credentialKeyOf(authConfig);
    const address = { appName: this.appName, userId: this.userId, credentialKey };
    const resumed = this.resumedCredential;
    const service = this.source.credentialService;
    let credential: AuthCredential | undefined;
    if (resumed?.credentialKey === credentialKey) credential = structuredClone(resumed.credential);
    else if (service) credential = await service.loadCredential(address);
    if (!credential) return undefined;
    if (canRefreshAccessToken(authConfig, credential)) {
      // An expired OAuth2 access token with a refresh token: refresh it, keep the new tokens.
      const refreshed = await refreshStoredCredential({
        config: authConfig,
        credential,
        service,
        address,
        signal: this.signal,
      });
      this.resumedCredential = { credentialKey, credential: refreshed };
      return structuredClone(refreshed);
    }
    if (!canExchangeAuthorizationCode(authConfig, credential)) return credential;
    // An authorization code (what the ADK web UI sends back): exchange it once, keep the tokens.
    let exchanged: AuthCredential;
    try {
      exchanged = await exchangeAuthorizationCode(authConfig, credential, { signal: this.signal });
    } catch (error) {
      await service?.deleteCredential(address);
      throw error;
    }
    await service?.saveCredential({ ...address, credential: exchanged });
    this.resumedCredential = { credentialKey, credential: exchanged };
    return structuredClone(exchanged);
  }

  requestCredential(authConfig: AuthConfig): void {
    (this.actions.requestedAuthConfigs ??= {})[this.functionCallId] =
      authConfigForRequest(authConfig);
  }
}
