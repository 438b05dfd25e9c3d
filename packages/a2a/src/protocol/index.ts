export * from './types';
export * from './json-rpc';
export { validateMessageSendParams, validateTaskIdParams } from './validate-params';
