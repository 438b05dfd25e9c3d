/**
 * The scripted model behaviour both frameworks get, kept in one place so the two adapters cannot
 * drift: stateless, decided from the request alone, so it is safe under concurrency.
 *
 * - If the last content of the request carries a function response, answer with text.
 * - Otherwise, call the `get_weather` tool once.
 */

/** Name of the single tool of the benchmark agent. */
export const TOOL_NAME = 'get_weather';
/** Description of the tool, identical for both frameworks. */
export const TOOL_DESCRIPTION = 'Returns the current weather for a city.';
/** Instruction of the agent, identical for both frameworks. */
export const INSTRUCTION = 'You are a weather assistant. Use the get_weather tool to answer.';
/** Name of the agent, identical for both frameworks. */
export const AGENT_NAME = 'weather_agent';
/** Model name given to both agents (never resolved through a registry). */
export const MODEL_NAME = 'scripted-model';
/** App name given to both runners. */
export const APP_NAME = 'bench';

/** Arguments of the scripted function call. */
export const CALL_ARGS: Readonly<Record<string, unknown>> = Object.freeze({ city: 'Paris' });

/** The tool's work: a small structured result. */
export function weatherFor(city: string): { city: string; forecast: string; temperatureC: number } {
  return { city, forecast: 'sunny', temperatureC: 21 };
}

/** The final text the scripted model answers with. */
export const FINAL_TEXT = 'It is sunny in Paris, 21 degrees.';

interface PartLike {
  functionResponse?: unknown;
}
interface ContentLike {
  parts?: PartLike[];
}

/** True when the request's last content holds a function response (so the model should answer). */
export function lastContentHasFunctionResponse(
  contents: readonly ContentLike[] | undefined,
): boolean {
  const last = contents?.[contents.length - 1];
  return last?.parts?.some((part) => part.functionResponse !== undefined) ?? false;
}

/** The part of an event (of either framework) that a benchmark turn inspects. */
export interface TurnEvent {
  errorCode?: string;
  errorMessage?: string;
  content?: { parts?: Array<{ text?: string }> };
}

/**
 * Drain one turn's events and return its answer. Both frameworks' turns are checked the same way:
 * an error event or a missing scripted answer fails the benchmark instead of timing a broken run.
 */
export async function finishTurn(
  framework: string,
  events: AsyncIterable<TurnEvent>,
): Promise<string> {
  let finalText = '';
  for await (const event of events) {
    if (event.errorCode !== undefined)
      throw new Error(`${framework} turn failed: ${event.errorMessage}`);
    const part = event.content?.parts?.[0];
    if (part?.text !== undefined) finalText = part.text;
  }
  if (finalText !== FINAL_TEXT)
    throw new Error(`${framework} turn ended without the scripted answer`);
  return finalText;
}
