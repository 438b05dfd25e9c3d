import { describe, expect, it } from 'vitest';

import { LiveFrameError } from '../errors/live-frame-error';
import { parseLiveRequest } from './parse-live-request';

describe('parseLiveRequest', () => {
  it('reads the LiveRequest JSON the ADK web UI sends (snake_case) and the camelCase spelling', () => {
    expect(parseLiveRequest('{"blob":{"mime_type":"audio/pcm","data":"AQID"}}')).toEqual({
      blob: { mimeType: 'audio/pcm', data: 'AQID' },
    });
    expect(parseLiveRequest('{"blob":{"mimeType":"image/jpeg","data":"_-8="}}')).toEqual({
      blob: { mimeType: 'image/jpeg', data: '_-8=' },
    });
    expect(parseLiveRequest('{"activity_start":{}}')).toEqual({ activityStart: true });
    expect(parseLiveRequest('{"activityEnd":{}}')).toEqual({ activityEnd: true });
    expect(parseLiveRequest('{"close":true}')).toEqual({ close: true });
    // A confirmation answer, as the web UI writes function responses.
    expect(
      parseLiveRequest(
        JSON.stringify({
          content: {
            role: 'user',
            parts: [
              {
                function_response: {
                  id: 'c1',
                  name: 'adk_request_confirmation',
                  response: { confirmed: true },
                },
              },
            ],
          },
        }),
      ),
    ).toEqual({
      content: {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: 'c1',
              name: 'adk_request_confirmation',
              response: { confirmed: true },
            },
          },
        ],
      },
    });
    expect(parseLiveRequest('{"content":{"parts":[{"text":"hi"}]}}')).toEqual({
      content: { role: 'user', parts: [{ text: 'hi' }] },
    });
  });

  it.each([
    ['not json', 'expected JSON'],
    ['[1]', 'JSON object'],
    ['{}', 'expected one of'],
    ['{"content":{"parts":[]}}', 'non-empty parts'],
    ['{"blob":{"data":"AQID"}}', 'mime_type'],
    ['{"blob":{"mime_type":"audio/pcm","data":"not base64!"}}', 'not base64'],
  ])('refuses %s with a LiveFrameError (close code 1007)', (frame, message) => {
    let caught: unknown;
    try {
      parseLiveRequest(frame);
    } catch (error) {
      caught = error;
    }
    expect(LiveFrameError.isInstance(caught)).toBe(true);
    expect((caught as LiveFrameError).closeCode).toBe(1007);
    expect((caught as LiveFrameError).code).toBe('INVALID_LIVE_REQUEST');
    expect((caught as Error).message).toContain(message);
  });
});
