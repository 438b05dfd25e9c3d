import { describe, expect, it } from 'vitest';

import { CLIENT_FUNCTION_CALL_ID_PREFIX } from './function-call-id';
import { FunctionCallIdPairing } from './function-call-id-pairing';

describe('FunctionCallIdPairing', () => {
  it('keeps the ids calls and responses already carry', () => {
    const ids = new FunctionCallIdPairing();
    expect(ids.callId({ id: 'call_1', name: 'get_weather' })).toBe('call_1');
    expect(ids.responseId({ id: 'call_1', name: 'get_weather' })).toBe('call_1');
  });

  it('invents an id for a call without one and gives it to the response that answers it', () => {
    const ids = new FunctionCallIdPairing();
    const callId = ids.callId({ name: 'get_weather' });
    expect(callId.startsWith(CLIENT_FUNCTION_CALL_ID_PREFIX)).toBe(true);
    expect(ids.callId({ id: '', name: 'other' })).not.toBe('');
    expect(ids.responseId({ name: 'get_weather' })).toBe(callId);
  });

  it('pairs id-less responses with the oldest unanswered call of the same name', () => {
    const ids = new FunctionCallIdPairing();
    ids.callId({ id: 'a1', name: 'a' });
    ids.callId({ id: 'b1', name: 'b' });
    ids.callId({ id: 'a2', name: 'a' });
    ids.callId({ id: 'a3', name: 'a' });
    // an explicit answer to a2 takes it out of the queue
    expect(ids.responseId({ id: 'a2', name: 'a' })).toBe('a2');
    expect(ids.responseId({ name: 'a' })).toBe('a1');
    expect(ids.responseId({ name: 'b' })).toBe('b1');
    expect(ids.responseId({ name: 'a' })).toBe('a3');
  });

  it('gives a response with no call to answer a new id of its own', () => {
    const ids = new FunctionCallIdPairing();
    ids.callId({ id: 'a1', name: 'a' });
    ids.responseId({ name: 'a' });
    const orphan = ids.responseId({ name: 'a' });
    const other = ids.responseId({ name: 'never_called' });
    expect(orphan.startsWith(CLIENT_FUNCTION_CALL_ID_PREFIX)).toBe(true);
    expect(other.startsWith(CLIENT_FUNCTION_CALL_ID_PREFIX)).toBe(true);
    expect(orphan).not.toBe(other);
  });
});
