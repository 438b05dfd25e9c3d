export { BuiltInPlanner } from './built-in-planner';
export { PLAN_RE_ACT_INSTRUCTION } from './plan-re-act-instruction';
export { PlanReActPlanner } from './plan-re-act-planner';
export {
  ACTION_TAG,
  FINAL_ANSWER_TAG,
  PLANNING_TAG,
  REASONING_TAG,
  REPLANNING_TAG,
} from './plan-re-act-tags';
export type { Planner } from './planner';
