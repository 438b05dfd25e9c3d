export { renderComposeFile, renderEnvExample } from './compose-file';
export {
  DEFAULT_NODE_IMAGE_TAG,
  PNPM_VERSION,
  type DockerDeploymentOptions,
  type PackageManager,
} from './docker-deployment-options';
export { renderDockerfile, renderDockerignore } from './dockerfile';
export {
  renderHaproxyConfig,
  type HaproxyConfigOptions,
  type HaproxyServers,
} from './haproxy-config';
export {
  writeDockerDeployment,
  type WriteDockerDeploymentOptions,
  type WrittenDockerDeployment,
} from './write-docker-deployment';
