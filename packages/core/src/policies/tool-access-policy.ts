import { allow, deny, type Policy, type ToolCallRequest, type ToolDecision } from './policy';

/** Options of {@link ToolAccessPolicy}. */
export interface ToolAccessOptions {
  /** When set, only these tools may run; any other call is denied. */
  allow?: readonly string[];
  /** Tools that may never run. */
  deny?: readonly string[];
  /** Reason given to the model; default `Tool "<name>" is not allowed.` */
  reason?: string | ((request: ToolCallRequest) => string);
  /** Decide per call (arguments, state...); runs after the lists. */
  check?: (
    request: ToolCallRequest,
  ) => ToolDecision | undefined | Promise<ToolDecision | undefined>;
}

/**
 * Per-tool authorization: allow lists, deny lists and a per-call check. A denied call is not
 * executed; the model receives the reason as the function response and can adapt.
 *
 * @example
 * ```ts
 * new ToolAccessPolicy({ deny: ['drop_table'], reason: 'Schema changes need a DBA.' });
 * ```
 */
export class ToolAccessPolicy implements Policy {
  readonly name: string;
  readonly #options: ToolAccessOptions;

  constructor(options: ToolAccessOptions, name = 'tool-access') {
    this.#options = options;
    this.name = name;
  }

  async authorizeTool(request: ToolCallRequest): Promise<ToolDecision | undefined> {
    const { allow: allowed, deny: denied, check } = this.#options;
    const listed =
      (allowed && !allowed.includes(request.toolName)) || denied?.includes(request.toolName);
    if (listed) return deny(this.#reason(request));
    return (await check?.(request)) ?? allow();
  }

  #reason(request: ToolCallRequest): string {
    const { reason } = this.#options;
    if (typeof reason === 'function') return reason(request);
    return reason ?? `Tool "${request.toolName}" is not allowed.`;
  }
}
