import { describe, expect, it } from 'vitest';

import { RealtimeEventMapper } from '../src/realtime';

const mapper = (now = () => 0) =>
  new RealtimeEventMapper({ outputTranscription: true, interrupts: true, now });

describe('RealtimeEventMapper', () => {
  it('gives the whole transcript in the finished chunk when no delta came (whisper-1)', () => {
    const m = mapper();
    expect(
      m.map({
        type: 'conversation.item.input_audio_transcription.completed',
        item_id: 'i1',
        transcript: 'Hello there.',
      }).responses,
    ).toEqual([{ inputTranscription: { text: 'Hello there.', finished: true } }]);
  });

  it('sends only what the deltas did not bring, per item', () => {
    const m = mapper();
    m.map({ type: 'response.output_audio_transcript.delta', item_id: 'a', delta: 'Hi ' });
    m.map({ type: 'response.output_audio_transcript.delta', item_id: 'b', delta: 'Other' });
    const done = m.map({
      type: 'response.output_audio_transcript.done',
      item_id: 'a',
      transcript: 'Hi you.',
    });
    expect(done.responses).toEqual([{ outputTranscription: { text: 'you.', finished: true } }]);
  });

  it('reports a malformed function call as an error response, not a call', () => {
    const m = mapper();
    const mapped = m.map({
      type: 'response.function_call_arguments.done',
      call_id: 'c1',
      name: 'lookup',
      arguments: '{"q": ',
    });
    expect(mapped.responses[0]).toMatchObject({
      errorCode: 'MALFORMED_FUNCTION_CALL',
      finishReason: 'MALFORMED_FUNCTION_CALL',
    });
    expect(m.pendingCalls.size).toBe(0);
  });

  it('maps failed and cut-short responses', () => {
    const m = mapper();
    expect(
      m.map({
        type: 'response.done',
        response: {
          id: 'r1',
          status: 'failed',
          status_details: { error: { type: 'server_error', code: 'oops' } },
        },
      }).responses,
    ).toEqual([
      {
        turnComplete: true,
        errorCode: 'oops',
        errorMessage: 'OpenAI Realtime response failed (server_error).',
      },
    ]);
    expect(
      m.map({
        type: 'response.done',
        response: {
          id: 'r2',
          status: 'incomplete',
          status_details: { reason: 'max_output_tokens' },
        },
      }).responses,
    ).toEqual([{ turnComplete: true, finishReason: 'MAX_TOKENS' }]);
  });

  it('keeps a finished answer interruptible while its audio still plays', () => {
    let clock = 1_000;
    const m = mapper(() => clock);
    m.map({ type: 'response.created', response: { id: 'r1' } });
    // 500 ms of audio arrives at once; the response is done long before it has played.
    m.map({
      type: 'response.output_audio.delta',
      response_id: 'r1',
      item_id: 'item1',
      content_index: 0,
      delta: Buffer.alloc(500 * 48).toString('base64'),
    });
    m.map({ type: 'response.done', response: { id: 'r1', status: 'completed' } });
    clock += 200;
    const cut = m.map({ type: 'input_audio_buffer.speech_started' });
    expect(cut.responses).toEqual([{ interrupted: true }]);
    expect(cut.send).toEqual([
      { type: 'conversation.item.truncate', item_id: 'item1', content_index: 0, audio_end_ms: 200 },
    ]);
    // Nothing is playing any more: a second barge-in does nothing.
    expect(m.map({ type: 'input_audio_buffer.speech_started' })).toEqual({
      responses: [],
      send: [],
    });
  });
});
