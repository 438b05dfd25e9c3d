export {
  decodeJobChange,
  encodeJobChange,
  publishJobChanges,
  type JobChange,
  type JobChangeFeed,
} from './job-change-feed';
