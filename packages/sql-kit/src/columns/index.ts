export { epochMillis } from './epoch-millis';
export { decodeJsonColumn, encodeJsonColumn } from './json-column';
