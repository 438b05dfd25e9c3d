import { describe, expect, it } from 'vitest';

import { StreamAggregator } from './stream-aggregator';

describe('StreamAggregator', () => {
  it('joins text deltas, keeps thoughts apart and other parts in order', () => {
    const aggregator = new StreamAggregator();
    aggregator.add({
      content: { role: 'model', parts: [{ text: 'Let me ', thought: true }] },
      partial: true,
    });
    aggregator.add({
      content: { role: 'model', parts: [{ text: 'think', thought: true }] },
      partial: true,
    });
    aggregator.add({ content: { role: 'model', parts: [{ text: 'It is ' }] }, partial: true });
    aggregator.add({ content: { role: 'model', parts: [{ text: 'sunny.' }] }, partial: true });
    aggregator.add({
      content: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'f', args: {} } }] },
    });
    aggregator.add({ usageMetadata: { totalTokenCount: 3 }, finishReason: 'STOP', partial: true });
    expect(aggregator.final()).toEqual({
      content: {
        role: 'model',
        parts: [
          { text: 'Let me think', thought: true },
          { text: 'It is sunny.' },
          { functionCall: { id: 'c1', name: 'f', args: {} } },
        ],
      },
      usageMetadata: { totalTokenCount: 3 },
      finishReason: 'STOP',
      partial: false,
      turnComplete: true,
    });
  });

  it('never produces an empty parts array', () => {
    const aggregator = new StreamAggregator();
    aggregator.add({ usageMetadata: { promptTokenCount: 1 } });
    expect(aggregator.hasContent).toBe(false);
    expect(aggregator.final().content).toBeUndefined();
  });

  it('does not let later deltas change a final it already returned', () => {
    const aggregator = new StreamAggregator();
    aggregator.add({ content: { parts: [{ text: 'a' }] } });
    const first = aggregator.final();
    aggregator.add({ content: { parts: [{ text: 'b' }] } });
    expect(first.content?.parts).toEqual([{ text: 'a' }]);
    expect(aggregator.final().content?.parts).toEqual([{ text: 'ab' }]);
  });
});
