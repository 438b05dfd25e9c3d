import { outputSchemaInstruction } from '../../instructions/compile-instruction';
import { appendInstruction, type RequestProcessor } from './types';

/**
 * For agents with an `outputSchema`: ask for JSON (`responseMimeType: application/json`,
 * `responseSchema`) and state the schema in the system instruction, for providers without native
 * structured output.
 */
export const outputSchemaProcessor: RequestProcessor = {
  name: 'output-schema',
  process(request, { agent }) {
    const schema = agent.outputJsonSchema;
    if (!schema) return request;
    return appendInstruction(
      {
        ...request,
        config: { ...request.config, responseMimeType: 'application/json', responseSchema: schema },
      },
      outputSchemaInstruction(schema),
    );
  },
};
