import {
  BasePlugin,
  ServiceNotConfiguredError,
  type MemoryService,
  type RunHookArgs,
} from '@adk/core';

import type { BackgroundMemoryExtraction } from '../extraction/background-extraction';

/** Options of {@link MemoryIngestionPlugin}. */
export interface MemoryIngestionPluginOptions {
  /** Memory to write to; the runner's `memoryService` when omitted. */
  memoryService?: MemoryService;
  /**
   * Also extract facts from the session after every run: a job when the extraction has a job
   * store (the run does not wait for the model), inline otherwise.
   */
  extraction?: Pick<BackgroundMemoryExtraction, 'schedule'>;
}

/**
 * Adds the session to memory after every run, so later sessions of the user can recall it
 * (`preload_memory`, `load_memory`) without the app calling `addSessionToMemory` itself. Adding a
 * session again refreshes it, so each run keeps memory current.
 *
 * A failure to write memory fails the run's end with a `PluginError`; the session itself is
 * already stored and nothing is lost.
 *
 * @example
 * ```ts
 * const runner = new Runner({ appName, agent, memoryService, plugins: [new MemoryIngestionPlugin()] });
 * ```
 */
export class MemoryIngestionPlugin extends BasePlugin {
  readonly #memoryService: MemoryService | undefined;
  readonly #extraction: Pick<BackgroundMemoryExtraction, 'schedule'> | undefined;

  constructor(options: MemoryIngestionPluginOptions = {}) {
    super('memory_ingestion');
    this.#memoryService = options.memoryService;
    this.#extraction = options.extraction;
  }

  override async afterRun({ invocationContext }: RunHookArgs): Promise<void> {
    const memoryService = this.#memoryService ?? invocationContext.memoryService;
    if (!memoryService) throw new ServiceNotConfiguredError({ service: 'memoryService' });
    await memoryService.addSessionToMemory(invocationContext.session);
    await this.#extraction?.schedule(invocationContext.session);
  }
}
