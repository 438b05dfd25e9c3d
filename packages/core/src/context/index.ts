export type { CallbackContext, ReadonlyContext, ReadonlyState, State, ToolContext } from './types';
