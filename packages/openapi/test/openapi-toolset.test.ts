import { fileURLToPath } from 'node:url';

import {
  credentialResponse,
  InMemoryCredentialService,
  InMemorySessionService,
  LlmAgent,
  REQUEST_CREDENTIAL_FUNCTION_NAME,
  Runner,
  userContent,
  type CredentialRequestArgs,
  type Event,
  type FunctionCall,
  type ToolContext,
} from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { OpenApiSpecError, OpenApiToolset, type OpenApiToolsetOptions } from '../src';
import { startPetShop, type SeenRequest } from './pet-shop-server';

const spec = fileURLToPath(new URL('./fixtures/petstore.yaml', import.meta.url));
let shop: Awaited<ReturnType<typeof startPetShop>>;

beforeAll(async () => {
  shop = await startPetShop();
});
afterAll(() => shop.close());

function toolset(options: Partial<OpenApiToolsetOptions> = {}): Promise<OpenApiToolset> {
  return OpenApiToolset.load({ spec, baseUrl: `${shop.url}/api/v3`, ...options });
}

/** One turn in which the model makes `calls`, then answers; returns the tools' responses. */
async function callTools(
  tools: OpenApiToolset,
  calls: FunctionCall[],
  runner?: { sessionService: InMemorySessionService; credentialService: InMemoryCredentialService },
): Promise<{ responses: unknown[]; events: Event[] }> {
  const model = new FakeModel([{ functionCalls: calls }, 'done', 'done again']);
  const agent = new LlmAgent({ name: 'pets', model, tools: [tools] });
  const run = new Runner({ appName: 'shop', agent, autoCreateSession: true, ...runner });
  const events: Event[] = [];
  for await (const event of run.run({
    userId: 'u',
    sessionId: 's',
    newMessage: userContent('go'),
  })) {
    events.push(event);
  }
  const responses = events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) =>
      part.functionResponse ? [part.functionResponse.response] : [],
    ),
  );
  return { responses, events };
}

function lastSeen(): SeenRequest {
  return shop.seen.at(-1)!;
}

describe('OpenApiToolset: the document', () => {
  it('makes one tool per operation, named in snake_case, with parameters from the schema', async () => {
    const tools = await toolset();
    const all = await tools.getTools();
    expect(all.map((tool) => tool.name)).toEqual([
      'find_pets_by_status',
      'add_pet',
      'get_pet_by_id',
      'update_pet_with_form',
      'delete_pet',
      'get_inventory',
    ]);
    const find = all[0]!.declaration()!;
    expect(find.description).toBe('Finds pets by status. Several tags may be given.');
    expect(find.parameters).toEqual({
      type: 'object',
      properties: {
        status: {
          type: 'string',
          enum: ['available', 'pending', 'sold'],
          description: 'The status of the pets to list.',
        },
        tags: { type: 'array', items: { type: 'string' } },
        limit: { type: 'integer', minimum: 1, maximum: 50 },
      },
      required: ['status'],
    });
    // The JSON body's properties become arguments (readOnly ones left out); a circular schema
    // from another file is cut where it recurs.
    const add = (await tools.getTool('addPet'))!.declaration()!;
    const properties = (add.parameters as { properties: Record<string, unknown> }).properties;
    expect(Object.keys(properties)).toEqual(['name', 'category', 'photo_urls', 'status']);
    expect((add.parameters as { required: string[] }).required).toEqual(['name', 'photo_urls']);
    expect(properties.category).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' }, parent: { type: 'object' } },
    });
    expect(() => JSON.stringify(add)).not.toThrow();
  });

  it('loads from a URL, resolving $refs and relative servers against it', async () => {
    const tools = await OpenApiToolset.load({ spec: `${shop.url}/openapi/one-file.yaml` });
    const [find] = await tools.getTools();
    expect(find!.declaration()!.parameters).toMatchObject({
      properties: { status: { enum: ['available', 'pending', 'sold'] } },
      required: ['status'],
    });
    // servers: [{ url: /api/v3 }], relative to the document's URL.
    const { responses } = await callTools(tools, [
      { name: 'find_pets_by_status', args: { status: 'sold' } },
    ]);
    expect(responses[0]).toEqual({
      result: [{ id: 2, name: 'Tom', photoUrls: [], status: 'sold' }],
    });
    expect(lastSeen().path).toBe('/api/v3/pets');
  });

  it('refuses an invalid document, Swagger 2.0 and relative servers without baseUrl', async () => {
    const invalid = await OpenApiToolset.load({
      spec: {
        openapi: '3.0.3',
        info: { title: 'x' },
        paths: { '/a': { get: { responses: 'no' } } },
      },
    }).catch((error: unknown) => error);
    expect(OpenApiSpecError.isInstance(invalid)).toBe(true);
    expect((invalid as OpenApiSpecError).problems.length).toBeGreaterThan(0);

    await expect(
      OpenApiToolset.load({
        spec: { swagger: '2.0', info: { title: 'x', version: '1' }, paths: {} },
        validate: false,
      }),
    ).rejects.toThrow(/only OpenAPI 3\.0 and 3\.1 are supported/);

    await expect(
      OpenApiToolset.load({
        spec: {
          openapi: '3.1.0',
          info: { title: 'x', version: '1' },
          servers: [{ url: '/v1' }],
          paths: {
            '/a': { get: { operationId: 'getA', responses: { '200': { description: 'ok' } } } },
          },
        },
      }),
    ).rejects.toThrow(
      /operation "get_a" has no absolute server URL \("\/v1"\); give the toolset a baseUrl/,
    );

    await expect(OpenApiToolset.load({ spec: './no-such-file.yaml' })).rejects.toThrow(
      OpenApiSpecError,
    );
  });
});

describe('OpenApiToolset: calls against a real server', () => {
  it('serialises query arrays, path parameters and JSON bodies, and returns the parsed response', async () => {
    const tools = await toolset({
      credentials: {
        api_key: { authType: 'apiKey', apiKey: 'secret-key' },
        petstore_auth: { authType: 'oauth2', oauth2: { accessToken: 'oauth-token' } },
      },
    });
    const { responses } = await callTools(tools, [
      { name: 'find_pets_by_status', args: { status: 'available', tags: ['a', 'b c'] } },
    ]);
    // A JSON array comes back as core wraps any non-object tool result: `{ result }`.
    expect(responses[0]).toEqual({
      result: [{ id: 1, name: 'Rex', photoUrls: [], status: 'available' }],
    });
    expect(lastSeen().query.toString()).toBe('status=available&tags=a&tags=b+c');
    expect(lastSeen().headers.api_key).toBeUndefined(); // security: [] on this operation

    const added = await callTools(tools, [
      { name: 'add_pet', args: { name: 'Kit', photo_urls: ['p.png'], status: 'pending' } },
    ]);
    expect(added.responses[0]).toMatchObject({ name: 'Kit', photoUrls: ['p.png'], id: 3 });
    expect(lastSeen().headers['content-type']).toBe('application/json');
    expect(JSON.parse(lastSeen().body)).toEqual({
      name: 'Kit',
      photoUrls: ['p.png'],
      status: 'pending',
    });
    expect(lastSeen().headers.authorization).toBe('Bearer oauth-token');

    const got = await callTools(tools, [{ name: 'get_pet_by_id', args: { pet_id: 3 } }]);
    expect(lastSeen().path).toBe('/api/v3/pets/3');
    expect(got.responses[0]).toMatchObject({ id: 3, name: 'Kit' });
  });

  it('sends form bodies, headers, bearer and basic credentials', async () => {
    const tools = await toolset({
      credentials: {
        bearer: {
          authType: 'http',
          http: { scheme: 'bearer', credentials: { token: 'bearer-token' } },
        },
        basic: {
          authType: 'http',
          http: { scheme: 'basic', credentials: { username: 'clerk', password: 'hunter2' } },
        },
      },
    });
    const { responses } = await callTools(tools, [
      {
        name: 'update_pet_with_form',
        args: { pet_id: 2, name: 'Tom & Jerry', status: 'available' },
      },
    ]);
    expect(lastSeen().headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(lastSeen().body).toBe('name=Tom+%26+Jerry&status=available');
    expect(responses[0]).toMatchObject({ id: 2, name: 'Tom & Jerry', status: 'available' });

    // get_inventory accepts api_key or basic: only basic is given, so basic is used.
    const inventory = await callTools(tools, [{ name: 'get_inventory', args: {} }]);
    expect(lastSeen().headers.authorization).toBe(
      `Basic ${Buffer.from('clerk:hunter2').toString('base64')}`,
    );
    expect(inventory.responses[0]).toMatchObject({ available: expect.any(Number) });
  });

  it('validates arguments before any request and reports HTTP errors to the model', async () => {
    const tools = await toolset({
      credentials: { api_key: { authType: 'apiKey', apiKey: 'secret-key' } },
    });
    const before = shop.seen.length;
    const { responses } = await callTools(tools, [
      { name: 'find_pets_by_status', args: { status: 'lost', limit: 500 } },
      { name: 'get_pet_by_id', args: {} },
    ]);
    expect(shop.seen.length).toBe(before);
    expect(responses[0]).toMatchObject({
      error: {
        code: 'INVALID_TOOL_ARGUMENTS',
        issues: [
          { path: 'status', message: expect.stringContaining('expected one of') },
          { path: 'limit', message: 'must be <= 50' },
        ],
      },
    });
    expect(responses[1]).toMatchObject({ error: { code: 'INVALID_TOOL_ARGUMENTS' } });

    const missing = await callTools(tools, [{ name: 'get_pet_by_id', args: { pet_id: 99 } }]);
    expect(missing.responses[0]).toEqual({
      error: {
        code: 'HTTP_ERROR',
        status: 404,
        message: 'GET /api/v3/pets/99 answered 404 Not Found',
        body: { message: 'no pet 99' },
      },
    });
    const deleted = await callTools(tools, [
      { name: 'delete_pet', args: { pet_id: 1, x_reason: 'adopted' } },
    ]);
    expect(lastSeen().headers['x-reason']).toBe('adopted');
    expect(deleted.responses[0]).toEqual({ status: 204 });
  });

  it("asks the user for a missing credential through core's credential flow, then calls", async () => {
    const tools = await toolset();
    const stores = {
      sessionService: new InMemorySessionService(),
      credentialService: new InMemoryCredentialService(),
    };
    const before = shop.seen.length;
    const first = await callTools(
      tools,
      [{ name: 'get_pet_by_id', args: { pet_id: 2 }, id: 'c1' }],
      stores,
    );
    expect(shop.seen.length).toBe(before);
    const request = first.events
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => part.functionCall?.name === REQUEST_CREDENTIAL_FUNCTION_NAME)!.functionCall!;
    const args = request.args as unknown as CredentialRequestArgs;
    expect(args.authConfig.authScheme).toMatchObject({
      type: 'apiKey',
      name: 'api_key',
      in: 'header',
    });

    const answer = credentialResponse(request.id!, {
      ...args.authConfig,
      exchangedAuthCredential: { authType: 'apiKey', apiKey: 'secret-key' },
    });
    const model = new FakeModel(['Tom is here.']);
    const agent = new LlmAgent({ name: 'pets', model, tools: [tools] });
    const runner = new Runner({ appName: 'shop', agent, ...stores });
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: answer })) {
      events.push(event);
    }
    const rerun = events
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => part.functionResponse?.name === 'get_pet_by_id');
    expect(rerun?.functionResponse?.response).toMatchObject({ id: 2, name: expect.any(String) });
    expect(lastSeen().headers.api_key).toBe('secret-key');
  });
});

// Keeps the unused-type import honest for readers: tools receive a ToolContext.
export type { ToolContext };
