export { decodeEventRow, encodeEventData, type EventRowValues } from './event-codec';
export { fromStorageKeys, toCamelCase, toSnakeCase, toStorageKeys } from './key-case';
