import { describe, expect, it } from 'vitest';

import { LiveResponseReader, parseDurationMs } from './live-response-reader';

describe('LiveResponseReader', () => {
  it('gives thought and answer text back whole, separately, when the kind of text changes', () => {
    const reader = new LiveResponseReader();
    const out = [
      ...reader.read({
        serverContent: { modelTurn: { parts: [{ text: 'Think', thought: true }] } },
      }),
      ...reader.read({
        serverContent: { modelTurn: { parts: [{ text: 'ing.', thought: true }] } },
      }),
      ...reader.read({ serverContent: { modelTurn: { parts: [{ text: 'Answer.' }] } } }),
      ...reader.read({ serverContent: { turnComplete: true } }),
    ];
    expect(out.filter((r) => !r.partial && r.content).map((r) => r.content!.parts)).toEqual([
      [{ text: 'Thinking.', thought: true }],
      [{ text: 'Answer.' }],
    ]);
    expect(out.at(-1)).toEqual({ turnComplete: true });
  });

  it('flushes the text before a tool call, and yields the call with a client id when it has none', () => {
    const reader = new LiveResponseReader();
    reader.read({ serverContent: { modelTurn: { parts: [{ text: 'Let me check.' }] } } });
    const out = reader.read({ toolCall: { functionCalls: [{ name: 'lookup', args: { q: 1 } }] } });
    expect(out[0]).toEqual({ content: { role: 'model', parts: [{ text: 'Let me check.' }] } });
    const call = out[1]!.content!.parts[0]!.functionCall!;
    expect(call).toMatchObject({ name: 'lookup', args: { q: 1 } });
    expect(call.id).toMatch(/^adk-/);
  });

  it('usage without turnComplete stands alone; with it, rides on the turnComplete response', () => {
    const reader = new LiveResponseReader();
    expect(reader.read({ usageMetadata: { promptTokenCount: 3, responseTokenCount: 4 } })).toEqual([
      { usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 4 } },
    ]);
    expect(
      reader.read({
        serverContent: { turnComplete: true, interrupted: true, groundingMetadata: { a: 1 } },
        usageMetadata: { totalTokenCount: 9 },
      }),
    ).toEqual([
      {
        turnComplete: true,
        interrupted: true,
        usageMetadata: { totalTokenCount: 9 },
        customMetadata: { groundingMetadata: { a: 1 } },
      },
    ]);
  });

  it('closes a transcription at generationComplete when the service sent no finished flag', () => {
    const reader = new LiveResponseReader();
    reader.read({ serverContent: { outputTranscription: { text: 'Hello ' } } });
    reader.read({ serverContent: { outputTranscription: { text: 'there.' } } });
    expect(reader.read({ serverContent: { generationComplete: true } })).toEqual([
      { outputTranscription: { text: 'Hello there.', finished: true } },
    ]);
    expect(reader.read({ serverContent: { turnComplete: true } })).toEqual([
      { turnComplete: true },
    ]);
  });

  it('ignores messages it has no field for (setupComplete, empty updates)', () => {
    const reader = new LiveResponseReader();
    expect(reader.read({ setupComplete: {} })).toEqual([]);
    expect(reader.read({ sessionResumptionUpdate: {} })).toEqual([]);
    expect(reader.read({ goAway: {} })).toEqual([{ goAway: {} }]);
  });

  it('reads protobuf durations', () => {
    expect(parseDurationMs('10s')).toBe(10_000);
    expect(parseDurationMs('0.25s')).toBe(250);
    expect(parseDurationMs('soon')).toBeUndefined();
    expect(parseDurationMs(undefined)).toBeUndefined();
  });
});
