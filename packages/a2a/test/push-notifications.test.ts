import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { afterEach, describe, expect, it } from 'vitest';

import { A2aClient, verifyWebhookSignature, type Task } from '../src';
import { startEchoServer, userMessage } from './helpers';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

interface Delivery {
  status: number;
  body: string;
  headers: IncomingHttpHeaders;
}

/** A webhook on 127.0.0.1 that answers 503 to its first `failures` requests, then 200. */
async function receiver(failures: number) {
  const deliveries: Delivery[] = [];
  let waiters: (() => void)[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const status = deliveries.length < failures ? 503 : 200;
      deliveries.push({ status, body, headers: request.headers });
      response.writeHead(status).end();
      for (const wake of waiters) wake();
      waiters = [];
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const until = async (done: (all: Delivery[]) => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!done(deliveries)) {
      if (Date.now() > deadline)
        throw new Error(`Gave up waiting: ${deliveries.length} deliveries`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    deliveries,
    until,
  };
}

const completed = (delivery: Delivery) =>
  delivery.status === 200 && delivery.body.includes('TASK_STATE_COMPLETED');

describe('push notifications', () => {
  it('delivers every update to the webhook, signed, retried until it answers, in order', async () => {
    const hook = await receiver(2);
    const server = await startEchoServer({
      pushNotifications: { signingSecret: 's3cret', retryDelayMs: 5 },
    });
    cleanups.push(() => server.close());
    const client = await A2aClient.fromUrl(server.url);
    expect(client.card.capabilities?.pushNotifications).toBe(true);
    const task = (await client.sendMessage({
      message: userMessage('hello'),
      configuration: {
        taskPushNotificationConfig: {
          tenant: '',
          id: '',
          taskId: '',
          url: hook.url,
          token: 'client-token',
          authentication: undefined,
        },
      },
    })) as Task;
    await hook.until((all) => all.some(completed));
    const [first, second, ...rest] = hook.deliveries;
    // The first delivery failed twice and went through on the third attempt, same body.
    expect([first?.status, second?.status]).toEqual([503, 503]);
    expect(rest[0]?.body).toBe(first?.body);
    for (const delivery of hook.deliveries) {
      expect(
        verifyWebhookSignature(
          's3cret',
          delivery.body,
          delivery.headers['x-a2a-signature'] as string,
        ),
      ).toBe(true);
      expect(
        verifyWebhookSignature(
          'wrong',
          delivery.body,
          delivery.headers['x-a2a-signature'] as string,
        ),
      ).toBe(false);
      expect(delivery.headers['x-a2a-notification-token']).toBe('client-token');
      expect(delivery.body).toContain(task.id);
    }
    // In order: the completed state is the last one delivered.
    const delivered = hook.deliveries.filter((delivery) => delivery.status === 200);
    expect(completed(delivered.at(-1)!)).toBe(true);
    expect(delivered.filter(completed)).toHaveLength(1);
  });

  it('keeps configs per task: set, list, delete', async () => {
    const hook = await receiver(0);
    const server = await startEchoServer({ pushNotifications: true });
    cleanups.push(() => server.close());
    const client = await A2aClient.fromUrl(server.url);
    const task = (await client.sendMessage({ message: userMessage('approve') })) as Task;
    const saved = await client.setPushNotificationConfig({ taskId: task.id, url: hook.url });
    expect(saved.id).not.toBe('');
    expect((await client.listPushNotificationConfigs(task.id)).map((config) => config.url)).toEqual(
      [hook.url],
    );
    await client.deletePushNotificationConfig(task.id, saved.id);
    expect(await client.listPushNotificationConfigs(task.id)).toEqual([]);
  });

  it('is refused with the spec code when the server does not offer it', async () => {
    const server = await startEchoServer();
    cleanups.push(() => server.close());
    const client = await A2aClient.fromUrl(server.url);
    const task = (await client.sendMessage({ message: userMessage('hello') })) as Task;
    await expect(
      client.setPushNotificationConfig({ taskId: task.id, url: 'http://127.0.0.1:9/hook' }),
    ).rejects.toMatchObject({ rpcCode: A2A_ERROR_CODE.PUSH_NOTIFICATION_NOT_SUPPORTED });
  });
});
