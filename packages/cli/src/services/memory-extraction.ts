import { defaultModelRegistry, type Model, type Session, type SessionService } from '@adk/core';
import type { JobStore, LeasedJobStore } from '@adk/jobs';
import {
  BackgroundMemoryExtraction,
  MemoryExtractor,
  MemoryIngestionPlugin,
  type SemanticMemoryService,
} from '@adk/memory';

import { UsageError } from '../errors';
import { embeddedJobStoreUrl, openEmbeddedJobStore } from './job-store';

/** What `adk web` / `api_server` set up for `--memory_extraction_model`. */
export interface MemoryExtractionSetup {
  /** Give it to every runner: it adds each finished session to memory and schedules extraction. */
  plugin: MemoryIngestionPlugin;
  /**
   * Start extracting in the background on `jobs` (the server's job store when it leases jobs, as
   * the embedded one does; otherwise an embedded store beside the sessions is opened for it).
   */
  start(jobs: JobStore, where: { sessionServiceUri?: string; baseDir: string }): Promise<void>;
  /** Stop polling (extractions under way finish) and close a store opened for it. Idempotent. */
  close(): Promise<void>;
}

/** The model named by `--memory_extraction_model`, through the registered providers. */
export function resolveExtractionModel(model: Model | string): Model {
  if (typeof model !== 'string') return model;
  try {
    return defaultModelRegistry.resolve(model);
  } catch (error) {
    throw new UsageError(
      `--memory_extraction_model ${model}: no installed provider serves it (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

const isLeased = (jobs: JobStore): jobs is LeasedJobStore =>
  typeof (jobs as Partial<LeasedJobStore>).claim === 'function';

/**
 * Memories, not transcripts, for a served folder: after every run the session is added to memory
 * and a job asks `model` for facts about the user (`BackgroundMemoryExtraction`), polled every
 * `pollMs` in this process, so a turn never waits for the extraction model.
 */
export function prepareMemoryExtraction(options: {
  memory: SemanticMemoryService;
  model: Model;
  sessionService: SessionService;
  pollMs?: number;
}): MemoryExtractionSetup {
  let extraction: BackgroundMemoryExtraction | undefined;
  let ownStore: { close(): Promise<void> } | undefined;
  const plugin = new MemoryIngestionPlugin({
    // The runners exist before the job store does; a run ends only once the server listens.
    extraction: {
      schedule: (session: Session) => {
        if (!extraction) throw new UsageError('memory extraction is not started');
        return extraction.schedule(session);
      },
    },
  });
  return {
    plugin,
    async start(jobs, where) {
      let jobStore: LeasedJobStore;
      if (isLeased(jobs)) jobStore = jobs;
      else {
        const own = await openEmbeddedJobStore(
          embeddedJobStoreUrl(where.sessionServiceUri, where.baseDir),
        );
        ownStore = own;
        jobStore = own;
      }
      extraction = new BackgroundMemoryExtraction({
        extractor: new MemoryExtractor({ model: options.model, memory: options.memory }),
        sessionService: options.sessionService,
        jobStore,
      });
      extraction.start(options.pollMs ?? 1000);
    },
    async close() {
      await extraction?.stop();
      await ownStore?.close();
      ownStore = undefined;
    },
  };
}
