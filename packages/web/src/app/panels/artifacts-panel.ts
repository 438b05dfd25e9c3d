import { api } from '../api/client';
import type { Part } from '../api/types';
import { store } from '../store';
import { byId, download, h } from '../util/dom';
import { describeError } from './errors';

function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

/** A preview of one artifact version: text, JSON (pretty), image, or its size. */
export function preview(part: Part): HTMLElement {
  if (part.text !== undefined) return h('pre', { class: 'preview text' }, part.text);
  const data = part.inlineData;
  if (!data?.data) return h('pre', { class: 'preview' }, JSON.stringify(part, null, 2));
  const mime = data.mimeType ?? 'application/octet-stream';
  if (mime.startsWith('image/'))
    return h('img', {
      class: 'preview image',
      alt: data.displayName ?? 'artifact',
      src: `data:${mime};base64,${data.data}`,
    });
  const text = new TextDecoder().decode(bytesOf(data.data));
  if (mime === 'application/json' || mime.endsWith('+json')) {
    try {
      return h('pre', { class: 'preview json' }, JSON.stringify(JSON.parse(text), null, 2));
    } catch {
      return h('pre', { class: 'preview text' }, text);
    }
  }
  if (mime.startsWith('text/') || mime === 'application/xml' || mime === 'application/javascript')
    return h('pre', { class: 'preview text' }, text);
  return h('p', { class: 'muted' }, `${mime}, ${bytesOf(data.data).length} bytes (no preview)`);
}

function blobOf(part: Part): Blob {
  if (part.inlineData?.data)
    return new Blob([bytesOf(part.inlineData.data)], {
      type: part.inlineData.mimeType ?? 'application/octet-stream',
    });
  return new Blob([part.text ?? JSON.stringify(part)], { type: 'text/plain' });
}

async function artifactRow(name: string): Promise<HTMLElement> {
  const base = `${store.sessionPath}/artifacts/${encodeURIComponent(name)}`;
  const versions = (await api<number[]>(`${base}/versions`)).sort((a, b) => b - a);
  const select = h(
    'select',
    { class: 'version', 'aria-label': `Version of ${name}` },
    ...versions.map((version) => h('option', { value: version }, `v${version}`)),
  );
  const body = h('div', { class: 'artifact-body' });
  let part: Part | undefined;
  const show = async () => {
    body.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
    try {
      part = await api<Part>(`${base}/versions/${select.value}`);
      body.replaceChildren(preview(part));
    } catch (error) {
      body.replaceChildren(h('p', { class: 'error' }, describeError(error)));
    }
  };
  select.addEventListener('change', () => void show());
  const row = h(
    'div',
    { class: 'artifact', 'data-name': name },
    h(
      'div',
      { class: 'row' },
      h('strong', { class: 'artifact-name' }, name),
      h(
        'span',
        { class: 'muted' },
        `${versions.length} version${versions.length === 1 ? '' : 's'}`,
      ),
      select,
      h(
        'button',
        {
          type: 'button',
          class: 'download',
          onclick: () => {
            if (part) download(name, blobOf(part));
          },
        },
        'Download',
      ),
    ),
    body,
  );
  await show();
  return row;
}

/** Every artifact of the open session with its versions, a preview and a download. */
export async function drawArtifactsPanel(): Promise<void> {
  const panel = byId('panel-artifacts');
  if (!store.state.sessionId) {
    panel.replaceChildren(h('h2', {}, 'Artifacts'), h('p', { class: 'muted' }, 'No session yet.'));
    return;
  }
  try {
    const names = await api<string[]>(`${store.sessionPath}/artifacts`);
    const rows = await Promise.all(names.map(artifactRow));
    panel.replaceChildren(
      h('h2', {}, 'Artifacts'),
      ...(rows.length > 0 ? rows : [h('p', { class: 'muted' }, 'No artifacts in this session.')]),
    );
  } catch (error) {
    panel.replaceChildren(
      h('h2', {}, 'Artifacts'),
      h('p', { class: 'error' }, describeError(error)),
    );
  }
}
