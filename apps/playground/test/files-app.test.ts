import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Event } from '@adk/core';
import { describe, expect, it } from 'vitest';

import { demoPlaygroundEachTest } from './demo-playground';
import { sseEvents } from './sse';

const demo = demoPlaygroundEachTest('adk-playground-files-');

async function turn(sessionId: string, message: object): Promise<Event[]> {
  const response = await fetch(`${demo.server.url}/run_sse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      app_name: 'files',
      user_id: 'u1',
      session_id: sessionId,
      new_message: message,
      streaming: false,
    }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return sseEvents(text);
}
const say = (text: string) => ({ role: 'user', parts: [{ text }] });
const responses = (events: Event[]) =>
  events.flatMap((e) =>
    (e.content?.parts ?? []).flatMap((p) => (p.functionResponse ? [p.functionResponse] : [])),
  );

describe('the files app (MCP filesystem server in a sandbox)', () => {
  it('lists and reads the sandbox, and writes only after a human approves', async () => {
    const created = await fetch(`${demo.server.url}/apps/files/users/u1/sessions`, {
      method: 'POST',
    });
    const sessionId = ((await created.json()) as { id: string }).id;

    const listed = responses(await turn(sessionId, say('List the directory')));
    expect(listed[0]).toMatchObject({
      name: 'list_directory',
      response: { result: expect.stringContaining('[FILE] welcome.txt') },
    });
    const read = responses(await turn(sessionId, say('Read welcome.txt')));
    expect(read[0]).toMatchObject({
      name: 'read_text_file',
      response: { result: expect.stringContaining('sandbox') },
    });

    const asked = await turn(sessionId, say('Write hello.txt'));
    const request = asked
      .flatMap((e) => e.content?.parts ?? [])
      .find((p) => p.functionCall?.name === 'adk_request_confirmation');
    expect(request?.functionCall?.args).toMatchObject({
      originalFunctionCall: { name: 'write_file' },
    });
    const target = join(demo.dir, '.adk', 'sandbox', 'hello.txt');
    expect(existsSync(target)).toBe(false);
    await turn(sessionId, {
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: request!.functionCall!.id,
            name: 'adk_request_confirmation',
            response: { confirmed: true },
          },
        },
      ],
    });
    expect(readFileSync(target, 'utf8')).toBe('Write hello.txt');
  });
});
