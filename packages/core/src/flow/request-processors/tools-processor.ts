import type { FunctionDeclaration, LlmRequest } from '../../models';
import type { RequestProcessor } from './types';

/**
 * The tools' declarations (`config.tools`), then each tool's own `processRequest` hook (which may
 * add instructions or settings) on a copy of the request.
 */
export const toolsProcessor: RequestProcessor = {
  name: 'tools',
  async process(request, { tools, context }) {
    if (tools.length === 0) return request;
    const declarations: FunctionDeclaration[] = [];
    for (const tool of tools) {
      const declaration = tool.declaration();
      if (declaration) declarations.push(declaration);
    }
    let next: LlmRequest = request;
    if (declarations.length > 0) {
      next = {
        ...request,
        config: {
          ...request.config,
          tools: [...(request.config.tools ?? []), { functionDeclarations: declarations }],
        },
      };
    }
    if (!tools.some((tool) => tool.processRequest)) return next;
    const copy: LlmRequest = {
      ...next,
      contents: [...next.contents],
      config: { ...next.config },
    };
    for (const tool of tools) if (tool.processRequest) await tool.processRequest(context, copy);
    return copy;
  },
};
