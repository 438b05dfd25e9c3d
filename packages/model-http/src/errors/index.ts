export { CircuitOpenError } from './circuit-open-error';
export { MissingApiKeyError } from './missing-api-key-error';
export { ModelApiError, type ModelApiErrorOptions } from './model-api-error';
export { ModelConnectionError } from './model-connection-error';
export { ModelStreamError, type ModelStreamErrorKind } from './model-stream-error';
export { ModelTimeoutError } from './model-timeout-error';
