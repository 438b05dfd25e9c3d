/** The package manager whose lockfile the image installs from. */
export type PackageManager = 'npm' | 'pnpm';

/** What the files of `adk deploy docker` are written for. */
export interface DockerDeploymentOptions {
  /** Name of the compose project and of the image (`<name>-adk`). */
  name: string;
  /** Folder of agents, relative to the project root (as given to `adk api_server`). */
  agentsDir: string;
  /** Path from the output folder to the project root (the build context), POSIX style. */
  contextDir: string;
  /** Path from the project root to the output folder, POSIX style (where the Dockerfile is). */
  outDir: string;
  packageManager: PackageManager;
  /** Files of the project root copied before the install (lockfile, `.npmrc`, workspace file). */
  installFiles: readonly string[];
  /** Node image tag, e.g. `24.9.0-bookworm-slim`. */
  nodeImageTag: string;
  /** Server replicas behind HAProxy. */
  replicas: number;
  /** Seconds a draining server gives its runs (`--shutdown-timeout`). */
  shutdownTimeoutSeconds: number;
  /** Port the servers listen on inside their containers. */
  port: number;
}

/** The Node LTS image the Dockerfile pins by default (Node 24, "Krypton", Debian bookworm, slim). */
export const DEFAULT_NODE_IMAGE_TAG = '24.9.0-bookworm-slim';

/** pnpm version the image installs (`npm install -g`: corepack needs signing keys the build may lack). */
export const PNPM_VERSION = '10.34.9';

/** Seconds between a container's SIGTERM and its SIGKILL, over the drain deadline. */
export const STOP_GRACE_MARGIN_SECONDS = 10;
