/** JSON-RPC 2.0 envelopes and the error codes of the A2A specification. */

/** A JSON-RPC request id. */
export type JsonRpcId = string | number | null;

/** A JSON-RPC 2.0 request. */
export interface JsonRpcRequest<Params = unknown> {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: Params;
}

/** The error object of a JSON-RPC error response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC 2.0 success response. */
export interface JsonRpcSuccessResponse<Result = unknown> {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: Result;
}

/** A JSON-RPC 2.0 error response. */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  error: JsonRpcErrorObject;
}

/** Either response. */
export type JsonRpcResponse<Result = unknown> =
  JsonRpcSuccessResponse<Result> | JsonRpcErrorResponse;

/** The A2A methods over JSON-RPC. */
export const A2aMethod = {
  sendMessage: 'message/send',
  streamMessage: 'message/stream',
  getTask: 'tasks/get',
  cancelTask: 'tasks/cancel',
  resubscribe: 'tasks/resubscribe',
} as const;

/**
 * Error codes: the JSON-RPC standard ones (-32700 … -32603) and the A2A-specific ones
 * (-32001 … -32007).
 */
export const A2aErrorCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  pushNotificationNotSupported: -32003,
  unsupportedOperation: -32004,
  contentTypeNotSupported: -32005,
  invalidAgentResponse: -32006,
  authenticatedExtendedCardNotConfigured: -32007,
} as const;
