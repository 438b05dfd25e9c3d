import type { FrameworkId, HarnessFactory } from './framework';

/** Import one framework's adapter only when it is benchmarked (each worker loads exactly one). */
export async function loadHarnessFactory(id: FrameworkId): Promise<HarnessFactory> {
  switch (id) {
    case 'adk-ts':
      return (await import('./adk-ts')).createAdkTsHarness;
    case 'google-adk':
      return (await import('./google-adk')).createGoogleAdkHarness;
    case 'floor':
      return (await import('./floor')).createFloorHarness;
    case 'contract-floor':
      return (await import('./contract-floor')).createContractFloorHarness;
  }
}

/** Every benchmarked framework, ours first, the two floors last. */
export const FRAMEWORKS: readonly FrameworkId[] = [
  'adk-ts',
  'google-adk',
  'floor',
  'contract-floor',
];
