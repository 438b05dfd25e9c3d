/** The ADK packages a new project depends on, and where each goes. */
const ADK_DEPENDENCIES = ['@adk/core', '@adk/models-gemini'];
const ADK_DEV_DEPENDENCIES = ['@adk/cli'];

/** Every ADK package a new project names in its `package.json`. */
export const PROJECT_ADK_PACKAGES: readonly string[] = [
  ...ADK_DEPENDENCIES,
  ...ADK_DEV_DEPENDENCIES,
];

/** Options of {@link projectManifest}. */
export interface ProjectManifestOptions {
  /** App name (letters, digits, `_`); the package name is its kebab-case form. */
  name: string;
  /** The CLI's version: ADK packages from a registry get `^version`. */
  adkVersion: string;
  /**
   * ADK packages from local tarballs (`adk create --packages`): each package's `file:` range, and
   * the overrides that keep the ADK packages they depend on local too.
   */
  local?: { ranges: Record<string, string>; overrides: Record<string, string> };
}

/**
 * The `package.json` of a new project. Besides the dependencies, it allows better-sqlite3's build
 * script (npm 11's `allowScripts`, pnpm 10's `onlyBuiltDependencies`): `adk web` and `adk run`
 * keep their background jobs in SQLite, and both package managers skip dependency build scripts
 * that the project does not allow.
 */
export function projectManifest(options: ProjectManifestOptions): string {
  const range = (name: string) => options.local?.ranges[name] ?? `^${options.adkVersion}`;
  const manifest: Record<string, unknown> = {
    name: options.name.replace(/_/g, '-').toLowerCase(),
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      start: 'adk run agent.ts',
      web: 'adk web ..',
      eval: 'adk eval . evals/time.evalset.json',
      test: 'vitest run',
      typecheck: 'tsc',
    },
    dependencies: {
      ...Object.fromEntries(ADK_DEPENDENCIES.map((name) => [name, range(name)])),
      zod: '^4.0.0',
    },
    devDependencies: {
      ...Object.fromEntries(ADK_DEV_DEPENDENCIES.map((name) => [name, range(name)])),
      '@types/node': '^20.19.0',
      typescript: '~5.9.3',
      vitest: '~4.1.0',
    },
    allowScripts: { 'better-sqlite3': true },
    pnpm: {
      onlyBuiltDependencies: ['better-sqlite3', 'esbuild'],
      ...(options.local ? { overrides: options.local.overrides } : {}),
    },
  };
  if (options.local) manifest.overrides = options.local.overrides;
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
