export { defineProvider, type CallableModelProvider } from './define-provider';
export {
  CLIENT_FUNCTION_CALL_ID_PREFIX,
  isClientFunctionCallId,
  newFunctionCallId,
} from './function-call-id';
export { FunctionCallIdPairing } from './function-call-id-pairing';
