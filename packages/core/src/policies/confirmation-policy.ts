import { confirm, type Policy, type ToolCallRequest, type ToolDecision } from './policy';

/** Options of {@link ConfirmationPolicy}. */
export interface ConfirmationPolicyOptions {
  /** Tools whose calls need a human decision: names, or a predicate over the call. */
  tools: readonly string[] | ((request: ToolCallRequest) => boolean | Promise<boolean>);
  /** Text shown to the human; default `Approve <tool>(<args>)?` */
  hint?: string | ((request: ToolCallRequest) => string);
}

/**
 * Human in the loop: calls to the selected tools pause the run with a confirmation request
 * (`adk_request_confirmation`), and run only once the user's next message approves them. A
 * rejection is reported to the model as the function response. The pending request lives in the
 * session's events, so any process can resume it.
 *
 * @example
 * ```ts
 * new ConfirmationPolicy({ tools: ['transfer_money'], hint: 'A transfer needs your approval.' });
 * ```
 */
export class ConfirmationPolicy implements Policy {
  readonly name: string;
  readonly #options: ConfirmationPolicyOptions;

  constructor(options: ConfirmationPolicyOptions, name = 'confirmation') {
    this.#options = options;
    this.name = name;
  }

  async authorizeTool(request: ToolCallRequest): Promise<ToolDecision | undefined> {
    const { tools, hint } = this.#options;
    const selected =
      typeof tools === 'function' ? await tools(request) : tools.includes(request.toolName);
    if (!selected) return undefined;
    if (typeof hint === 'function') return confirm(hint(request));
    return confirm(hint ?? `Approve ${request.toolName}(${JSON.stringify(request.args)})?`);
  }
}
