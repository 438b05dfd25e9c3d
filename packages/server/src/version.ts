import packageJson from '../package.json' with { type: 'json' };

/** Version of `@adk/server`, reported by `GET /version`. */
export const version: string = packageJson.version;
