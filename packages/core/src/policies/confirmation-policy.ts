import { checkConfirmationTimeout } from '../events/confirmation-timeout';
import { confirm, type Policy, type ToolCallRequest, type ToolDecision } from './policy';

/** Options of {@link ConfirmationPolicy}. */
export interface ConfirmationPolicyOptions {
  /** Tools whose calls need a human decision: names, or a predicate over the call. */
  tools: readonly string[] | ((request: ToolCallRequest) => boolean | Promise<boolean>);
  /** Text shown to the human; default `Approve <tool>(<args>)?` */
  hint?: string | ((request: ToolCallRequest) => string);
  /**
   * How long a confirmation may wait, in milliseconds, for every selected tool (default: no
   * limit). Past it, the call is denied with `CONFIRMATION_EXPIRED` (see
   * `ConfirmationExpiredError`); the deadline is stored with the request in the session's events.
   */
  timeoutMs?: number;
  /** Per-tool timeouts by tool name, in milliseconds; they win over {@link timeoutMs}. */
  toolTimeoutsMs?: Readonly<Record<string, number>>;
}

/**
 * Human in the loop: calls to the selected tools pause the run with a confirmation request
 * (`adk_request_confirmation`), and run only once the user's next message approves them. A
 * rejection is reported to the model as the function response. The pending request lives in the
 * session's events, so any process can resume it.
 *
 * With a timeout, nobody answering is a denial: once the deadline stored with the request has
 * passed, the call is answered with `CONFIRMATION_EXPIRED` (by the Runner's timer while the process
 * lives, else when the agent next runs on the session) and a late approval runs nothing.
 *
 * @example
 * ```ts
 * new ConfirmationPolicy({
 *   tools: ['transfer_money', 'delete_account'],
 *   hint: 'This needs your approval.',
 *   timeoutMs: 15 * 60_000, // 15 minutes to answer
 *   toolTimeoutsMs: { delete_account: 60_000 }, // one minute for this one
 * });
 * ```
 *
 * @throws InvalidArgumentError when a timeout is not a finite number of milliseconds above 0.
 */
export class ConfirmationPolicy implements Policy {
  readonly name: string;
  readonly #options: ConfirmationPolicyOptions;

  constructor(options: ConfirmationPolicyOptions, name = 'confirmation') {
    checkConfirmationTimeout(options.timeoutMs, 'timeoutMs');
    for (const [tool, timeoutMs] of Object.entries(options.toolTimeoutsMs ?? {}))
      checkConfirmationTimeout(timeoutMs, `toolTimeoutsMs.${tool}`);
    this.#options = options;
    this.name = name;
  }

  async authorizeTool(request: ToolCallRequest): Promise<ToolDecision | undefined> {
    const { tools, hint, timeoutMs, toolTimeoutsMs } = this.#options;
    const selected =
      typeof tools === 'function' ? await tools(request) : tools.includes(request.toolName);
    if (!selected) return undefined;
    const text =
      typeof hint === 'function'
        ? hint(request)
        : (hint ?? `Approve ${request.toolName}(${JSON.stringify(request.args)})?`);
    const timeout =
      toolTimeoutsMs && Object.hasOwn(toolTimeoutsMs, request.toolName)
        ? toolTimeoutsMs[request.toolName]
        : timeoutMs;
    return confirm(text, timeout === undefined ? {} : { timeoutMs: timeout });
  }
}
