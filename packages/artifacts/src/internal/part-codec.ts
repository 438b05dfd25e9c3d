import { artifactMimeType, InvalidArgumentError, type Part } from '@adk/core';

/** How a part is kept in byte-oriented storage (files, SQL rows). */
export type StoredPartKind = 'text' | 'inline' | 'file';

/** A part split into bytes plus the fields needed to rebuild it exactly. */
export interface EncodedPart {
  kind: StoredPartKind;
  mimeType: string | undefined;
  displayName: string | undefined;
  fileUri: string | undefined;
  /** UTF-8 text, decoded base64 bytes, or empty for a file reference. */
  data: Buffer;
}

/** Split a (validated) part into bytes and descriptive fields. */
export function encodePart(part: Part): EncodedPart {
  if (part.text !== undefined) {
    return {
      kind: 'text',
      mimeType: 'text/plain',
      displayName: undefined,
      fileUri: undefined,
      data: Buffer.from(part.text, 'utf8'),
    };
  }
  if (part.inlineData !== undefined) {
    return {
      kind: 'inline',
      mimeType: part.inlineData.mimeType,
      displayName: part.inlineData.displayName,
      fileUri: undefined,
      data: Buffer.from(part.inlineData.data, 'base64'),
    };
  }
  if (part.fileData !== undefined) {
    return {
      kind: 'file',
      mimeType: artifactMimeType(part),
      displayName: part.fileData.displayName,
      fileUri: part.fileData.fileUri,
      data: Buffer.alloc(0),
    };
  }
  throw new InvalidArgumentError({
    message: 'Invalid artifact: nothing to store.',
    argument: 'artifact',
  });
}

/** Rebuild the part saved by {@link encodePart}. */
export function decodePart(encoded: EncodedPart): Part {
  switch (encoded.kind) {
    case 'text':
      return { text: encoded.data.toString('utf8') };
    case 'inline':
      return {
        inlineData: {
          mimeType: encoded.mimeType ?? 'application/octet-stream',
          data: encoded.data.toString('base64'),
          ...(encoded.displayName !== undefined ? { displayName: encoded.displayName } : {}),
        },
      };
    case 'file':
      return {
        fileData: {
          fileUri: encoded.fileUri ?? '',
          ...(encoded.mimeType !== undefined ? { mimeType: encoded.mimeType } : {}),
          ...(encoded.displayName !== undefined ? { displayName: encoded.displayName } : {}),
        },
      };
  }
}
