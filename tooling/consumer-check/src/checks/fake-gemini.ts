import { startFakeGemini, type FakeProviderServer } from '@adk/fake-provider-servers';

/** What the fake Gemini answers once the weather tool has run. */
export const WEATHER_ANSWER = 'It is sunny in Paris, 21 degrees.';

/** Whether a Gemini request already carries a function response (the tool ran). */
function hasToolResult(body: unknown): boolean {
  const contents = (body as { contents?: { parts?: { functionResponse?: unknown }[] }[] })
    ?.contents;
  return (contents?.at(-1)?.parts ?? []).some((part) => part.functionResponse !== undefined);
}

/**
 * A fake Gemini API on 127.0.0.1 playing the weather conversation of the READMEs: it calls
 * `get_weather` for Paris, then answers {@link WEATHER_ANSWER}. Users point the published
 * `@adk/models-gemini` at it with `GOOGLE_GEMINI_BASE_URL` (its `url`).
 */
export function startWeatherGemini(): Promise<FakeProviderServer> {
  return startFakeGemini({
    script: (request) =>
      hasToolResult(request.body)
        ? { text: WEATHER_ANSWER }
        : { toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
  });
}

/** The tool result of a Gemini request that carries one (the last content's function response). */
function toolResult(body: unknown): Record<string, unknown> | undefined {
  const contents = (
    body as { contents?: { parts?: { functionResponse?: { response?: unknown } }[] }[] }
  )?.contents;
  const part = (contents?.at(-1)?.parts ?? []).find((candidate) => candidate.functionResponse);
  return part?.functionResponse?.response as Record<string, unknown> | undefined;
}

/**
 * A fake Gemini API for the project `adk create` makes: it calls `get_time` for Asia/Tokyo, then
 * answers `It is <time> in Tokyo.` with the time the tool returned (what its eval set expects).
 */
export function startTimeGemini(): Promise<FakeProviderServer> {
  return startFakeGemini({
    script: (request) => {
      const result = toolResult(request.body);
      return result
        ? { text: `It is ${String(result.time)} in Tokyo.` }
        : { toolCalls: [{ name: 'get_time', args: { timeZone: 'Asia/Tokyo' } }] };
    },
  });
}
