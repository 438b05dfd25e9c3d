export {
  detectSqlDialect,
  requireSqlDialect,
  type DetectSqlDialectOptions,
  type RequireSqlDialectOptions,
} from './detect-sql-dialect';
export { isUniqueViolation } from './is-unique-violation';
export { advisoryLockId, lockKeyForTransaction } from './lock-key-for-transaction';
export { retryOnUniqueViolation } from './retry-on-unique-violation';
export type { AnyKysely, SqlDialect } from './sql-dialect';
