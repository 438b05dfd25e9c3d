import type { Part } from '../content';
import type { CallbackContext, ReadonlyContext } from '../context';
import type { LlmRequest } from '../models';

/**
 * Guides how an `LlmAgent` plans and thinks (its `planner` option): before each model call the
 * planner may adjust the request and add an instruction; after it, it may rewrite the response's
 * parts (for example mark planning text as thoughts). The built-in ones are
 * {@link BuiltInPlanner} (the model's own thinking) and {@link PlanReActPlanner} (a plan written
 * in tagged text, for models without thinking).
 */
export interface Planner {
  /**
   * The request for this call, adjusted (say, a thinking config set). Returns a new request or
   * the same one; the request's contents are shared with the session and must not be changed in
   * place. Runs before {@link buildPlanningInstruction}.
   */
  processRequest?(request: LlmRequest): LlmRequest;
  /** An instruction appended to the system instruction, or `undefined` for none. */
  buildPlanningInstruction(context: ReadonlyContext, request: LlmRequest): string | undefined;
  /**
   * The parts to keep of a model response (streamed chunks included), or `undefined` to keep them
   * as they are. State changes made through `context` are saved with the response's event.
   */
  processPlanningResponse(context: CallbackContext, parts: readonly Part[]): Part[] | undefined;
}
