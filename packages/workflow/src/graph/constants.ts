/** The entry of a workflow: edges from `START` lead to the first nodes, which get the input. */
export const START = '__START__';
/** The entry written as Python ADK's edges often write it: `['START', first]` means `[START, first]`. */
export const START_NAME = 'START';

/** The type of {@link START}. */
export type Start = typeof START;

/**
 * The route of a failed node: edges with this route receive the error (`{ name, code, message,
 * causeCode?, attempts }`) as input. A failure no edge handles fails the workflow.
 */
export const ERROR_ROUTE = '__ERROR__';

/** The route taken when a node's route matches none of its routed edges. */
export const DEFAULT_ROUTE = '__DEFAULT__';
