/** Tag opening the plan in a {@link PlanReActPlanner} answer. */
export const PLANNING_TAG = '/*PLANNING*/';
/** Tag opening a revised plan. */
export const REPLANNING_TAG = '/*REPLANNING*/';
/** Tag opening the reasoning between tool calls. */
export const REASONING_TAG = '/*REASONING*/';
/** Tag opening the tool calls of a step. */
export const ACTION_TAG = '/*ACTION*/';
/** Tag opening the final answer. */
export const FINAL_ANSWER_TAG = '/*FINAL_ANSWER*/';
