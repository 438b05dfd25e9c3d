import { describe, expect, it, vi } from 'vitest';

import { TelemetrySdkMissingError } from './telemetry-sdk-missing-error';

describe('startTelemetry without @opentelemetry/sdk-node', () => {
  it('throws TelemetrySdkMissingError naming the package to install', async () => {
    vi.doMock('@opentelemetry/sdk-node', () => {
      throw Object.assign(new Error("Cannot find package '@opentelemetry/sdk-node'"), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    });
    const { startTelemetry } = await import('./start-telemetry');
    const error = await startTelemetry().catch((caught: unknown) => caught);
    expect(TelemetrySdkMissingError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'TELEMETRY_SDK_MISSING',
      packageName: '@opentelemetry/sdk-node',
    });
    expect((error as Error).message).toContain('npm install @opentelemetry/sdk-node');
    vi.doUnmock('@opentelemetry/sdk-node');
  });
});
