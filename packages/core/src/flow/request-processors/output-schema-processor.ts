import { outputSchemaInstruction } from '../../instructions/compile-instruction';
import {
  offeredSetModelResponseTool,
  SET_MODEL_RESPONSE_INSTRUCTION,
} from '../set-model-response-tool';
import { appendInstruction, type RequestProcessor } from './types';

/**
 * For agents with an `outputSchema`: ask for JSON (`responseMimeType: application/json`,
 * `responseSchema`) and state the schema in the system instruction, for providers without native
 * structured output.
 *
 * When the step offers `set_model_response` (the agent has tools and its model cannot combine a
 * response schema with function calling), no response schema is sent: the instruction asks the
 * model to give its final answer through that tool, whose parameters carry the schema.
 */
export const outputSchemaProcessor: RequestProcessor = {
  name: 'output-schema',
  process(request, { agent, tools }) {
    const schema = agent.outputJsonSchema;
    if (!schema) return request;
    if (offeredSetModelResponseTool(tools)) {
      return appendInstruction(request, SET_MODEL_RESPONSE_INSTRUCTION);
    }
    return appendInstruction(
      {
        ...request,
        config: { ...request.config, responseMimeType: 'application/json', responseSchema: schema },
      },
      outputSchemaInstruction(schema),
    );
  },
};
