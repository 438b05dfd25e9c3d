export {
  decodeJobChange,
  encodeJobChange,
  publishJobChanges,
  tellUnknownChange,
  type JobChange,
  type JobChangeFeed,
} from './job-change-feed';
