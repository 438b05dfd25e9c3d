import type { AuthConfig } from '../auth/auth-config';
import type { AuthCredential } from '../auth/auth-credential';
import type { Content, Part } from '../content';
import type { EventActions, ToolConfirmation } from '../events';
import type { SearchMemoryResponse } from '../memory';

/** Read access to session state (the merged view plus the pending delta). */
export interface ReadonlyState {
  get<T = unknown>(key: string): T | undefined;
  has(key: string): boolean;
  /** A plain-object snapshot of the current view. */
  toRecord(): Record<string, unknown>;
}

/** State that records every write into the current event's `stateDelta`. */
export interface State extends ReadonlyState {
  set(key: string, value: unknown): void;
  /** Set several keys at once. */
  update(values: Record<string, unknown>): void;
}

/** What every callback, instruction provider and tool can read. */
export interface ReadonlyContext {
  readonly invocationId: string;
  readonly agentName: string;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly branch: string | undefined;
  /** The user message that started the invocation. */
  readonly userContent: Content | undefined;
  readonly state: ReadonlyState;
  /** Aborted when the run is cancelled. */
  readonly signal: AbortSignal;
}

/** Context given to callbacks: read and write state, artifacts and memory. */
export interface CallbackContext extends ReadonlyContext {
  readonly state: State;
  /** The actions of the event being built; writes to `state` land in `actions.stateDelta`. */
  readonly actions: EventActions;
  /** Load an artifact of the session (or a `user:` one); the latest version by default. */
  loadArtifact(filename: string, version?: number): Promise<Part | undefined>;
  /** Save an artifact and record it in `actions.artifactDelta`; returns the new version. */
  saveArtifact(
    filename: string,
    artifact: Part,
    customMetadata?: Record<string, unknown>,
  ): Promise<number>;
  listArtifacts(): Promise<string[]>;
  /** Search the user's long-term memory. */
  searchMemory(query: string): Promise<SearchMemoryResponse>;
}

/** Context given to a tool while it runs. */
export interface ToolContext extends CallbackContext {
  /** Id of the function call being executed. */
  readonly functionCallId: string;
  /** The human decision, when this call was confirmed (human in the loop). */
  readonly toolConfirmation: ToolConfirmation | undefined;
  /**
   * Pause the run and ask a human to approve this call; the tool's result is then ignored. With
   * `timeoutMs`, the request expires: once that many milliseconds have passed without an answer,
   * the call is denied with `CONFIRMATION_EXPIRED` (see `ConfirmationExpiredError`).
   * @throws InvalidArgumentError when `timeoutMs` is not a finite number above 0.
   */
  requestConfirmation(options?: { hint?: string; payload?: unknown; timeoutMs?: number }): void;
  /**
   * The credential for `authConfig`: the one the user just gave (when this call is re-run after
   * answering a credential request), else the one saved in the Runner's `CredentialService` for
   * this app, user and credential key, else `undefined` (then call {@link requestCredential}).
   * An OAuth2 authorization code (what the ADK web UI sends back) is first exchanged for tokens at
   * the scheme's token URL with the client id and secret of `authConfig.rawAuthCredential`, and
   * the tokens replace the code in the `CredentialService`. An OAuth2 access token that has
   * expired (`oauth2.expiresAt`, less than a minute left) is refreshed the same way when the
   * credential holds a refresh token (`grant_type=refresh_token`), and the new tokens are saved.
   *
   * @throws CredentialExchangeError when that exchange or refresh fails (the code, or the
   * credential whose refresh the endpoint refused, is then forgotten: the next call finds none).
   */
  getCredential(authConfig: AuthConfig): Promise<AuthCredential | undefined>;
  /**
   * Pause the run and ask the user for a credential (`adk_request_credential`, long-running). The
   * tool's result is kept as the call's provisional response; once the user answers, the credential
   * is saved and this call runs again, when {@link getCredential} finds it.
   */
  requestCredential(authConfig: AuthConfig): void;
}
