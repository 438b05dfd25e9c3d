import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';

/**
 * The string fields naming a task (or a push config) in the params of each JSON-RPC task
 * method, A2A 1.0 and 0.3 spellings. `true` marks a field that must be there; `a|b` names a field
 * of two spellings (1.0's JSON takes the proto's snake_case names too).
 */
const ID_FIELDS: Record<string, Record<string, boolean>> = {
  GetTask: { id: true },
  CancelTask: { id: true },
  SubscribeToTask: { id: true },
  GetTaskPushNotificationConfig: { 'taskId|task_id': true, id: true },
  DeleteTaskPushNotificationConfig: { 'taskId|task_id': true, id: true },
  ListTaskPushNotificationConfigs: { 'taskId|task_id': true },
  'tasks/get': { id: true },
  'tasks/cancel': { id: true },
  'tasks/resubscribe': { id: true },
  'tasks/pushNotificationConfig/get': { id: true, pushNotificationConfigId: false },
  'tasks/pushNotificationConfig/delete': { id: true, pushNotificationConfigId: true },
  'tasks/pushNotificationConfig/list': { id: true },
};

/** Methods whose params may carry `historyLength`. */
const WITH_HISTORY_LENGTH = new Set(['GetTask', 'tasks/get']);

function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/** Why the params of a task method are unusable, or `undefined` when they are fine. */
function paramsProblem(method: string, params: unknown): string | undefined {
  const fields = ID_FIELDS[method];
  if (fields === undefined) return undefined;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    return `params of ${method} must be an object (got ${kindOf(params)}).`;
  }
  const given = params as Record<string, unknown>;
  for (const [spellings, required] of Object.entries(fields)) {
    const names = spellings.split('|');
    const field = names.find((name) => given[name] !== undefined) ?? (names[0] as string);
    const value = given[field];
    if (value === undefined && !required) continue;
    if (typeof value !== 'string' || value === '') {
      return `params.${field} of ${method} must be a non-empty string (got ${value === '' ? 'an empty string' : kindOf(value)}).`;
    }
  }
  const historyLength = given.historyLength ?? given.history_length;
  if (
    WITH_HISTORY_LENGTH.has(method) &&
    historyLength !== undefined &&
    historyLength !== null &&
    !(Number.isSafeInteger(historyLength) && (historyLength as number) >= 0)
  ) {
    return `params.historyLength of ${method} must be a whole number of at least 0 (got ${kindOf(historyLength)}).`;
  }
  return undefined;
}

/**
 * The JSON-RPC error answer for a task method whose params the SDK would misread (a number id
 * read as a string, or a JavaScript error answered as -32603): -32602, invalid params, naming
 * the field. `undefined` lets the request through.
 */
export function invalidParamsAnswer(body: unknown): object | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, params, id } = body as { method?: unknown; params?: unknown; id?: unknown };
  if (typeof method !== 'string') return undefined;
  const problem = paramsProblem(method, params);
  if (problem === undefined) return undefined;
  const requestId = typeof id === 'string' || typeof id === 'number' ? id : null;
  return {
    jsonrpc: '2.0',
    id: requestId,
    error: { code: A2A_ERROR_CODE.INVALID_PARAMS, message: `Invalid params: ${problem}` },
  };
}
