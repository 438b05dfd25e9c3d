import { describe, expect, it } from 'vitest';

import { fromStorageKeys, toCamelCase, toSnakeCase, toStorageKeys } from './key-case';

describe('event_data key case', () => {
  it('converts keys the way @google/adk does', () => {
    expect(toSnakeCase('longRunningToolIds')).toBe('long_running_tool_ids');
    expect(toCamelCase('long_running_tool_ids')).toBe('longRunningToolIds');
  });

  it('keeps user data verbatim under the preserved paths, and converts the rest', () => {
    const event = {
      invocationId: 'i',
      customMetadata: { someKey: { innerKey: 1 } },
      content: {
        parts: [{ functionCall: { name: 'f', args: { cityName: 'x', city_name: 'y' } } }],
      },
      actions: {
        stateDelta: { lastCity: 1, last_city: 2 },
        transferToAgent: 'b',
        agentState: { stepIndex: 1 },
      },
      output: { keepMe: true },
      dropped: undefined,
    };
    const stored = toStorageKeys(event);
    expect(stored).toEqual({
      invocation_id: 'i',
      custom_metadata: { someKey: { innerKey: 1 } },
      content: {
        parts: [{ function_call: { name: 'f', args: { cityName: 'x', city_name: 'y' } } }],
      },
      actions: {
        state_delta: { lastCity: 1, last_city: 2 },
        transfer_to_agent: 'b',
        agent_state: { stepIndex: 1 },
      },
      output: { keepMe: true },
    });
    const { dropped: _dropped, ...expected } = event;
    expect(fromStorageKeys(stored)).toEqual(expected);
  });
});

describe('event_data key case, hostile keys', () => {
  it('keeps "__proto__" and Object.prototype names as plain data', () => {
    const data = JSON.parse(
      '{"__proto__": {"polluted": true}, "constructor": {"to_string": 1}, "actions": {"state_delta": {"__proto__": 1}}}',
    ) as object;
    const camel = fromStorageKeys(data);
    expect(Object.getPrototypeOf(camel)).toBe(Object.prototype);
    expect((camel as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.hasOwn(camel, 'constructor')).toBe(true);
    expect(camel.constructor).toEqual({ toString: 1 });
    const delta = (camel.actions as { stateDelta: object }).stateDelta;
    expect(Object.keys(delta)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(delta)).toBe(Object.prototype);
  });
});
