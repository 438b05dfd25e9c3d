import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the pet shop received. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

interface Pet {
  id: number;
  name: string;
  photoUrls: string[];
  status: string;
  category?: unknown;
}

/**
 * The pet shop of `fixtures/petstore.yaml` as a real HTTP server on 127.0.0.1: pets in memory,
 * the document itself served at `/openapi/petstore.yaml` (with its `$ref`ed files), and the
 * security the document declares checked on each route.
 */
export async function startPetShop(): Promise<{
  url: string;
  seen: SeenRequest[];
  close: () => Promise<void>;
}> {
  const seen: SeenRequest[] = [];
  const pets = new Map<number, Pet>([
    [1, { id: 1, name: 'Rex', photoUrls: [], status: 'available' }],
    [2, { id: 2, name: 'Tom', photoUrls: [], status: 'sold' }],
  ]);
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const body = Buffer.concat(chunks).toString('utf8');
      const send = (status: number, value?: unknown): void => {
        response.writeHead(
          status,
          value === undefined ? {} : { 'content-type': 'application/json' },
        );
        response.end(value === undefined ? undefined : JSON.stringify(value));
      };
      if (url.pathname.startsWith('/openapi/')) {
        const file = new URL(
          `./fixtures/${url.pathname.slice('/openapi/'.length)}`,
          import.meta.url,
        );
        readFile(file, 'utf8').then(
          (text) => {
            response.writeHead(200, { 'content-type': 'application/yaml' });
            response.end(text);
          },
          () => send(404, { message: 'no such file' }),
        );
        return;
      }
      seen.push({
        method: request.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body,
      });
      const apiKeyOk = request.headers.api_key === 'secret-key';
      const route = `${request.method} ${url.pathname.replace(/\/\d+$/, '/{id}')}`;
      const id = Number(url.pathname.split('/').at(-1));
      switch (route) {
        case 'GET /api/v3/pets': {
          const status = url.searchParams.get('status');
          return send(
            200,
            [...pets.values()].filter((pet) => pet.status === status),
          );
        }
        case 'POST /api/v3/pets': {
          if (request.headers.authorization !== 'Bearer oauth-token')
            return send(401, { message: 'sign in' });
          const pet = { ...(JSON.parse(body) as Pet), id: pets.size + 1 };
          pets.set(pet.id, pet);
          return send(200, pet);
        }
        case 'GET /api/v3/pets/{id}':
          if (!apiKeyOk) return send(401, { message: 'api_key required' });
          return pets.has(id) ? send(200, pets.get(id)) : send(404, { message: `no pet ${id}` });
        case 'PUT /api/v3/pets/{id}': {
          if (request.headers.authorization !== 'Bearer bearer-token')
            return send(401, { message: 'token required' });
          const form = new URLSearchParams(body);
          const pet = pets.get(id);
          if (!pet) return send(404, { message: `no pet ${id}` });
          pet.name = form.get('name') ?? pet.name;
          pet.status = form.get('status') ?? pet.status;
          return send(200, pet);
        }
        case 'DELETE /api/v3/pets/{id}':
          if (!apiKeyOk) return send(401, { message: 'api_key required' });
          pets.delete(id);
          return send(204);
        case 'GET /api/v3/store/inventory': {
          const basic = `Basic ${Buffer.from('clerk:hunter2').toString('base64')}`;
          if (!apiKeyOk && request.headers.authorization !== basic)
            return send(401, { message: 'auth required' });
          const counts: Record<string, number> = {};
          for (const pet of pets.values()) counts[pet.status] = (counts[pet.status] ?? 0) + 1;
          return send(200, counts);
        }
        default:
          return send(404, { message: `no route ${route}` });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
