import type { ConformanceRequestView } from '@adk/core/testing/vitest';

import type { RecordedRequest } from '../types';

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

function emptyView(): ConformanceRequestView {
  return {
    systemInstruction: undefined,
    userTexts: [],
    toolCalls: [],
    toolResults: [],
    toolNames: [],
  };
}

/** Decodes a recorded Gemini `generateContent` request into the neutral conformance view. */
export function describeGeminiRequest(request: RecordedRequest): ConformanceRequestView {
  const body = request.body as Json;
  const view = emptyView();
  const system = body.systemInstruction as Json | undefined;
  if (system)
    view.systemInstruction = list(system.parts)
      .map((p) => text(p.text) ?? '')
      .join('');
  for (const content of list(body.contents)) {
    for (const part of list(content.parts)) {
      if (content.role === 'user' && typeof part.text === 'string') view.userTexts.push(part.text);
      const call = part.functionCall as Json | undefined;
      if (call)
        view.toolCalls.push({
          id: text(call.id),
          name: String(call.name),
          args: (call.args ?? {}) as Json,
        });
      const result = part.functionResponse as Json | undefined;
      if (result)
        view.toolResults.push({
          id: text(result.id),
          name: text(result.name),
          response: result.response,
        });
    }
  }
  view.toolNames = list(body.tools).flatMap((tool) =>
    list(tool.functionDeclarations).map((d) => String(d.name)),
  );
  return view;
}

/** Decodes a recorded Anthropic Messages request into the neutral conformance view. */
export function describeAnthropicRequest(request: RecordedRequest): ConformanceRequestView {
  const body = request.body as Json;
  const view = emptyView();
  if (typeof body.system === 'string') view.systemInstruction = body.system;
  else if (Array.isArray(body.system))
    view.systemInstruction = list(body.system)
      .map((b) => text(b.text) ?? '')
      .join('');
  for (const message of list(body.messages)) {
    const blocks =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : list(message.content);
    for (const block of blocks) {
      if (message.role === 'user' && block.type === 'text') view.userTexts.push(String(block.text));
      if (block.type === 'tool_use') {
        view.toolCalls.push({
          id: text(block.id),
          name: String(block.name),
          args: (block.input ?? {}) as Json,
        });
      }
      if (block.type === 'tool_result') {
        const content = block.content;
        let response: unknown = content;
        const raw =
          typeof content === 'string'
            ? content
            : list(content)
                .map((c) => text(c.text) ?? '')
                .join('');
        try {
          response = JSON.parse(raw);
        } catch {
          response = raw;
        }
        view.toolResults.push({ id: text(block.tool_use_id), name: undefined, response });
      }
    }
  }
  view.toolNames = list(body.tools).map((tool) => String(tool.name));
  return view;
}

/** Decodes a recorded Chat Completions request into the neutral conformance view. */
export function describeOpenAIRequest(request: RecordedRequest): ConformanceRequestView {
  const body = request.body as Json;
  const view = emptyView();
  for (const message of list(body.messages)) {
    const content =
      typeof message.content === 'string'
        ? message.content
        : list(message.content)
            .map((c) => text(c.text) ?? '')
            .join('');
    if (message.role === 'system' || message.role === 'developer') {
      view.systemInstruction = (view.systemInstruction ?? '') + content;
    } else if (message.role === 'user') {
      view.userTexts.push(content);
    } else if (message.role === 'assistant') {
      for (const call of list(message.tool_calls)) {
        const fn = call.function as Json;
        view.toolCalls.push({
          id: text(call.id),
          name: String(fn.name),
          args: JSON.parse(String(fn.arguments)) as Json,
        });
      }
    } else if (message.role === 'tool') {
      let response: unknown = content;
      try {
        response = JSON.parse(content);
      } catch {
        // keep the text
      }
      view.toolResults.push({ id: text(message.tool_call_id), name: text(message.name), response });
    }
  }
  view.toolNames = list(body.tools).map((tool) => String((tool.function as Json).name));
  return view;
}
