import { requestCredentials } from './credential-flow';
import { requestConfirmations } from './confirmation-flow';
import { runTransferTarget } from './transfer-to-agent-flow';
import type { StepPostprocessor } from './step-postprocessors';

/**
 * The postprocessors every `LlmAgent` runs, in order: the human-confirmation request, the
 * credential request, then the agent transfer. More can be added with {@link registerStepPostprocessor}.
 */
export const postprocessors: StepPostprocessor[] = [
  requestConfirmations,
  requestCredentials,
  runTransferTarget,
];

/** Add a postprocessor run after every step of every `LlmAgent`. Returns a function removing it. */
export function registerStepPostprocessor(postprocessor: StepPostprocessor): () => void {
  postprocessors.push(postprocessor);
  return () => {
    const index = postprocessors.indexOf(postprocessor);
    if (index >= 0) postprocessors.splice(index, 1);
  };
}
