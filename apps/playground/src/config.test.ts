import { describe, expect, it } from 'vitest';

import { chooseModel, loadConfig } from './config';

describe('playground configuration', () => {
  it('defaults to a SQLite file under ./.adk and the offline demo model', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config.sessionUrl).toBe('sqlite:/srv/app/.adk/playground.db');
    expect(config.artifactsDir).toBe('/srv/app/.adk/artifacts');
    expect(config.model).toEqual({ provider: 'demo', model: 'offline-demo' });
    expect(config).toMatchObject({
      port: 8000,
      host: '127.0.0.1',
      token: undefined,
      allowOrigins: [],
      a2a: true,
      timestampUnit: 'seconds',
      queueUrl: undefined,
      inProcessWorker: false,
      baseDir: '/srv/app',
    });
    expect(loadConfig({ ADK_TIMESTAMP_UNIT: 'milliseconds' }).timestampUnit).toBe('milliseconds');
  });

  it('puts background jobs on a queue engine with ADK_QUEUE_URL', () => {
    expect(
      loadConfig({
        ADK_QUEUE_URL: ' redis://127.0.0.1:6379 ',
        ADK_QUEUE_NAMESPACE: 'pg',
        ADK_IN_PROCESS_WORKER: 'true',
      }),
    ).toMatchObject({
      queueUrl: 'redis://127.0.0.1:6379',
      queueNamespace: 'pg',
      inProcessWorker: true,
    });
  });

  it('switches the store with ADK_SESSION_URL and reads the other settings', () => {
    const config = loadConfig({
      ADK_SESSION_URL: 'postgres://postgres@127.0.0.1:5432/test',
      PORT: '9001',
      ADK_API_TOKEN: 't',
      ADK_ALLOW_ORIGINS: 'http://a.example, http://b.example',
      ADK_A2A: 'off',
    });
    expect(config).toMatchObject({
      sessionUrl: 'postgres://postgres@127.0.0.1:5432/test',
      port: 9001,
      token: 't',
      allowOrigins: ['http://a.example', 'http://b.example'],
      a2a: false,
    });
    expect(loadConfig({ ADK_A2A: '1' }).a2a).toBe(true);
  });

  it('uses the first provider that has a key, and ADK_MODEL when set', () => {
    expect(chooseModel({ GEMINI_API_KEY: 'g' })).toEqual({
      provider: 'gemini',
      model: 'gemini-2.5-flash',
      apiKey: 'g',
    });
    expect(chooseModel({ ANTHROPIC_API_KEY: 'a' })).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      apiKey: 'a',
    });
    expect(chooseModel({ OPENAI_API_KEY: 'o' })).toEqual({
      provider: 'openai',
      model: 'gpt-4o-mini',
      apiKey: 'o',
    });
    expect(chooseModel({ OPENAI_API_KEY: 'o', ADK_MODEL: 'gpt-4.1' })).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1',
    });
    expect(chooseModel({ ADK_MODEL: 'gpt-4.1' })).toEqual({
      provider: 'demo',
      model: 'offline-demo',
    });
    expect(
      chooseModel({ GEMINI_API_KEY: 'g', GEMINI_BASE_URL: 'http://127.0.0.1:9/v1beta' }),
    ).toMatchObject({
      provider: 'gemini',
      baseURL: 'http://127.0.0.1:9/v1beta',
    });
  });
});
