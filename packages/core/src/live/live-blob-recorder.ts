import type { ArtifactService } from '../artifacts';
import type { Blob } from '../content';
import { createEvent, type Event } from '../events';
import type { LiveEventSource } from './live-transcript';

/** Where the recorder saves: the artifact service and the session's scope. */
export interface LiveBlobScope {
  artifactService: ArtifactService;
  appName: string;
  userId: string;
  sessionId: string;
}

/** `customMetadata` key of an event that references a recorded live blob. */
export const LIVE_BLOB_METADATA_KEY = 'adk_live_blob';

/**
 * With `RunConfig.saveLiveBlob`: collects the realtime chunks of one side of a live
 * conversation (the user's audio / video, the model's audio) and, at each turn boundary, saves
 * them as one artifact per media type, returning a stored event that references it
 * (`actions.artifactDelta` and `customMetadata.adk_live_blob`; no content, so models never get the
 * bytes back in their history).
 */
export class LiveBlobRecorder {
  readonly #chunks = new Map<string, Buffer[]>();
  #count = 0;

  constructor(
    private readonly scope: LiveBlobScope,
    private readonly role: 'input' | 'output',
  ) {}

  add(blob: Blob): void {
    const list = this.#chunks.get(blob.mimeType);
    const bytes = Buffer.from(blob.data, 'base64');
    if (list) list.push(bytes);
    else this.#chunks.set(blob.mimeType, [bytes]);
  }

  /** Whether chunks are waiting. */
  get pending(): boolean {
    return this.#chunks.size > 0;
  }

  /** Save what was collected; the referencing events (authored by the user or the agent). */
  async flush(source: LiveEventSource): Promise<Event[]> {
    if (this.#chunks.size === 0) return [];
    const collected = [...this.#chunks];
    this.#chunks.clear();
    const events: Event[] = [];
    for (const [mimeType, chunks] of collected) {
      this.#count += 1;
      const filename = `live-${this.role}-${source.invocationId}-${this.#count}.${extensionOf(mimeType)}`;
      const version = await this.scope.artifactService.saveArtifact({
        appName: this.scope.appName,
        userId: this.scope.userId,
        sessionId: this.scope.sessionId,
        filename,
        artifact: { inlineData: { mimeType, data: Buffer.concat(chunks).toString('base64') } },
      });
      events.push(
        createEvent({
          invocationId: source.invocationId,
          author: this.role === 'input' ? 'user' : source.agentName,
          branch: source.branch,
          actions: { artifactDelta: { [filename]: version } },
          customMetadata: { [LIVE_BLOB_METADATA_KEY]: { filename, version, mimeType } },
        }),
      );
    }
    return events;
  }
}

function extensionOf(mimeType: string): string {
  const base = mimeType.split(';')[0]?.trim() ?? '';
  if (base === 'audio/pcm' || base === 'audio/l16') return 'pcm';
  const slash = base.indexOf('/');
  const sub = slash >= 0 ? base.slice(slash + 1) : base;
  return /^[a-z0-9.+-]+$/i.test(sub) ? sub.replace('+', '-') : 'bin';
}
