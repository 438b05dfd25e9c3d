export {
  WORKFLOW_CHANNELS,
  type WorkflowNodeEndMessage,
  type WorkflowNodeStartMessage,
} from './channels';
