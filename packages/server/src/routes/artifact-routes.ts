import type { ArtifactService, Part } from '@adk/core';
import { Hono } from 'hono';
import type { Context } from 'hono';

import type { ServerContext } from '../app/server-context';
import { httpError } from '../http/http-error';
import { readBody } from '../http/read-body';
import { saveArtifactRequestSchema, versionSchema } from '../http/schemas';

const base = '/apps/:app/users/:user/sessions/:session/artifacts';

function parseVersion(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const result = versionSchema.safeParse(raw);
  if (!result.success)
    throw httpError(400, `Invalid version "${raw}": ${result.error.issues[0]?.message}`);
  return result.data;
}

/**
 * Artifact routes: list names, load the latest or a given version (`?version=` or
 * `/versions/{v}`), list versions, save, delete. Answer 501 when no artifact service is set.
 */
export function artifactRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();

  const scope = (c: Context) => {
    const service: ArtifactService | undefined = ctx.options.artifactService;
    if (!service) throw httpError(501, 'This server has no artifact service configured.');
    const appName = c.req.param('app')!;
    ctx.app(appName);
    return {
      service,
      scope: { appName, userId: c.req.param('user')!, sessionId: c.req.param('session')! },
    };
  };
  const found = (part: Part | undefined, filename: string) => {
    if (!part) throw httpError(404, `Artifact not found: ${filename}`);
    return part;
  };

  routes.get(base, async (c) => {
    const { service, scope: s } = scope(c);
    return c.json(await service.listArtifactKeys(s));
  });

  routes.post(base, async (c) => {
    const { service, scope: s } = scope(c);
    const body = await readBody(c, saveArtifactRequestSchema);
    const version = await service.saveArtifact({
      ...s,
      filename: body.filename,
      artifact: body.artifact as Part,
      ...(body.custom_metadata ? { customMetadata: body.custom_metadata } : {}),
    });
    return c.json({
      version,
      filename: body.filename,
      ...(body.custom_metadata ? { customMetadata: body.custom_metadata } : {}),
    });
  });

  routes.get(`${base}/:name`, async (c) => {
    const { service, scope: s } = scope(c);
    const filename = c.req.param('name');
    const version = parseVersion(c.req.query('version'));
    const part = await service.loadArtifact({
      ...s,
      filename,
      ...(version === undefined ? {} : { version }),
    });
    return c.json(found(part, filename));
  });

  routes.get(`${base}/:name/versions`, async (c) => {
    const { service, scope: s } = scope(c);
    return c.json(await service.listVersions({ ...s, filename: c.req.param('name') }));
  });

  routes.get(`${base}/:name/versions/:version`, async (c) => {
    const { service, scope: s } = scope(c);
    const filename = c.req.param('name');
    const version = parseVersion(c.req.param('version'))!;
    return c.json(found(await service.loadArtifact({ ...s, filename, version }), filename));
  });

  routes.delete(`${base}/:name`, async (c) => {
    const { service, scope: s } = scope(c);
    await service.deleteArtifact({ ...s, filename: c.req.param('name') });
    return c.json(null);
  });

  return routes;
}
