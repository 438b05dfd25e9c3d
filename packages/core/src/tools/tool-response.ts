import { AdkError } from '../errors/adk-error';
import { describeCause } from '../errors/describe-cause';
import { ToolArgumentsError } from '../errors/tool-arguments-error';
import { ToolExecutionError } from '../errors/tool-execution-error';
import { ToolNotFoundError } from '../errors/tool-not-found-error';

/** The structured error a model sees in a function response: `{ error: { code, message, ... } }`. */
export interface ToolErrorResponse {
  [key: string]: unknown;
  error: { code: string; message: string; [detail: string]: unknown };
}

/**
 * The function response for a tool's return value: plain objects as they are, anything else
 * (strings, numbers, arrays, `null`) wrapped as `{ result: value }`; `undefined` becomes `{}`.
 */
export function normalizeToolResult(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return value as Record<string, unknown>;
  }
  return { result: value };
}

/**
 * The function response for a failed call. Typed ADK errors keep their code and details
 * (`issues` for invalid arguments, `availableTools` for an unknown tool); anything else a tool
 * throws is reported as `TOOL_EXECUTION_FAILED` with its message.
 */
export function toolErrorResponse(toolName: string, error: unknown): ToolErrorResponse {
  if (ToolArgumentsError.isInstance(error)) {
    return { error: { code: error.code, message: error.message, issues: error.issues } };
  }
  if (ToolNotFoundError.isInstance(error)) {
    return {
      error: { code: error.code, message: error.message, availableTools: error.availableTools },
    };
  }
  if (AdkError.isInstance(error)) {
    return { error: { code: error.code, message: error.message } };
  }
  const wrapped = new ToolExecutionError({ toolName, cause: error });
  return {
    error: { code: wrapped.code, message: `Tool "${toolName}" failed: ${describeCause(error)}` },
  };
}

/**
 * `response` as it will be stored: a JSON round trip, so the event a caller sees equals the stored
 * one (dates become strings, `undefined` members disappear). A value that cannot be serialised
 * (circular, `BigInt`) becomes a `TOOL_RESULT_NOT_SERIALIZABLE` error response instead of failing
 * the session write later.
 */
export function toStorableToolResponse(
  toolName: string,
  response: Record<string, unknown>,
): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(response)) as Record<string, unknown>;
  } catch (error) {
    return {
      error: {
        code: 'TOOL_RESULT_NOT_SERIALIZABLE',
        message: `Tool "${toolName}" returned a value that cannot be stored as JSON: ${describeCause(error)}`,
      },
    };
  }
}
