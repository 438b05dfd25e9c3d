import { A2aRpcError } from '../errors/a2a-rpc-error';
import { A2aErrorCode } from './json-rpc';
import type { A2aMessageSendParams, A2aPart, A2aTaskQueryParams } from './types';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(message: string): A2aRpcError {
  return new A2aRpcError({
    rpcCode: A2aErrorCode.invalidParams,
    message: `Invalid params: ${message}`,
  });
}

function optionalString(object: Json, key: string, path: string): void {
  if (object[key] !== undefined && typeof object[key] !== 'string') {
    throw invalid(`${path}.${key} must be a string.`);
  }
}

function validatePart(part: unknown, path: string): asserts part is A2aPart {
  if (!isObject(part)) throw invalid(`${path} must be an object.`);
  if (part.metadata !== undefined && !isObject(part.metadata)) {
    throw invalid(`${path}.metadata must be an object.`);
  }
  switch (part.kind) {
    case 'text':
      if (typeof part.text !== 'string') throw invalid(`${path}.text must be a string.`);
      return;
    case 'file': {
      const file = part.file;
      if (!isObject(file)) throw invalid(`${path}.file must be an object.`);
      const hasBytes = typeof file.bytes === 'string';
      const hasUri = typeof file.uri === 'string';
      if (hasBytes === hasUri) {
        throw invalid(`${path}.file must have exactly one of "bytes" (base64) or "uri".`);
      }
      optionalString(file, 'mimeType', `${path}.file`);
      optionalString(file, 'name', `${path}.file`);
      return;
    }
    case 'data':
      if (!isObject(part.data)) throw invalid(`${path}.data must be an object.`);
      return;
    default:
      throw invalid(`${path}.kind must be "text", "file" or "data".`);
  }
}

/**
 * Check the params of `message/send` and `message/stream`.
 *
 * @throws A2aRpcError (-32602, invalid params) naming the first offending field.
 */
export function validateMessageSendParams(params: unknown): A2aMessageSendParams {
  if (!isObject(params)) throw invalid('params must be an object.');
  const message = params.message;
  if (!isObject(message)) throw invalid('params.message must be an object.');
  if (message.kind !== 'message') throw invalid('params.message.kind must be "message".');
  if (typeof message.messageId !== 'string' || message.messageId === '') {
    throw invalid('params.message.messageId must be a non-empty string.');
  }
  if (message.role !== 'user') throw invalid('params.message.role must be "user".');
  if (!Array.isArray(message.parts) || message.parts.length === 0) {
    throw invalid('params.message.parts must be a non-empty array.');
  }
  message.parts.forEach((part, index) => validatePart(part, `params.message.parts[${index}]`));
  optionalString(message, 'contextId', 'params.message');
  optionalString(message, 'taskId', 'params.message');
  if (message.metadata !== undefined && !isObject(message.metadata)) {
    throw invalid('params.message.metadata must be an object.');
  }
  const configuration = params.configuration;
  if (configuration !== undefined) {
    if (!isObject(configuration)) throw invalid('params.configuration must be an object.');
    if (configuration.blocking !== undefined && typeof configuration.blocking !== 'boolean') {
      throw invalid('params.configuration.blocking must be a boolean.');
    }
    validateHistoryLength(configuration.historyLength, 'params.configuration.historyLength');
  }
  return params as unknown as A2aMessageSendParams;
}

/**
 * Check the params of `tasks/get`, `tasks/cancel` and `tasks/resubscribe`.
 *
 * @throws A2aRpcError (-32602, invalid params) when `id` is missing or not a string.
 */
export function validateTaskIdParams(params: unknown): A2aTaskQueryParams {
  if (!isObject(params)) throw invalid('params must be an object.');
  if (typeof params.id !== 'string' || params.id === '') {
    throw invalid('params.id must be a non-empty string.');
  }
  validateHistoryLength(params.historyLength, 'params.historyLength');
  return params as unknown as A2aTaskQueryParams;
}

function validateHistoryLength(value: unknown, path: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalid(`${path} must be an integer >= 0.`);
  }
}
