import type { Part } from '../api/types';
import { byId, h } from '../util/dom';

/** Files larger than this go to the artifact service instead of inline in the message. */
export const INLINE_LIMIT_BYTES = 512 * 1024;

const pending: File[] = [];

function renderChips(): void {
  byId('attachments').replaceChildren(
    ...pending.map((file, index) =>
      h(
        'span',
        { class: 'chip' },
        `${file.name} (${Math.ceil(file.size / 1024)} KB)`,
        h(
          'button',
          {
            type: 'button',
            'aria-label': `Remove ${file.name}`,
            onclick: () => {
              pending.splice(index, 1);
              renderChips();
            },
          },
          '✕',
        ),
      ),
    ),
  );
}

/** Wire the attach button and file input of the composer. */
export function setUpAttachments(): void {
  const input = byId<HTMLInputElement>('file-input');
  byId('attach').addEventListener('click', () => input.click());
  input.addEventListener('change', () => {
    pending.push(...Array.from(input.files ?? []));
    input.value = '';
    renderChips();
  });
}

/** Files waiting to be sent; cleared by {@link takeAttachments}. */
export function hasAttachments(): boolean {
  return pending.length > 0;
}

export function takeAttachments(): File[] {
  const files = pending.splice(0);
  renderChips();
  return files;
}

/** Base64 of a file's bytes. */
export async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

/**
 * The parts for attached files: inline data up to {@link INLINE_LIMIT_BYTES}; a larger file is
 * saved as an artifact of the session first (`saveArtifact` returns its version) and the message
 * says where it is, so that the agent can load it with its artifact tools.
 */
export async function attachmentParts(
  files: File[],
  saveArtifact: (name: string, part: Part) => Promise<number>,
): Promise<Part[]> {
  const parts: Part[] = [];
  for (const file of files) {
    const inlineData = {
      mimeType: file.type || 'application/octet-stream',
      data: await base64Of(file),
      displayName: file.name,
    };
    if (file.size <= INLINE_LIMIT_BYTES) {
      parts.push({ inlineData });
    } else {
      const version = await saveArtifact(file.name, { inlineData });
      parts.push({
        text: `[The user attached "${file.name}" (${inlineData.mimeType}, ${file.size} bytes); it is saved as the artifact "${file.name}", version ${version}.]`,
      });
    }
  }
  return parts;
}
