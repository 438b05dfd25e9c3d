import { FunctionTool, LlmAgent, Runner, type Model } from '@adk/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { lookupScript, pieceText, type CacheOrder } from '../prompt-cache-order';
import type { FakeProviderServer, FakeServerOptions } from '../types';

type Json = Record<string, unknown>;

/** What {@link promptPrefixAcceptance} needs to know about one provider. */
export interface PromptPrefixAcceptanceOptions {
  provider: string;
  startServer(options: FakeServerOptions): Promise<FakeProviderServer>;
  createModel(baseURL: string): Model;
  cacheOrder: CacheOrder;
}

/**
 * Registers (with vitest) the acceptance test of a provider package for the cache-friendly
 * request layout: an agent with a `staticInstruction` whose templated `instruction` reads state
 * that changes every turn. On the wire, the system text and the tools never change, the
 * instruction travels as user text before the new message, and everything before it is a prefix
 * of the next request.
 */
export function promptPrefixAcceptance(options: PromptPrefixAcceptanceOptions): void {
  describe(`a cache-friendly request layout, against the fake ${options.provider} server`, () => {
    it('keeps system, tools and history a growing prefix while the state changes', async () => {
      const server = await options.startServer({ script: lookupScript });
      try {
        const lookup = new FunctionTool({
          name: 'lookup',
          description: 'Looks up a fact about the hotel.',
          parameters: z.object({ topic: z.string() }),
          execute: ({ topic }) => ({ topic, answer: 'at 7' }),
        });
        const agent = new LlmAgent({
          name: 'concierge',
          model: options.createModel(server.baseURL),
          staticInstruction: 'You are the front desk of the Grand Hotel.',
          instruction: 'The guest is in room {room}.',
          tools: [lookup],
        });
        const runner = new Runner({ appName: 'prefix', agent, autoCreateSession: true });
        for (const room of [101, 102, 103]) {
          for await (const event of runner.run({
            userId: 'u',
            sessionId: 's',
            newMessage: { role: 'user', parts: [{ text: `When is breakfast? (${room})` }] },
            stateDelta: { room },
          })) {
            expect(event.errorCode).toBeUndefined();
          }
        }
        const requests = server.requests.map((request) =>
          options.cacheOrder(request.body as Json).map(pieceText),
        );
        expect(requests).toHaveLength(6);
        requests.forEach((pieces, index) => {
          const room = 101 + Math.floor(index / 2);
          const at = pieces.findIndex((piece) => piece.includes(`The guest is in room ${room}.`));
          // Not in the system text or the tools: in a turn of the conversation.
          expect(at).toBeGreaterThanOrEqual(2);
          expect(pieces.slice(0, at).join('')).not.toContain('The guest is in room');
          const next = requests[index + 1];
          if (next === undefined) return;
          // Everything before the piece holding the instruction starts the next request.
          const stable = pieces.slice(0, at);
          expect(next.slice(0, stable.length)).toEqual(stable);
        });
      } finally {
        await server.close();
      }
    });
  });
}
