import { identityInstruction } from '../../instructions/compile-instruction';
import { appendInstruction, type RequestProcessor } from './types';

/** The agent's identity line, `You are <name>. <description>`, in the system instruction. */
export const identityProcessor: RequestProcessor = {
  name: 'identity',
  process(request, { agent }) {
    return appendInstruction(request, identityInstruction(agent.name, agent.description));
  },
};
