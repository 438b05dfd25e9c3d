export { DEFAULT_A2A_BASE_PATH, type AdkServerA2aOptions } from './a2a-options';
