export { artifactRoutes } from './artifact-routes';
export { debugRoutes } from './debug-routes';
export { evalRoutes } from './eval-routes';
export { memoryRoutes } from './memory-routes';
export { metaRoutes, type AppInfo } from './meta-routes';
export { loadSession, sessionRoutes } from './session-routes';
