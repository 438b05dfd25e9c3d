export { openArtifactStore, type OpenedArtifactStore } from './artifact-store';
export { defaultArtifactsDir } from './default-locations';
export { openMemoryStore, type OpenedMemoryStore } from './memory-store';
