/**
 * Load time of an OpenAPI toolset for a 200-operation document: `@adk/openapi`'s
 * `OpenApiToolset.load` (validated against the OpenAPI schema, as by default, and without
 * validation) against `@google/adk` 2.0's `OpenAPIToolset` (`specDict`, then `getTools`), each
 * turning the same in-memory document into 200 tools. Alternating runs, medians of the runs.
 */
import { OpenApiToolset } from '@adk/openapi';
import { OpenAPIToolset } from '@google/adk';

import type { BenchRow } from './report/row';
import { elapsedMs, median } from './stats';

const OPERATIONS = 200;

/** A document with `OPERATIONS` operations (a GET and a POST per path) sharing `$ref`ed schemas. */
export function syntheticDocument(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (let index = 0; index < OPERATIONS / 2; index++) {
    paths[`/things${index}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        operationId: `getThing${index}`,
        summary: `Reads thing ${index}`,
        parameters: [
          { name: 'fields', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          { $ref: '#/components/parameters/Limit' },
        ],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
        },
      },
      post: {
        operationId: `updateThing${index}`,
        summary: `Updates thing ${index}`,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
        },
        responses: { '200': { description: 'ok' } },
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Synthetic', version: '1.0.0' },
    servers: [{ url: 'http://127.0.0.1:9/api' }],
    paths,
    components: {
      parameters: {
        Limit: { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1 } },
      },
      schemas: {
        Address: {
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
        Thing: {
          type: 'object',
          required: ['name'],
          properties: {
            id: { type: 'string', readOnly: true },
            name: { type: 'string', maxLength: 100 },
            tags: { type: 'array', items: { type: 'string' } },
            address: { $ref: '#/components/schemas/Address' },
            status: { type: 'string', enum: ['new', 'used'] },
          },
        },
      },
    },
  };
}

async function ours(document: object, validate: boolean): Promise<number> {
  const start = process.hrtime.bigint();
  const toolset = await OpenApiToolset.load({ spec: document, validate });
  const tools = await toolset.getTools();
  const ms = elapsedMs(start);
  if (tools.length !== OPERATIONS) throw new Error(`ours made ${tools.length} tools`);
  return ms;
}

async function theirs(document: object): Promise<number> {
  const start = process.hrtime.bigint();
  const toolset = new OpenAPIToolset({ specDict: structuredClone(document) as never });
  const tools = await toolset.getTools();
  const ms = elapsedMs(start);
  if (tools.length !== OPERATIONS) throw new Error(`@google/adk made ${tools.length} tools`);
  return ms;
}

/** Rows: load time with and without validation, against @google/adk. */
export async function runOpenApiBench(options: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const runs = options.quick ? 3 : 9;
  const document = syntheticDocument();
  const validated: number[] = [];
  const unvalidated: number[] = [];
  const google: number[] = [];
  await ours(document, true); // warm-up: module loading and the JIT
  await theirs(document);
  for (let run = 0; run < runs; run++) {
    validated.push(await ours(document, true));
    unvalidated.push(await ours(document, false));
    google.push(await theirs(document));
  }
  const theirsMedian = median(google);
  return [
    {
      label: `OpenAPI toolset load, ${OPERATIONS} operations, validated`,
      unit: 'ms',
      ours: median(validated),
      theirs: theirsMedian,
      better: 'lower',
      samples: { ours: validated, theirs: google },
    },
    {
      label: `OpenAPI toolset load, ${OPERATIONS} operations, validate: false`,
      unit: 'ms',
      ours: median(unvalidated),
      theirs: theirsMedian,
      better: 'lower',
      samples: { ours: unvalidated, theirs: google },
    },
  ];
}
