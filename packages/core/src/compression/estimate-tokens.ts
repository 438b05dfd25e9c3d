import type { Content, Part } from '../content';
import type { HistoryItem } from '../history/index';

/** Tokens counted for a media part (image, audio, file reference), whatever its size. */
export const MEDIA_PART_TOKENS = 258;

function partChars(part: Part): number {
  let chars = part.text?.length ?? 0;
  if (part.functionCall)
    chars += part.functionCall.name.length + JSON.stringify(part.functionCall.args ?? {}).length;
  if (part.functionResponse) {
    chars +=
      part.functionResponse.name.length + JSON.stringify(part.functionResponse.response).length;
  }
  return chars;
}

/**
 * A fast, provider-independent token estimate: characters divided by four (text, tool names and
 * JSON arguments/results), plus {@link MEDIA_PART_TOKENS} per media part.
 */
export function estimateTokens(contents: readonly Content[]): number {
  let chars = 0;
  let media = 0;
  for (const content of contents) {
    for (const part of content.parts) {
      chars += partChars(part);
      if (part.inlineData || part.fileData) media++;
    }
  }
  return Math.ceil(chars / 4) + media * MEDIA_PART_TOKENS;
}

/** {@link estimateTokens} of one history item (an event's content, or a summary). */
export function estimateItemTokens(item: HistoryItem): number {
  const content =
    item.kind === 'compaction' ? item.compaction.compactedContent : item.event.content;
  return content ? estimateTokens([content]) : 0;
}
