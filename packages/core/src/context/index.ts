export type { CallbackContext, ReadonlyContext, ReadonlyState, State, ToolContext } from './types';
export {
  InvocationCallbackContext,
  InvocationReadonlyContext,
  InvocationToolContext,
  type ContextSource,
  type ResumedCredential,
} from './invocation-contexts';
export { DeltaState, ReadonlyStateView, type StateSource } from './state-view';
