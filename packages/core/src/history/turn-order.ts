import type { Content } from '../content';

/**
 * Text of the user turn put first when the history an agent sees would start with a model turn
 * (the user message was compacted away, or hidden by `includeContents: 'none'`).
 */
export const LEADING_USER_TURN_TEXT = '[Earlier conversation omitted]';

/**
 * Text of the user turn put last when the history would end with the agent's own turn: after a
 * long-running tool's answer was paired with its call (earlier in the history), or when an agent
 * runs again in a loop. Some providers (Anthropic) would otherwise take the trailing model turn as
 * the start of the answer to continue.
 */
export const CONTINUE_TURN_TEXT =
  'Continue from where you left off. If nothing is left to do, give your final answer.';

/** Text of the only user turn of a request whose history shows the model nothing at all. */
export const EMPTY_HISTORY_TEXT = 'Follow the system instruction.';

function userTurn(text: string): Content {
  const turn: Content = { role: 'user', parts: [Object.freeze({ text })] };
  Object.freeze(turn.parts);
  return Object.freeze(turn);
}

const LEADING = userTurn(LEADING_USER_TURN_TEXT);
const CONTINUE = userTurn(CONTINUE_TURN_TEXT);
const EMPTY = userTurn(EMPTY_HISTORY_TEXT);

/**
 * Make `contents` (a fresh array the caller owns; changed in place and returned) a conversation
 * every provider accepts: it starts with a user turn and never ends with a model turn. A user turn
 * is added where one is missing (the turns added are frozen and shared); nothing is removed or
 * reordered, so every function call stays right before its response. An empty history gets one
 * user turn. Two role reads when nothing is missing.
 */
export function withUserTurnsAtEnds(contents: Content[]): Content[] {
  if (contents.length === 0) {
    contents.push(EMPTY);
    return contents;
  }
  if (isModelTurn(contents[0] as Content)) contents.unshift(LEADING);
  if (isModelTurn(contents[contents.length - 1] as Content)) contents.push(CONTINUE);
  return contents;
}

/** A turn of the model (providers read any other role, or none, as the user's). */
function isModelTurn(content: Content): boolean {
  return content.role === 'model' || content.role === 'assistant';
}
