export {
  LOAD_ARTIFACTS_TOOL_NAME,
  LoadArtifactsTool,
  loadArtifactsTool,
} from './load-artifacts-tool';
