import { getText, InMemorySessionService, LlmAgent, type Content, type Event } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { describe, expect, it } from 'vitest';

import { AgentNode, START, Workflow } from '../src';
import { runnerFor, turn, workflowOutput } from './helpers';

const texts = (contents: readonly Content[]) => contents.map((content) => getText(content));

async function storedEvents(sessions: InMemorySessionService): Promise<Event[]> {
  const session = await sessions.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
  return session?.events ?? [];
}

const userTexts = (events: readonly Event[]) =>
  events.filter((event) => event.author === 'user').map((event) => getText(event.content));

describe("an LlmAgent node sees what Python's single-turn node sees", () => {
  it('by default its input only: not the conversation, and the input is not stored', async () => {
    const model = new FakeModel({ responses: ['first answer', 'A summary.'] });
    const summarizer = new LlmAgent({ name: 'summarizer', model });
    const draft = (_: unknown) => 'draft: the cat sat';
    const sessions = new InMemorySessionService();
    const runner = runnerFor(
      new Workflow({ name: 'wf', edges: [[START, draft, summarizer]] }),
      sessions,
    );
    await turn(runner, 'an earlier message with a secret');
    const events = await turn(runner, 'summarize please');
    expect(workflowOutput(events)).toBe('A summary.');
    expect(texts(model.requests[1]?.contents ?? [])).toEqual(['draft: the cat sat']);
    // The session holds the user's messages only: the node's input is not a message of the user.
    expect(userTexts(await storedEvents(sessions))).toEqual([
      'an earlier message with a secret',
      'summarize please',
    ]);
  });

  it("the first node: the user's message once, in the session and in the request", async () => {
    const model = new FakeModel({ responses: ['Hi!'] });
    const greeter = new LlmAgent({ name: 'greeter', model });
    const sessions = new InMemorySessionService();
    const runner = runnerFor(new Workflow({ name: 'wf', edges: [[START, greeter]] }), sessions);
    await turn(runner, 'hello');
    expect(texts(model.requests[0]?.contents ?? [])).toEqual(['hello']);
    expect(userTexts(await storedEvents(sessions))).toEqual(['hello']);
  });

  it("configurable: includeContents 'default' shows the conversation, then the input", async () => {
    const model = new FakeModel({ responses: ['ok', 'A summary.'] });
    const summarizer = new AgentNode(new LlmAgent({ name: 'summarizer', model }), {
      includeContents: 'default',
    });
    const draft = (_: unknown) => 'draft: the cat sat';
    const sessions = new InMemorySessionService();
    const runner = runnerFor(
      new Workflow({ name: 'wf', edges: [[START, draft, summarizer]] }),
      sessions,
    );
    await turn(runner, 'first');
    await turn(runner, 'second');
    const seen = texts(model.requests[1]?.contents ?? []).join(' | ');
    expect(seen).toContain('first');
    expect(seen).toContain('second');
    expect(seen.endsWith('draft: the cat sat')).toBe(true);
    expect(userTexts(await storedEvents(sessions))).toEqual(['first', 'second']);
  });
});
