import {
  InvalidArgumentError,
  isUserScopedArtifact,
  validateArtifactName,
  validateArtifactPart,
  validateArtifactVersion,
  type ArtifactScope,
  type LoadArtifactRequest,
  type SaveArtifactRequest,
} from '@adk/core';

/** Where a file lives: the session, or the user (for `user:` names). */
export interface ResolvedLocation {
  appName: string;
  userId: string;
  /** `undefined` for user-scoped (`user:`) names. */
  sessionId: string | undefined;
  filename: string;
}

/** Check the scope fields: non-empty strings. */
export function checkScope(scope: ArtifactScope): void {
  for (const key of ['appName', 'userId', 'sessionId'] as const) {
    const value = scope[key];
    if (typeof value !== 'string' || value.length === 0) {
      throw new InvalidArgumentError({
        message: `Artifact ${key} must be a non-empty string.`,
        argument: key,
      });
    }
  }
}

/** Validate scope and name, and say where the file lives. */
export function locate(request: ArtifactScope & { filename: string }): ResolvedLocation {
  checkScope(request);
  validateArtifactName(request.filename);
  return {
    appName: request.appName,
    userId: request.userId,
    sessionId: isUserScopedArtifact(request.filename) ? undefined : request.sessionId,
    filename: request.filename,
  };
}

/** Validate a save request completely before anything is written. */
export function checkSave(request: SaveArtifactRequest): ResolvedLocation {
  const location = locate(request);
  validateArtifactPart(request.artifact);
  if (
    request.customMetadata !== undefined &&
    (request.customMetadata === null || typeof request.customMetadata !== 'object')
  ) {
    throw new InvalidArgumentError({
      message: 'customMetadata must be a plain object.',
      argument: 'customMetadata',
    });
  }
  return location;
}

/** Validate a load request (name and version). */
export function checkLoad(request: LoadArtifactRequest): ResolvedLocation {
  const location = locate(request);
  validateArtifactVersion(request.version);
  return location;
}

/** A deep copy of JSON metadata, or `undefined`. */
export function copyMetadata(
  metadata: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  return metadata === undefined
    ? undefined
    : (JSON.parse(JSON.stringify(metadata)) as Record<string, unknown>);
}
