import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.SqlDriverMissingError');

/** Why a driver cannot be used: see {@link SqlDriverMissingError.reason}. */
export type SqlDriverMissingReason = 'missing' | 'not-built' | 'unsupported-node';

/** The driver's last major that runs on Node.js 20, for the fix of `unsupported-node`. */
const NODE_20_MAJOR: Record<string, string> = { 'better-sqlite3': '12' };

function messageOf(options: {
  packageName: string;
  reason: SqlDriverMissingReason;
  installed?: { version: string; engines: string } | undefined;
  nodeVersion: string;
}): string {
  const { packageName: name, installed, nodeVersion } = options;
  switch (options.reason) {
    case 'missing':
      return `This database URL needs the "${name}" package. Install it: npm install ${name}`;
    case 'not-built':
      return `"${name}" is installed but its native addon was not built for this Node.js (v${nodeVersion}). Allow its install script, then build it: npm install-scripts approve ${name} && npm rebuild ${name} (npm 11), or pnpm approve-builds (pnpm 10: add it to onlyBuiltDependencies) and pnpm rebuild ${name}.`;
    case 'unsupported-node': {
      const major = NODE_20_MAJOR[name];
      const older = major
        ? `install ${name} ${major}, which supports it: npm install ${name}@${major} (its native addon is built at install: allow its install script, see the @adk/session-sql README)`
        : `install a version of ${name} whose "engines" include it`;
      return `"${name}" ${installed?.version ?? ''} needs Node.js ${installed?.engines ?? 'a newer version'}, and this is Node.js v${nodeVersion}: loading its native addon would crash the process. Run Node.js 22 or 24, or ${older}.`;
    }
  }
}

/**
 * A database URL needs a driver package that cannot be used: not installed (`better-sqlite3` or
 * `pg`), installed without its native addon (`better-sqlite3` whose build script was skipped: npm
 * 11 and pnpm 10 skip dependency build scripts unless the project allows them, or whose addon was
 * built for another Node.js), or made for a newer Node.js than the running one (better-sqlite3 13
 * on Node 20, whose addon would crash the process). The message says how to fix it. Thrown by
 * {@link openSqlDatabase}; `@adk/session-sql` re-exports it.
 */
export class SqlDriverMissingError extends AdkError {
  private readonly [MARKER] = true;
  /** The npm package to install. */
  readonly packageName: string;

  /**
   * `missing`: not installed; `not-built`: installed, but its native addon cannot be loaded;
   * `unsupported-node`: its `engines` exclude the running Node.js (checked before loading it).
   */
  readonly reason: SqlDriverMissingReason;

  /** With `unsupported-node`: the installed version and its `engines.node` range. */
  readonly installed: { version: string; engines: string } | undefined;

  constructor(options: {
    packageName: string;
    reason?: SqlDriverMissingReason;
    installed?: { version: string; engines: string };
    /** The running Node.js (default `process.versions.node`). */
    nodeVersion?: string;
    cause?: unknown;
  }) {
    const reason = options.reason ?? 'missing';
    super('SqlDriverMissingError', 'SQL_DRIVER_MISSING', {
      message: messageOf({
        packageName: options.packageName,
        reason,
        installed: options.installed,
        nodeVersion: options.nodeVersion ?? process.versions.node,
      }),
      cause: options.cause,
    });
    this.reason = reason;
    this.packageName = options.packageName;
    this.installed = options.installed;
  }

  static override isInstance(error: unknown): error is SqlDriverMissingError {
    return AdkError.hasMarker(error, MARKER);
  }
}
