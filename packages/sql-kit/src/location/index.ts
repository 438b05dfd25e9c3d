export { inSchema, qualifiedTable, type SqlTablesLocation } from './sql-tables-location';
