export {
  LOAD_MEMORY_TOOL_NAME,
  LoadMemoryTool,
  loadMemoryTool,
  type LoadedMemory,
} from './load-memory-tool';
export {
  PRELOAD_MEMORY_TOOL_NAME,
  PreloadMemoryTool,
  preloadMemoryTool,
} from './preload-memory-tool';
