import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { InvalidEventError } from '../errors/invalid-event-error';
import { createEvent, type Event } from './event';
import { createEventActions } from './event-actions';
import { isFinalResponse } from './is-final-response';
import { parseEvent } from './parse-event';

function fullEvent(): Event {
  return createEvent({
    invocationId: 'e-1',
    author: 'weather_agent',
    branch: 'root.weather_agent',
    timestamp: 1_700_000_000_123,
    content: {
      role: 'model',
      parts: [
        { text: 'thinking...', thought: true, thoughtSignature: 'c2ln' },
        { text: 'Hello' },
        { inlineData: { mimeType: 'image/png', data: 'iVBORw0K', displayName: 'a.png' } },
        { fileData: { mimeType: 'text/plain', fileUri: 'gs://b/a.txt', displayName: 'a.txt' } },
        { functionCall: { id: 'call-1', name: 'get_weather', args: { city: 'Paris', n: [1, 2] } } },
        {
          functionResponse: {
            id: 'call-0',
            name: 'lookup',
            response: { ok: true, nested: { a: null } },
          },
        },
      ],
    },
    partial: false,
    turnComplete: true,
    finishReason: 'STOP',
    usageMetadata: {
      promptTokenCount: 10,
      candidatesTokenCount: 5,
      totalTokenCount: 15,
      cachedContentTokenCount: 1,
      thoughtsTokenCount: 2,
    },
    errorCode: 'SAFETY',
    errorMessage: 'blocked',
    interrupted: false,
    modelVersion: 'fake-001',
    customMetadata: { trace: 'x' },
    longRunningToolIds: ['call-1'],
    actions: {
      stateDelta: { 'user:name': 'Ada', count: 2, obj: { deep: [1] } },
      artifactDelta: { 'report.txt': 3 },
      transferToAgent: 'helper',
      escalate: true,
      skipSummarization: true,
      requestedToolConfirmations: {
        'call-1': { hint: 'Sure?', confirmed: false, payload: { a: 1 } },
      },
      compaction: {
        startTimestamp: 1,
        endTimestamp: 2,
        compactedContent: { role: 'user', parts: [{ text: 'summary' }] },
      },
    },
  });
}

describe('event JSON', () => {
  it('round-trips an event with every field set without loss', () => {
    const event = fullEvent();
    const json = JSON.stringify(event);
    expect(parseEvent(JSON.parse(json))).toStrictEqual(event);
    // Camel-case wire names, as the official ADKs write them.
    expect(json).toContain('"invocationId"');
    expect(json).toContain('"stateDelta"');
    expect(json).toContain('"longRunningToolIds"');
  });

  it('reads an event in the wire format @google/adk writes, and writes it back unchanged', () => {
    const text = readFileSync(
      new URL('./__fixtures__/adk-js-function-call-event.json', import.meta.url),
      'utf8',
    );
    const wire = JSON.parse(text) as Record<string, unknown>;
    const event = parseEvent(wire);
    expect(event.content?.parts[1]?.functionCall).toEqual({
      id: 'adk-0b9a1f3e-3c55-4f7e-8a1c-2f4d5e6a7b8c',
      name: 'get_weather',
      args: { city: 'Paris', unit: 'celsius' },
    });
    expect(event.actions.stateDelta).toEqual({ 'user:last_city': 'Paris' });
    expect(isFinalResponse(event)).toBe(false);
    // Fields this ADK does not model (requestedAuthConfigs) survive the round trip.
    expect(JSON.parse(JSON.stringify(event))).toEqual(wire);
  });

  it('keeps unknown fields written by another ADK', () => {
    const json = { ...JSON.parse(JSON.stringify(fullEvent())), groundingMetadata: { x: 1 } };
    expect(parseEvent(json)).toMatchObject({ groundingMetadata: { x: 1 } });
  });

  it('fills missing action dictionaries and treats null optionals as absent', () => {
    const event = parseEvent({
      id: 'x',
      invocationId: 'e',
      author: 'user',
      timestamp: 1,
      branch: null,
      actions: { stateDelta: { a: null }, transferToAgent: null },
    });
    expect(event.branch).toBeUndefined();
    expect(event.actions).toEqual({
      stateDelta: { a: null },
      artifactDelta: {},
      requestedToolConfirmations: {},
    });
  });

  it.each([
    [{ invocationId: 'e', author: 'a', timestamp: 1 }, 'id'],
    [{ id: 'x', invocationId: 'e', author: 'a', timestamp: '1' }, 'timestamp'],
    [
      {
        id: 'x',
        invocationId: 'e',
        author: 'a',
        timestamp: 1,
        content: { parts: [{ functionCall: { args: {} } }] },
      },
      'content.parts.0.functionCall.name',
    ],
    [
      {
        id: 'x',
        invocationId: 'e',
        author: 'a',
        timestamp: 1,
        actions: { artifactDelta: { f: 'v1' } },
      },
      'actions.artifactDelta.f',
    ],
    ['not an event', '(root)'],
  ])('rejects %j naming the field %s', (json, field) => {
    try {
      parseEvent(json);
      expect.unreachable();
    } catch (error) {
      expect(InvalidEventError.isInstance(error)).toBe(true);
      expect((error as InvalidEventError).field).toBe(field);
      expect((error as InvalidEventError).message).toContain(field);
    }
  });
});

describe('event actions ownership', () => {
  it('gives each event its own actions, even when created from the same init', () => {
    const shared = { stateDelta: { a: 1 } };
    const a = createEvent({ invocationId: 'e', author: 'x', actions: shared });
    const b = createEvent({ invocationId: 'e', author: 'x', actions: shared });
    a.actions.stateDelta.b = 2;
    expect(b.actions.stateDelta).toEqual({ a: 1 });
    expect(shared.stateDelta).toEqual({ a: 1 });
    expect(createEventActions().stateDelta).not.toBe(createEventActions().stateDelta);
  });
});

describe('isFinalResponse', () => {
  const base = { invocationId: 'e', author: 'a' };
  it('is true for a complete text answer', () => {
    expect(
      isFinalResponse(
        createEvent({ ...base, content: { role: 'model', parts: [{ text: 'hi' }] } }),
      ),
    ).toBe(true);
  });
  it('is false for streamed chunks, function calls and function responses', () => {
    expect(
      isFinalResponse(createEvent({ ...base, partial: true, content: { parts: [{ text: 'h' }] } })),
    ).toBe(false);
    expect(
      isFinalResponse(
        createEvent({ ...base, content: { parts: [{ functionCall: { name: 'f' } }] } }),
      ),
    ).toBe(false);
    expect(
      isFinalResponse(
        createEvent({
          ...base,
          content: { parts: [{ functionResponse: { name: 'f', response: {} } }] },
        }),
      ),
    ).toBe(false);
  });
  it('is true when waiting on a long-running tool or skipping summarisation', () => {
    expect(
      isFinalResponse(
        createEvent({
          ...base,
          longRunningToolIds: ['c'],
          content: { parts: [{ functionCall: { id: 'c', name: 'f' } }] },
        }),
      ),
    ).toBe(true);
    expect(
      isFinalResponse(
        createEvent({
          ...base,
          actions: { skipSummarization: true },
          content: { parts: [{ functionResponse: { name: 'f', response: {} } }] },
        }),
      ),
    ).toBe(true);
  });
});
