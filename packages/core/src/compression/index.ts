export type { CompactionRequest, ContextCompressor } from './context-compressor';
export { estimateItemTokens, estimateTokens, MEDIA_PART_TOKENS } from './estimate-tokens';
export { SlidingWindowCompressor } from './sliding-window-compressor';
export {
  DEFAULT_SUMMARY_INSTRUCTION,
  SummarizeCompressor,
  transcriptOf,
  type SummarizeOptions,
} from './summarize-compressor';
export { TokenBudgetCompressor, type TokenBudgetOptions } from './token-budget-compressor';
export { TruncateCompressor } from './truncate-compressor';
export type { EventWindowOptions } from './window-options';
