export { systemClock, type JobClock, type TimerHandle } from './job-clock';
