import type { ArtifactService } from '../artifacts/artifact-service';
import { isUserScopedArtifact } from '../artifacts/artifact-validation';
import type { Part } from '../content';
import { InvocationNotFoundError } from '../errors/invocation-not-found-error';
import { createEvent, type Event } from '../events';
import { randomUuid } from '../events/random-uuid';
import { StatePrefix, type Session } from '../sessions/session';
import type { SessionService } from '../sessions/session-service';

/** Arguments of {@link rewindSession}. */
export interface RewindSessionRequest {
  sessionService: SessionService;
  /** The session, read with all of its events (no window). Updated in place, as by `appendEvent`. */
  session: Session;
  /** The invocation to undo, with every invocation after it. */
  rewindBeforeInvocationId: string;
  /** Where the session's artifacts live; without it, artifacts are left as they are. */
  artifactService?: ArtifactService;
}

/** Arguments of `Runner.rewind`. */
export interface RewindRequest {
  userId: string;
  sessionId: string;
  /** The invocation to undo, with every invocation after it (an `invocationId` of its events). */
  rewindBeforeInvocationId: string;
}

/**
 * `customMetadata` key of an artifact version a rewind saved: the invocation rewound before.
 */
export const REWIND_ARTIFACT_METADATA_KEY = 'adk_rewind_before_invocation_id';

function isSharedKey(key: string): boolean {
  return key.startsWith(StatePrefix.APP) || key.startsWith(StatePrefix.USER);
}

/**
 * The state delta that takes the session's own keys back to what they were before event `index`:
 * every key an event at or after `index` changed gets its value from the last event before `index`
 * that set it, or `null` when none did (it did not exist then, or came from the initial state of
 * `createSession`, which no event records). Keys no event from `index` on touched are left alone,
 * so initial state survives a rewind. `app:` and `user:` keys are shared with other sessions and
 * never rewound.
 */
export function rewindStateDelta(
  events: readonly Event[],
  index: number,
  state: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const changed = new Set<string>();
  for (let position = index; position < events.length; position++) {
    for (const key of Object.keys((events[position] as Event).actions.stateDelta ?? {})) {
      if (!isSharedKey(key)) changed.add(key);
    }
  }
  const delta: Record<string, unknown> = {};
  if (changed.size === 0) return delta;
  const before = new Map<string, unknown>();
  for (let position = 0; position < index; position++) {
    const stateDelta = (events[position] as Event).actions.stateDelta ?? {};
    for (const key of changed) if (key in stateDelta) before.set(key, stateDelta[key]);
  }
  for (const key of changed) {
    const value = before.has(key) ? before.get(key) : null;
    if (!(key in state) && value === null) continue;
    if (JSON.stringify(state[key]) !== JSON.stringify(value)) delta[key] = value;
  }
  return delta;
}

/** Latest version of each artifact named by the `artifactDelta`s of `events[from, to)`. */
function versionsBetween(events: readonly Event[], from: number, to: number): Map<string, number> {
  const versions = new Map<string, number>();
  for (let position = from; position < to; position++) {
    for (const [filename, version] of Object.entries(
      (events[position] as Event).actions.artifactDelta ?? {},
    ))
      versions.set(filename, version);
  }
  return versions;
}

/**
 * Save, for every session artifact whose version changed at or after event `index`, a new version
 * holding what the file held before: the content of its version then, or an empty file when it did
 * not exist yet (versions are never deleted, so the rewound ones stay readable). Returns the
 * artifact delta of the saves. `user:` artifacts are shared with other sessions and never rewound.
 */
export async function restoreArtifacts(
  artifactService: ArtifactService,
  session: Session,
  events: readonly Event[],
  index: number,
  rewindBeforeInvocationId: string,
): Promise<Record<string, number>> {
  const then = versionsBetween(events, 0, index);
  const now = versionsBetween(events, 0, events.length);
  const scope = { appName: session.appName, userId: session.userId, sessionId: session.id };
  const delta: Record<string, number> = {};
  for (const [filename, current] of now) {
    if (isUserScopedArtifact(filename)) continue;
    const version = then.get(filename);
    if (version === current) continue;
    const previous =
      version === undefined
        ? undefined
        : await artifactService.loadArtifact({ ...scope, filename, version });
    const artifact: Part = previous ?? {
      inlineData: { mimeType: 'application/octet-stream', data: '' },
    };
    delta[filename] = await artifactService.saveArtifact({
      ...scope,
      filename,
      artifact,
      customMetadata: { [REWIND_ARTIFACT_METADATA_KEY]: rewindBeforeInvocationId },
    });
  }
  return delta;
}

/**
 * Rewind `session` to before invocation `rewindBeforeInvocationId`, the way Python ADK's
 * `Runner.rewind_async` does: nothing is deleted; one event is appended (author `user`, a new
 * invocation id) carrying `actions.rewindBeforeInvocationId`, a state delta that restores the
 * session's own state keys and an artifact delta naming the versions saved to restore the
 * session's artifacts. From then on the rewound events are not part of the conversation
 * (`withoutRewoundEvents`): the model never sees them again and the Runner does not route by them.
 * Since it is one ordinary append, it works on every session store.
 *
 * Returns the stored rewind event.
 *
 * @throws InvocationNotFoundError when the session holds no event of the invocation.
 */
export async function rewindSession(request: RewindSessionRequest): Promise<Event> {
  const { session, rewindBeforeInvocationId: target } = request;
  const events = session.events;
  const index = events.findIndex((event) => event.invocationId === target);
  if (index < 0) throw new InvocationNotFoundError({ sessionId: session.id, invocationId: target });
  const stateDelta = rewindStateDelta(events, index, session.state);
  const artifactDelta = request.artifactService
    ? await restoreArtifacts(request.artifactService, session, events, index, target)
    : {};
  const event = createEvent({
    invocationId: `e-${randomUuid()}`,
    author: 'user',
    actions: { stateDelta, artifactDelta, rewindBeforeInvocationId: target },
  });
  return request.sessionService.appendEvent({ session, event });
}
