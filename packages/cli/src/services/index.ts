export { openArtifactStore, type OpenedArtifactStore } from './artifact-store';
export { defaultArtifactsDir } from './default-locations';
export { openMemoryStore, type OpenedMemoryStore } from './memory-store';
export {
  defaultJobStoreUrl,
  openJobService,
  openJobStore,
  type JobServiceOptions,
  type OpenedJobService,
} from './job-store';
