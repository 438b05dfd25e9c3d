import type { InvocationContext } from '../../invocation/invocation-context';
import { InvocationCallbackContext } from '../../context';
import { createEventActions } from '../../events';
import type { FunctionDeclaration, LlmRequest } from '../../models';
import { mutableContents } from '../../history/contents-cache';
import type { Tool } from '../../tools/tool';
import type { RequestProcessor } from './types';

/**
 * The tools' declarations (`config.tools`), then each tool's own `processRequest` hook (which may
 * add instructions or settings) on a copy of the request. Hooks receive a `CallbackContext`
 * (typed as `ReadonlyContext`) so they can read artifacts and search memory.
 */
export const toolsProcessor: RequestProcessor = {
  name: 'tools',
  process(request, { tools, invocationContext }) {
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
    // Without request hooks the request is ready now (no await).
    if (!tools.some((tool) => tool.processRequest)) return next;
    return runRequestHooks(next, tools, invocationContext);
  },
};

async function runRequestHooks(
  next: LlmRequest,
  tools: readonly Tool[],
  invocationContext: InvocationContext,
): Promise<LlmRequest> {
  const copy: LlmRequest = {
    ...next,
    // Hooks may change the request in place; the built contents are frozen and shared.
    contents: mutableContents(next.contents),
    config: { ...next.config },
  };
  // Hooks get a context that can also read artifacts and memory (load_artifacts, preload_memory);
  // its actions are throwaway: a request hook never changes state.
  const hookContext = new InvocationCallbackContext(invocationContext, createEventActions());
  for (const tool of tools) if (tool.processRequest) await tool.processRequest(hookContext, copy);
  // What hooks append stays after the static prefix; a hook that rewrote the instruction leaves
  // no known prefix.
  const known = copy.staticInstruction;
  if (known !== undefined && !(copy.systemInstruction ?? '').startsWith(known)) {
    delete copy.staticInstruction;
  }
  return copy;
}
