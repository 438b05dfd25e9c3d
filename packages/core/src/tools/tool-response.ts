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
 * `response` as it will be stored, so the event a caller sees equals the stored one: plain JSON
 * data as is, anything else through a JSON round trip (dates become strings, `undefined` members
 * disappear). A value that cannot be serialised
 * (circular, `BigInt`) becomes a `TOOL_RESULT_NOT_SERIALIZABLE` error response instead of failing
 * the session write later.
 */
export function toStorableToolResponse(
  toolName: string,
  response: Record<string, unknown>,
): Record<string, unknown> {
  // Plain JSON data (the usual case) is kept as is; anything else takes the JSON round trip.
  if (isPlainJson(response, 0)) return response;
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

const MAX_PLAIN_DEPTH = 64;

/** True for strings, finite numbers, booleans, null, arrays and plain objects made of them. */
function isPlainJson(value: unknown, depth: number): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (depth > MAX_PLAIN_DEPTH) return false;
      if (Array.isArray(value)) {
        for (const item of value) if (!isPlainJson(item, depth + 1)) return false;
        return true;
      }
      const prototype: unknown = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return false;
      const record = value as Record<string, unknown>;
      for (const key in record) if (!isPlainJson(record[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}
