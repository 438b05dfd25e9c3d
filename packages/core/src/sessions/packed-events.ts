import { deserialize, serialize } from 'node:v8';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

import type { Event } from '../events';
import { copyEventForStorage } from './append-helpers';

/**
 * The compact form in which `InMemorySessionService` keeps the events of an idle session: the
 * events in V8's structured-clone format (so every value a stored event may hold survives: `Date`,
 * `Map`, typed arrays, `undefined`), deflated against a preset dictionary, held as one one-byte
 * string (exactly its length on the heap, no separate buffer).
 *
 * The dictionary is the serialised form of a few typical events (a user message, a function call,
 * its response, a final answer, a transfer): the field names and the structure of an event are
 * then back-references, and what is left to store is mostly the ids, the timestamps and the text.
 * Four such events take about 300 bytes instead of about 2 KB as objects.
 */

const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';

/** Typical events, in the key orders the runtime produces them in. Only their bytes matter. */
function sampleEvents(): unknown[] {
  const noActions = { stateDelta: {}, artifactDelta: {}, requestedToolConfirmations: {} };
  const base = {
    id: SAMPLE_ID,
    invocationId: `e-${SAMPLE_ID}`,
    author: 'agent',
    timestamp: 1_800_000_000_000,
    actions: noActions,
  };
  return [
    {
      ...base,
      author: 'user',
      content: { role: 'user', parts: [{ text: 'Hello' }] },
    },
    {
      ...base,
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'tool', args: { query: 'x' }, id: `adk-${SAMPLE_ID}` } }],
      },
      turnComplete: true,
      finishReason: 'STOP',
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
      modelVersion: 'model',
    },
    {
      invocationId: `e-${SAMPLE_ID}`,
      author: 'agent',
      content: {
        role: 'user',
        parts: [
          { functionResponse: { id: `adk-${SAMPLE_ID}`, name: 'tool', response: { result: 'x' } } },
        ],
      },
      actions: { ...noActions, stateDelta: { key: 'value' }, transferToAgent: 'other' },
      id: SAMPLE_ID,
      timestamp: 1_800_000_000_000,
      branch: 'root.child',
    },
    {
      ...base,
      content: { role: 'model', parts: [{ text: 'Hello' }] },
      turnComplete: true,
    },
  ];
}

let dictionary: Buffer | undefined;

function presetDictionary(): Buffer {
  dictionary ??= serialize(sampleEvents());
  return dictionary;
}

/** The compact form of `events` (stored events: deep-frozen, storage-shaped). */
export function packEvents(events: readonly Event[]): string {
  return deflateRawSync(serialize(events), { dictionary: presetDictionary() }).toString('latin1');
}

/**
 * The events of a {@link packEvents} result, in the form a session store keeps them (each one a
 * deep-frozen copy, events without actions sharing one empty `actions`), equal to those packed.
 */
export function unpackEvents(packed: string): Event[] {
  const bytes = inflateRawSync(Buffer.from(packed, 'latin1'), { dictionary: presetDictionary() });
  const events = deserialize(bytes) as Event[];
  const stored = new Array<Event>(events.length);
  for (let index = 0; index < events.length; index++) {
    stored[index] = copyEventForStorage(events[index]!);
  }
  return stored;
}
