export { InvalidCronExpressionError } from './invalid-cron-expression-error';
export { JobRunnerNotFoundError } from './job-runner-not-found-error';
export { JobEngineStoppedError } from './job-engine-stopped-error';
export { JobSchemaVersionError } from './job-schema-version-error';
export { UnsupportedJobDialectError } from './unsupported-job-dialect-error';
