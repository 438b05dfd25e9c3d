import { z } from 'zod';

import type { ToolContext } from '../context';
import { InvalidArgumentError } from '../errors/invalid-argument-error';
import { ToolArgumentsError, type ToolArgumentIssue } from '../errors/tool-arguments-error';
import type { FunctionDeclaration, JsonSchema } from '../models';
import { validateJsonSchema } from './json-schema-validator';
import type { Tool } from './tool';
import { isToolTimeout } from '../context/run-config';
import { checkConfirmationTimeout } from '../events/confirmation-timeout';

/** Options of {@link FunctionTool}. */
export interface FunctionToolOptions<TArgs> {
  /** The name the model calls; letters, digits, `_` and `-`. */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /**
   * The arguments: a zod object (recommended: the JSON Schema is derived and arguments are parsed,
   * so defaults and transforms apply) or a raw JSON Schema (arguments are validated against it).
   * Omitted: the tool takes no arguments.
   */
  parameters?: z.ZodType<TArgs> | JsonSchema;
  /**
   * The implementation. Receives validated arguments; its return value becomes the function
   * response (objects as they are, anything else as `{ result }`). Throwing reports an error to
   * the model, and the run continues.
   */
  execute: (args: TArgs, context: ToolContext) => unknown;
  /** The tool starts work and returns before it finishes (see `Tool.isLongRunning`). */
  isLongRunning?: boolean;
  /** Running a call twice has the effect of running it once (see `Tool.isIdempotent`). */
  isIdempotent?: boolean;
  /**
   * Most milliseconds one call may run before it is stopped and answered with `TOOL_TIMEOUT`
   * (see `Tool.timeoutMs`; `0` or `Infinity`: no limit). Unset: the agent's or run's default.
   */
  timeoutMs?: number;
  /**
   * Ask a human before running: `true`, or a predicate on the arguments. The first call records a
   * confirmation request and pauses the invocation; the tool runs once the call is confirmed.
   */
  requireConfirmation?:
    boolean | ((args: TArgs, context: ToolContext) => boolean | Promise<boolean>);
  /**
   * With `requireConfirmation`: how long the confirmation may wait, in milliseconds (default: no
   * limit). Past it, the call is denied with `CONFIRMATION_EXPIRED` and never runs.
   */
  confirmationTimeoutMs?: number;
}

const LONG_RUNNING_NOTE =
  'NOTE: This is a long-running operation. It returns before the work is finished; do not call it again for the same request.';

/**
 * A tool backed by a function.
 *
 * Arguments are validated **before** `execute` runs: invalid arguments never reach your code, and
 * the model gets `{ error: { code: 'INVALID_TOOL_ARGUMENTS', issues } }` back so it can correct
 * the call.
 *
 * @example
 * ```ts
 * const getWeather = new FunctionTool({
 *   name: 'get_weather',
 *   description: 'Current weather of a city.',
 *   parameters: z.object({ city: z.string() }),
 *   execute: ({ city }) => ({ city, forecast: 'sunny', celsius: 21 }),
 * });
 * ```
 */
export class FunctionTool<TArgs = Record<string, unknown>> implements Tool {
  readonly name: string;
  readonly description: string;
  readonly isLongRunning: boolean;
  readonly timeoutMs: number | undefined;
  readonly isIdempotent: boolean;
  private readonly schema: z.ZodType<TArgs> | undefined;
  private readonly jsonSchema: JsonSchema;
  private readonly execute: FunctionToolOptions<TArgs>['execute'];
  private readonly requireConfirmation: FunctionToolOptions<TArgs>['requireConfirmation'];
  private readonly confirmationTimeoutMs: number | undefined;
  private readonly cachedDeclaration: FunctionDeclaration;

  constructor(options: FunctionToolOptions<TArgs>) {
    this.name = options.name;
    this.description = options.description;
    this.isLongRunning = options.isLongRunning ?? false;
    if (options.timeoutMs !== undefined && !isToolTimeout(options.timeoutMs)) {
      throw new InvalidArgumentError({
        message: `FunctionTool "${options.name}": timeoutMs must be a number >= 0, got ${String(options.timeoutMs)}.`,
        argument: 'timeoutMs',
      });
    }
    this.timeoutMs = options.timeoutMs;
    this.isIdempotent = options.isIdempotent ?? false;
    this.execute = options.execute;
    this.requireConfirmation = options.requireConfirmation;
    this.confirmationTimeoutMs = checkConfirmationTimeout(
      options.confirmationTimeoutMs,
      'confirmationTimeoutMs',
      `FunctionTool "${options.name}"`,
    );
    if (options.parameters instanceof z.ZodType) {
      this.schema = options.parameters;
      const { $schema: _ignored, ...jsonSchema } = z.toJSONSchema(options.parameters, {
        io: 'input',
        unrepresentable: 'any',
      }) as JsonSchema;
      this.jsonSchema = jsonSchema;
    } else {
      this.jsonSchema = options.parameters ?? { type: 'object', properties: {} };
    }
    this.cachedDeclaration = {
      name: this.name,
      description: this.isLongRunning
        ? `${this.description}\n\n${LONG_RUNNING_NOTE}`
        : this.description,
      parameters: this.jsonSchema,
    };
  }

  declaration(): FunctionDeclaration {
    return this.cachedDeclaration;
  }

  /**
   * Validate `args`, apply the confirmation gate, then execute.
   * @throws ToolArgumentsError when the arguments do not match the parameters.
   */
  async run(args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    const parsed = this.parse(args);
    if (this.requireConfirmation !== undefined) {
      const confirmation = context.toolConfirmation;
      if (confirmation) {
        if (!confirmation.confirmed) {
          return {
            error: {
              code: 'TOOL_CALL_REJECTED',
              message: `The call to "${this.name}" was rejected.`,
            },
          };
        }
      } else if (
        this.requireConfirmation === true ||
        (typeof this.requireConfirmation === 'function' &&
          (await this.requireConfirmation(parsed, context)))
      ) {
        context.requestConfirmation({
          hint: `Confirm the call to "${this.name}".`,
          payload: args,
          ...(this.confirmationTimeoutMs === undefined
            ? {}
            : { timeoutMs: this.confirmationTimeoutMs }),
        });
        return {
          error: {
            code: 'CONFIRMATION_REQUIRED',
            message: `The call to "${this.name}" needs a human confirmation; it has been requested.`,
          },
        };
      }
    }
    return this.execute(parsed, context);
  }

  private parse(args: Record<string, unknown>): TArgs {
    if (this.schema) {
      const result = this.schema.safeParse(args);
      if (result.success) return result.data;
      const issues: ToolArgumentIssue[] = result.error.issues.map((issue) => ({
        path: issue.path.map(String).join('.'),
        message: issue.message,
      }));
      throw new ToolArgumentsError({ toolName: this.name, issues, cause: result.error });
    }
    const issues = validateJsonSchema(this.jsonSchema, args);
    if (issues.length > 0) throw new ToolArgumentsError({ toolName: this.name, issues });
    return args as TArgs;
  }
}
