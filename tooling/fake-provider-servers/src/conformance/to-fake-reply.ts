import type { ConformanceReply } from '@adk/core/testing/vitest';

import type { FakeReply } from '../types';

/** Renders a provider-neutral conformance reply as a fake-server reply. */
export function toFakeReply(reply: ConformanceReply): FakeReply {
  switch (reply.type) {
    case 'text':
      return {
        text: reply.text,
        textChunks: reply.chunks,
        ...(reply.finishReason ? { finishReason: reply.finishReason } : {}),
      };
    case 'toolCalls':
      return { toolCalls: reply.calls.map((call) => ({ name: call.name, args: call.args })) };
    case 'error':
      return { error: { status: reply.status, message: reply.message } };
    case 'hang':
      return {
        text: `${reply.text} and more`,
        textChunks: [reply.text, ' and more'],
        faults: { hangAfterDeltas: 1 },
      };
    case 'malformedToolCall':
      return { toolCalls: [{ name: reply.name, args: {}, rawArgs: reply.rawArguments }] };
    case 'cut':
      return {
        text: `${reply.text} and more`,
        textChunks: [reply.text, ' and more'],
        faults: { cutAfterDeltas: 1 },
      };
  }
}
