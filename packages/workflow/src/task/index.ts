export {
  FINISH_TASK_TOOL_NAME,
  TaskAgent,
  type TaskAgentOptions,
  type TaskMode,
} from './task-agent';
